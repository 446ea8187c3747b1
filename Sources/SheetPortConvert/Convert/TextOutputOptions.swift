import SheetPortCore
/// How a worksheet is written as text (`convert`'s output options, Docs/Reference/CLI.md).
public struct TextOutputOptions: Sendable, Equatable {
    /// How CSV lines end.
    public enum LineEnding: String, Sendable, CaseIterable {
        /// `\n`.
        case lf
        /// `\r\n`, RFC 4180's (the default).
        case crlf
    }

    /// Leave out rows with no value (CSV, TSV, ndjson).
    public var skipEmptyRows = false
    /// What a cell's value is written as (`--values`).
    public enum Values: String, Sendable, CaseIterable {
        /// The value itself (the default).
        case raw
        /// The text Excel (en-US) shows for it in its number format (`NumberFormatRenderer`).
        case displayed
    }

    /// CSV, TSV, ndjson and json: raw values or displayed text; `dateFormat` wins for date cells.
    public var values = Values.raw
    /// Write a merged range's value into every cell of the range (`--fill-merged`).
    public var fillMerged = false
    /// ndjson and json: write rows with no value as records of nulls (by default they are left out).
    public var keepEmptyRows = false
    /// Leave out columns with no value in the whole sheet (CSV, TSV, ndjson); costs a first pass.
    public var skipEmptyColumns = false
    /// CSV line ending (TSV lines always end in `\n`).
    public var lineEnding = LineEnding.crlf
    /// Dates in CSV and TSV in this pattern instead of ISO.
    public var dateFormat: DateFormat?
    /// ndjson: the 1-based row that holds the keys; nil for the first row with a value.
    public var headerRow: Int?
    /// Recompute every formula before writing (`--recalc`): a formula cell's value is the
    /// engine's, except where it keeps the cached one (unsupported function, unparsable or external formula).
    public var recalc = false
    /// Without `recalc`, compute the formulas that have no cached value (files written by
    /// openpyxl or pandas) instead of writing them empty; false is `--no-recalc`.
    public var computeMissingValues = true
    /// Only this rectangle of the sheet (`--range`): CSV, TSV, ndjson and json records start at
    /// its top-left cell; cell JSONL keeps the sheet's references.
    public var range: CellRange?
    /// At most this many records (`--limit`): CSV and TSV records, ndjson and json records (the
    /// header not counted), or rows of cell JSONL; the sheet is read no further.
    public var limit: Int?

    /// The defaults: every row and column, CRLF, ISO dates.
    public init() {}
}

/// Which columns a conversion keeps and where each lands: all of them, or, with
/// `skipEmptyColumns`, only those with a value somewhere in the sheet, closed up.
package struct ColumnSelection {
    /// Output position (1-based) of each sheet column, 0 for a dropped one; nil keeps every column.
    private let positions: [Int32]?
    /// The columns kept (ascending), when a first pass decided them.
    let kept: [Int]?
    /// The number of columns kept, when a first pass decided them.
    package var keptCount: Int? { kept?.count }

    /// Every column kept.
    init() { positions = nil; kept = nil }

    /// Only `columns` (ascending, 1-based) kept.
    init(keeping columns: [Int]) {
        var positions = [Int32](repeating: 0, count: CellReference.maxColumn + 2)
        for (offset, column) in columns.enumerated() where column < positions.count { positions[column] = Int32(offset + 1) }
        self.positions = positions
        kept = columns
    }

    /// The output column of sheet `column`, nil when dropped.
    package func position(of column: Int) -> Int? {
        guard let positions else { return column }
        guard column >= 0, column < positions.count, positions[column] > 0 else { return nil }
        return Int(positions[column])
    }
}
