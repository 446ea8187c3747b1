import SheetPortCore
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

    /// What few cells have: a formula (resolved, shared ones moved to the cell), an inline string,
    /// an error's value metadata (`vm`: Excel 365's rich-value errors), an array formula's cell
    /// metadata (`cm`: whether it is a dynamic array).
    struct Extra {
        var formula: String?
        var formulaKind: FormulaKind
        var inlineString: String?
        var valueMetadata: Int? = nil
        var cellMetadata: Int? = nil
    }

    /// The rows; the last one is still open (its cells still coming) when `hasOpenRow`.
    private(set) var rows: [RowHeader] = []
    private(set) var cells: [CellHeader] = []
    private(set) var text: [UInt8] = []
    private(set) var extras: [Extra] = []
    /// Whether the last row is still open.
    private(set) var hasOpenRow = false
    /// Where the `<v>` text of the cell being read starts in `text` (its end when no cell is).
    private var cellTextStart = 0
    /// Whether `<v>` text is being collected, and whether some was past `TextCollector.limit`.
    private(set) var isCollectingValue = false
    private var valueOverflowed = false

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

    /// The complete rows, leaving only the open row, if any, to collect the rest of its cells
    /// (a batch may end inside a row, or inside a cell's text).
    mutating func takeComplete() -> UndecodedRows {
        var complete = UndecodedRows(reservingRows: max(256, rows.count))
        swap(&complete, &self)
        // What stays: the open row's cells so far, and the text of those and of the cell being read.
        let firstCell = complete.hasOpenRow && complete.rows.count > 1 ? complete.rows[complete.rows.count - 2].cellEnd : 0
        let movedCells = complete.hasOpenRow ? firstCell..<complete.cells.count : complete.cells.count..<complete.cells.count
        let textStart = movedCells.isEmpty ? complete.cellTextStart : complete.cells[firstCell].textStart
        text.append(contentsOf: complete.text[textStart...])
        cellTextStart = complete.cellTextStart - textStart
        isCollectingValue = complete.isCollectingValue
        valueOverflowed = complete.valueOverflowed
        if complete.hasOpenRow {
            let open = complete.rows.removeLast()
            complete.hasOpenRow = false
            openRow(index: open.index, height: open.height, isHidden: open.isHidden)
            for cell in complete.cells[movedCells] {
                var moved = cell
                moved.textStart -= textStart
                moved.textEnd -= textStart
                if cell.extra >= 0 {
                    moved.extra = extras.count
                    extras.append(complete.extras[cell.extra])
                }
                cells.append(moved)
            }
            rows[0].cellEnd = cells.count
            complete.cells.removeSubrange(movedCells)
        }
        complete.text.removeSubrange(textStart...)
        return complete
    }

    /// The number of the open row (a row without `r` takes its first cell's).
    var lastRowIndex: Int {
        get { rows[rows.count - 1].index }
        set { rows[rows.count - 1].index = newValue }
    }

    /// A cell starts: its `<v>` text will be collected straight into `text`.
    mutating func beginCell() {
        cellTextStart = text.count
        isCollectingValue = false
    }

    /// A `<v>` starts: the text of an earlier `<v>` of the cell is dropped.
    mutating func beginValue() {
        if text.count > cellTextStart { text.removeSubrange(cellTextStart...) }
        isCollectingValue = true
        valueOverflowed = false
    }

    /// Adds character data to the `<v>` being read, up to `TextCollector.limit` bytes.
    @inline(__always)
    mutating func appendValue(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard text.count - cellTextStart + bytes.count <= TextCollector.limit else { valueOverflowed = true; return }
        if bytes.count <= 24 {
            // Byte by byte: most values are a few digits, where `append(contentsOf:)` costs more a call.
            for byte in bytes { text.append(byte) }
        } else {
            text.append(contentsOf: bytes)
        }
    }

    /// The `<v>` ends; throws when its text was longer than `TextCollector.limit`.
    mutating func endValue() throws {
        isCollectingValue = false
        if valueOverflowed { throw TextTooLong(limit: TextCollector.limit) }
    }

    /// Keeps what the cell being read has beyond its value; the index to give `appendCell`.
    /// Apart from `appendCell` so that the many cells without one handle no optional `Extra`
    /// (copying and destroying one cost the tokenizing thread about 5 % of its instructions).
    mutating func appendExtra(_ extra: Extra) -> Int {
        extras.append(extra)
        return extras.count - 1
    }

    /// Appends the cell being read to the open row, with the `<v>` text collected since
    /// `beginCell()` when `hasValue`; `extra` is its index from `appendExtra`, or -1.
    mutating func appendCell(column: Int, styleIndex: Int, type: ValueType, hasValue: Bool, extra: Int = -1) {
        let start = cellTextStart
        if !hasValue, text.count > start { text.removeSubrange(start...) }
        cellTextStart = text.count
        isCollectingValue = false
        cells.append(CellHeader(column: column, styleIndex: styleIndex, type: type, hasValue: hasValue,
                                textStart: start, textEnd: text.count, extra: extra))
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
