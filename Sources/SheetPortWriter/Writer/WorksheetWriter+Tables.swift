import SheetPortCore

extension WorksheetWriter {
    /// Adds a table over cells of this sheet (written as `xl/tables/tableN.xml`): its header
    /// row's cells should hold the column names, as Excel writes them. Tables are added before
    /// the sheet ends (the next `addWorksheet` or `close`).
    /// - Throws: `WriterError.invalidArgument` for a table Excel would not take
    ///   (`WorksheetTable.violation(beside:)`), or a name another table of the workbook has;
    ///   `WriterError.finished` once the sheet ended.
    public func addTable(_ table: WorksheetTable) throws {
        guard !isFinished else { throw WriterError.finished }
        if let violation = table.violation(beside: tables) { throw WriterError.invalidArgument("\(name): \(violation)") }
        if let autoFilter, Self.overlap(autoFilter, table.range) {
            throw WriterError.invalidArgument("\(name): table \(table.name) overlaps the sheet's autofilter \(autoFilter); a table has its own")
        }
        guard !workbook.hasTable(named: table.name) else {
            throw WriterError.invalidArgument("\(name): a table named \(table.name) already exists in the workbook")
        }
        tables.append(table)
    }
}
