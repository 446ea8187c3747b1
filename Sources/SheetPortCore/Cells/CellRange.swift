/// A rectangle of cells such as `A1:C3`, corners inclusive (the OOXML ST_Ref; a single cell is a
/// one-cell range): the one range type every module speaks.
public struct CellRange: Hashable, Sendable, CustomStringConvertible {
    /// The top-left cell.
    public var start: CellReference
    /// The bottom-right cell.
    public var end: CellReference

    /// A range from its top-left and bottom-right corners, taken as given.
    public init(start: CellReference, end: CellReference) {
        self.start = start
        self.end = end
    }

    /// The range between two opposite corners, in any order (`C1` and `A3` make `A1:C3`).
    public init(_ corner: CellReference, _ opposite: CellReference) {
        start = CellReference(row: min(corner.row, opposite.row), column: min(corner.column, opposite.column))
        end = CellReference(row: max(corner.row, opposite.row), column: max(corner.column, opposite.column))
    }

    /// Parses `A1:C3`, `C3:A1` or `B2`, each corner as `CellReference.init?(_:)` reads it (`$`
    /// allowed, any case); nil when either corner is not a cell of Excel's grid. Whole rows and
    /// columns (`3:5`, `B:D`) are not an ST_Ref: `init?(_:in:)` reads them.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2,
              let first = CellReference(String(parts[0])),
              let last = parts.count == 2 ? CellReference(String(parts[1])) : first
        else { return nil }
        self.init(first, last)
    }

    /// `A1:C3`, or `B2` for one cell.
    public var description: String { start == end ? start.description : "\(start):\(end)" }
    /// Rows spanned.
    public var rowCount: Int { end.row - start.row + 1 }
    /// Columns spanned.
    public var columnCount: Int { end.column - start.column + 1 }
    /// The number of cells: `rowCount` times `columnCount`.
    public var cellCount: Int { rowCount * columnCount }
    /// The rows spanned, top to bottom.
    public var rows: ClosedRange<Int> { start.row...max(start.row, end.row) }
    /// The columns spanned, left to right.
    public var columns: ClosedRange<Int> { start.column...max(start.column, end.column) }

    /// True when `cell` lies inside the range.
    public func contains(_ cell: CellReference) -> Bool {
        cell.row >= start.row && cell.row <= end.row && cell.column >= start.column && cell.column <= end.column
    }
}

extension CellRange {
    /// Parses a range of `grid` as a person or a request names one: a cell `B2`, a range
    /// `A1:C9` (corners in any order), whole columns `B:D` (`B:B` for one), or whole rows `3:5`,
    /// any part marked absolute with `$`, letters in any case. Nil when it is none of them or any
    /// part lies outside `grid` (`XFE1`, `A0`, row 0, a column past `grid.columns`). No spaces
    /// are trimmed and no names resolved (the editing module's `NameBox` does both).
    public init?(_ text: String, in grid: GridSize) {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map { Array($0.utf8) }
        guard parts.count == 1 || parts.count == 2 else { return nil }
        if parts.count == 2, let first = Self.wholeLine(parts[0]), let last = Self.wholeLine(parts[1]) {
            switch (first, last) {
            case (.column(let a), .column(let b)):
                guard a <= grid.columns, b <= grid.columns else { return nil }
                self.init(CellReference(row: 1, column: a), CellReference(row: grid.rows, column: b))
            case (.row(let a), .row(let b)):
                guard a <= grid.rows, b <= grid.rows else { return nil }
                self.init(CellReference(row: a, column: 1), CellReference(row: b, column: grid.columns))
            default:
                return nil
            }
            return
        }
        guard let first = CellReference(String(decoding: parts[0], as: UTF8.self)), grid.contains(first) else { return nil }
        guard parts.count == 2 else {
            self.init(first, first)
            return
        }
        guard let last = CellReference(String(decoding: parts[1], as: UTF8.self)), grid.contains(last) else { return nil }
        self.init(first, last)
    }

    /// One side of a whole-columns or whole-rows range: `$`? then letters alone or digits alone.
    private enum WholeLine {
        case column(Int)
        case row(Int)
    }

    private static func wholeLine(_ bytes: [UInt8]) -> WholeLine? {
        let body = bytes.first == UInt8(ascii: "$") ? bytes.dropFirst() : bytes[...]
        if let column = CellReference.columnNumber(body) { return .column(column) }
        if let row = CellReference.rowNumber(body) { return .row(row) }
        return nil
    }

    /// The range as `init?(_:in:)` reads it back: `B2`, `A1:C9`, `B:D` when it spans every row of
    /// `grid` (but not every column), `3:5` when it spans every column (but not every row).
    public func description(in grid: GridSize) -> String {
        let wholeColumns = start.row == 1 && end.row == grid.rows
        let wholeRows = start.column == 1 && end.column == grid.columns
        if wholeColumns && !wholeRows { return CellReference.columnName(start.column) + ":" + CellReference.columnName(end.column) }
        if wholeRows && !wholeColumns { return "\(start.row):\(end.row)" }
        return description
    }
}
