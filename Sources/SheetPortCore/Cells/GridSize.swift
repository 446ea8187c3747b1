/// The size of a grid that ranges are read in and clamped to: Excel's, or a server's
/// `maxRows`/`maxColumns`.
public struct GridSize: Sendable, Equatable {
    /// Rows and columns.
    public var rows: Int, columns: Int

    /// A grid (at least one row and one column).
    public init(rows: Int = CellReference.maxRow, columns: Int = CellReference.maxColumn) {
        self.rows = max(rows, 1)
        self.columns = max(columns, 1)
    }

    /// Excel's grid, 1,048,576 rows by 16,384 columns.
    public static let excel = GridSize()

    /// Every cell.
    public var all: CellRange { CellRange(start: CellReference(row: 1, column: 1), end: CellReference(row: rows, column: columns)) }

    /// True when `reference` is a cell of the grid.
    public func contains(_ reference: CellReference) -> Bool {
        reference.row >= 1 && reference.row <= rows && reference.column >= 1 && reference.column <= columns
    }

    /// `reference` moved inside the grid.
    public func clamp(_ reference: CellReference) -> CellReference {
        CellReference(row: min(max(reference.row, 1), rows), column: min(max(reference.column, 1), columns))
    }

    /// `range` cut to the grid.
    public func clamp(_ range: CellRange) -> CellRange { CellRange(start: clamp(range.start), end: clamp(range.end)) }
}
