/// Rows of a worksheet as its XML gives them, their cells' values not yet decoded: what
/// `WorksheetPart` collects, in a few flat arrays rather than a `Row` of `Cell`s each, so that
/// the decoding (`CellDecoder`: shared-string lookups, numbers, dates) can run on another
/// thread than the XML (`RowProducer`).
struct UndecodedRows {
    /// How a cell's value is to be read (its `t` attribute).
    enum ValueType: UInt8 { case number, sharedString, formulaString, inlineString, boolean, error, isoDate }

    /// A row's attributes and where its cells end in `cells`.
    struct RowHeader {
        var index: Int
        var height: Double?
        var isHidden: Bool
        /// One past the row's last cell in `cells`.
        var cellEnd: Int
    }

    /// A cell: its column, style, type, and where its `<v>` text is in `text`.
    struct CellHeader {
        var column: Int
        var styleIndex: Int
        var type: ValueType
        /// Whether the cell had a `<v>` element.
        var hasValue: Bool
        /// Where the `<v>` text is in `text`.
        var textStart: Int
        var textEnd: Int
        /// Index into `extras` for a cell with a formula or an inline string, or -1.
        var extra: Int
    }

    /// What few cells have: a formula (resolved, shared ones moved to the cell) or an inline string.
    struct Extra {
        var formula: String?
        var formulaKind: FormulaKind
        var inlineString: String?
    }

    /// The rows; the last one is still open (its cells still coming) when `hasOpenRow`.
    private(set) var rows: [RowHeader] = []
    private(set) var cells: [CellHeader] = []
    private(set) var text: [UInt8] = []
    private(set) var extras: [Extra] = []
    /// Whether the last row is still open.
    private(set) var hasOpenRow = false

    /// Complete rows held.
    var count: Int { rows.count - (hasOpenRow ? 1 : 0) }
    /// Whether no complete row is held.
    var isEmpty: Bool { count == 0 }

    /// Empty, with room for `rows` rows of ten cells.
    init(reservingRows rows: Int = 0) {
        guard rows > 0 else { return }
        self.rows.reserveCapacity(rows)
        cells.reserveCapacity(rows * 10)
        text.reserveCapacity(rows * 64)
    }

    /// Opens a row; its cells are those appended until `closeRow()`.
    mutating func openRow(index: Int, height: Double?, isHidden: Bool) {
        rows.append(RowHeader(index: index, height: height, isHidden: isHidden, cellEnd: cells.count))
        hasOpenRow = true
    }

    /// Closes the open row: it is complete.
    mutating func closeRow() { hasOpenRow = false }

    /// The complete rows, leaving only the open row, if any, to collect the rest of its cells.
    mutating func takeComplete() -> UndecodedRows {
        var complete = UndecodedRows(reservingRows: max(256, rows.count))
        swap(&complete, &self)
        guard complete.hasOpenRow else { return complete }
        // The open row moves over with its cells so far (a batch may end inside a row).
        let open = complete.rows.removeLast()
        complete.hasOpenRow = false
        let firstCell = complete.rows.last?.cellEnd ?? 0
        openRow(index: open.index, height: open.height, isHidden: open.isHidden)
        for cell in complete.cells[firstCell...] {
            var moved = cell
            moved.textStart = text.count
            text.append(contentsOf: complete.text[cell.textStart..<cell.textEnd])
            moved.textEnd = text.count
            if cell.extra >= 0 {
                moved.extra = extras.count
                extras.append(complete.extras[cell.extra])
            }
            cells.append(moved)
        }
        rows[0].cellEnd = cells.count
        if firstCell < complete.cells.count {
            complete.text.removeSubrange(complete.cells[firstCell].textStart...)
            complete.cells.removeSubrange(firstCell...)
        }
        return complete
    }

    /// The number of the open row (a row without `r` takes its first cell's).
    var lastRowIndex: Int {
        get { rows[rows.count - 1].index }
        set { rows[rows.count - 1].index = newValue }
    }

    /// Appends a cell to the last row: `value` is its `<v>` text when it had one.
    mutating func appendCell(column: Int, styleIndex: Int, type: ValueType, value: TextCollector?, extra: Extra?) {
        let start = text.count
        if let value { value.withBytes { text.append(contentsOf: $0) } }
        var extraIndex = -1
        if let extra {
            extraIndex = extras.count
            extras.append(extra)
        }
        cells.append(CellHeader(column: column, styleIndex: styleIndex, type: type, hasValue: value != nil,
                                textStart: start, textEnd: text.count, extra: extraIndex))
        rows[rows.count - 1].cellEnd = cells.count
    }

    /// Calls `body` with each complete row's header and the range of its cells in `cells`.
    func forEachRow(_ body: (RowHeader, Range<Int>) -> Void) {
        var start = 0
        for row in rows[0..<count] {
            body(row, start..<row.cellEnd)
            start = row.cellEnd
        }
    }
}
