extension CalcEngine {
    /// The sheets a reference's sheet prefix names: the formula's own sheet without one, that sheet,
    /// or for a 3-D reference (`Sheet1:Sheet3!A1`, stored as the name `Sheet1:Sheet3`) every sheet
    /// from the first to the last in workbook order (either way round); empty when a sheet is unknown.
    func sheetSpan(_ name: String?, home: Int32) -> ClosedRange<Int32>? {
        guard let name else { return home...home }
        let upper = name.uppercased()
        if let s = sheetByName[upper] { return s...s }
        // Excel forbids ':' in sheet names, so a colon always separates the two ends.
        guard let colon = upper.firstIndex(of: ":"),
              let a = sheetByName[String(upper[..<colon])],
              let b = sheetByName[String(upper[upper.index(after: colon)...])] else { return nil }
        return min(a, b)...max(a, b)
    }
}

extension Evaluator {
    /// A reference over the sheets of `span`: one range, or one per sheet (SUM-like functions read
    /// them all; functions taking one reference answer `#VALUE!` as for any union).
    func spanning(_ span: ClosedRange<Int32>, _ range: (Int32) -> SheetRange) -> Operand {
        if span.count == 1 { return .ref(range(span.lowerBound)) }
        return .refs(span.map(range))
    }
}
