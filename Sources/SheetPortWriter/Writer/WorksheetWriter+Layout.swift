import SheetPortCore

extension WorksheetWriter {
    /// Freezes the top `rows` rows and the left `columns` columns (a `<pane state="frozen">` in
    /// the sheet view): they stay in view while the rest scrolls. Allowed only before the first
    /// row; a second call replaces the first.
    public func freezePanes(rows: Int, columns: Int = 0) throws {
        guard !isFinished else { throw WriterError.finished }
        guard !started else {
            throw WriterError.invalidArgument("\(name): panes must be frozen before the first row")
        }
        guard (0..<CellReference.maxRow).contains(rows), (0..<CellReference.maxColumn).contains(columns) else {
            throw WriterError.invalidArgument("\(name): \(rows) rows and \(columns) columns cannot be frozen: Excel's grid leaves "
                                              + "0 to 1,048,575 rows and 0 to 16,383 columns")
        }
        frozenPane = rows == 0 && columns == 0 ? nil : (rows, columns)
    }

    /// Puts an autofilter on `range` (`<autoFilter ref>`): its first row gets the filter
    /// buttons, as Excel's Data > Filter does, with the hidden name `_xlnm._FilterDatabase`
    /// Excel keeps beside it. Allowed until the sheet is finished; a second call replaces the
    /// first. The range must not overlap a table, which has its own filter.
    public func setAutoFilter(_ range: CellRange) throws {
        guard !isFinished, !workbook.isClosed else { throw WriterError.finished }
        for corner in [range.start, range.end] where !(1...CellReference.maxRow).contains(corner.row)
            || !(1...CellReference.maxColumn).contains(corner.column) {
            throw WriterError.outsideGrid(sheet: name, row: corner.row, column: corner.column)
        }
        let range = CellRange(range.start, range.end) // top left to bottom right
        if let table = tables.first(where: { Self.overlap($0.range, range) }) {
            throw WriterError.invalidArgument("\(name): the autofilter \(range) overlaps table \(table.name), which has its own")
        }
        let local = number - 1
        workbook.definedNames.removeAll { $0.localSheet == local && $0.name.uppercased() == Self.filterDatabase.uppercased() }
        let quoted = "'" + name.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        let absolute = { (cell: CellReference) in "$" + CellReference.columnName(cell.column) + "$" + String(cell.row) }
        workbook.definedNames.append(WrittenName(name: Self.filterDatabase, formula: quoted + "!" + absolute(range.start) + ":" + absolute(range.end),
                                                 localSheet: local, isHidden: true))
        autoFilter = range
    }

    /// Whether two ranges share a cell (each given top left to bottom right).
    static func overlap(_ one: CellRange, _ other: CellRange) -> Bool {
        one.start.row <= other.end.row && other.start.row <= one.end.row
            && one.start.column <= other.end.column && other.start.column <= one.end.column
    }

    /// The built-in name Excel gives a sheet's autofilter range.
    static let filterDatabase = "_xlnm._FilterDatabase"

    /// `<pane>` (and its selection) for `frozen` rows and columns, inside `<sheetView>`.
    static func writePane(_ frozen: (rows: Int, columns: Int), into xml: inout XMLWriter) {
        let pane = frozen.rows > 0 ? (frozen.columns > 0 ? "bottomRight" : "bottomLeft") : "topRight"
        let topLeft = CellReference(row: frozen.rows + 1, column: frozen.columns + 1).description
        xml.raw("<pane")
        if frozen.columns > 0 { xml.raw(" xSplit=\""); xml.int(frozen.columns); xml.raw("\"") }
        if frozen.rows > 0 { xml.raw(" ySplit=\""); xml.int(frozen.rows); xml.raw("\"") }
        xml.raw(" topLeftCell=\""); xml.raw(topLeft); xml.raw("\" activePane=\""); xml.raw(pane); xml.raw("\" state=\"frozen\"/>")
        xml.raw("<selection pane=\""); xml.raw(pane); xml.raw("\" activeCell=\""); xml.raw(topLeft)
        xml.raw("\" sqref=\""); xml.raw(topLeft); xml.raw("\"/>")
    }
}
