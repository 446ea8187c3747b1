extension CalcEngine {
    /// Numbers the sheets as Excel's SHEET and SHEETS count them: every sheet of the workbook,
    /// hidden or not, chart, macro and dialog sheets too (Microsoft's SHEET and SHEETS reference),
    /// of which the engine holds only the worksheets. `numbers[k]` is the 1-based position of
    /// engine sheet k in the workbook's tab order; `count` how many sheets the workbook has.
    /// Numbers that are out of order or out of range are ignored.
    public func numberSheets(_ numbers: [Int], count: Int) {
        guard numbers.count == sheets.count, numbers.allSatisfy({ $0 >= 1 && $0 <= count }),
              Set(numbers).count == numbers.count else { return }
        sheetNumbering = (numbers, count)
    }

    /// The 1-based number SHEET answers for engine sheet `index`.
    func sheetNumber(_ index: Int32) -> Int {
        guard let numbering = sheetNumbering, numbering.numbers.indices.contains(Int(index)) else { return Int(index) + 1 }
        return numbering.numbers[Int(index)]
    }

    /// How many sheets SHEETS() answers for the whole workbook.
    var workbookSheetCount: Int { sheetNumbering?.count ?? sheets.count }
}
