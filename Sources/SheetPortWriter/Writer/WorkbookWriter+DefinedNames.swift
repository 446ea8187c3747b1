import SheetPortCore

/// A defined name as the writer writes it into `xl/workbook.xml`.
struct WrittenName {
    var name: String
    var formula: String
    /// The 0-based position of the sheet it is local to; nil for the workbook's.
    var localSheet: Int?
    var isHidden: Bool
}

extension WorkbookWriter {
    /// Defines a name (`<definedName>` in `xl/workbook.xml`) for a range, a constant or any
    /// formula (`Sheet1!$B$2:$B$9`, `0.2`, `LAMBDA(x,x*2)`; no leading `=`), for the workbook
    /// or local to `sheet`. Excel's built-in names (`_xlnm.Print_Area`) are written as given.
    /// - Throws: `WriterError.invalidArgument` for a name Excel refuses (`WorkbookName.isValid`),
    ///   a second name of one scope (names compare ignoring case), or a formula that is empty,
    ///   longer than 8,192 characters or holds a control character other than a line break.
    public func defineName(_ name: String, formula: String, localTo sheet: WorksheetWriter? = nil, isHidden: Bool = false) throws {
        guard !isClosed else { throw WriterError.finished }
        guard WorkbookName.isValid(name) else {
            throw WriterError.invalidArgument("\"\(name.visibleControlCharacters)\" is not a name Excel accepts")
        }
        let formula = formula.hasPrefix("=") ? String(formula.dropFirst()) : formula
        guard !formula.isEmpty, formula.utf16.count <= 8_192, !formula.containsUnsafeControlBesideLineBreaks else {
            throw WriterError.invalidArgument("the formula of name \(name) is empty, too long or holds a control character")
        }
        let localSheet = sheet.map { $0.number - 1 }
        guard !definedNames.contains(where: { $0.localSheet == localSheet && $0.name.uppercased() == name.uppercased() }) else {
            throw WriterError.invalidArgument("the name \(name) is already defined\(sheet.map { " on sheet \($0.name)" } ?? " for the workbook")")
        }
        definedNames.append(WrittenName(name: name, formula: formula, localSheet: localSheet, isHidden: isHidden))
    }

    /// Whether a sheet of the workbook has a table named `name` (ignoring case).
    func hasTable(named name: String) -> Bool {
        sheets.contains { $0.tables.contains { $0.name.uppercased() == name.uppercased() } }
    }
}
