import SheetPortCore

/// A direction on the grid.
public enum Direction: Sendable, Equatable, CaseIterable {
    case up, down, left, right

    /// The row and column steps.
    var step: (rows: Int, columns: Int) {
        switch self {
        case .up: (-1, 0)
        case .down: (1, 0)
        case .left: (0, -1)
        case .right: (0, 1)
        }
    }
}

/// The grid's selection as spreadsheets keep it: the active cell (where typing goes), the anchor
/// (where a shift-extension started) and the extent (the corner opposite the anchor). The range
/// is the rectangle of anchor and extent; the active cell lies inside it.
public struct Selection: Sendable, Equatable {
    /// Where typing goes.
    public private(set) var active: CellReference
    /// The fixed corner of the range.
    public private(set) var anchor: CellReference
    /// The moving corner of the range.
    public private(set) var extent: CellReference
    /// The grid the selection stays inside.
    public let grid: GridSize
    /// The column a run of Tab commits started in: Enter after the run goes to the next row in
    /// that column, as Excel does when a row is typed across. Any other move ends the run.
    public private(set) var tabRunStart: Int?

    /// One cell selected.
    public init(_ cell: CellReference = CellReference(row: 1, column: 1), grid: GridSize = .excel) {
        self.grid = grid
        let cell = grid.clamp(cell)
        active = cell
        anchor = cell
        extent = cell
    }

    /// The selected range.
    public var range: CellRange {
        CellRange(start: CellReference(row: min(anchor.row, extent.row), column: min(anchor.column, extent.column)),
                  end: CellReference(row: max(anchor.row, extent.row), column: max(anchor.column, extent.column)))
    }

    /// Whether more than one cell is selected.
    public var isRange: Bool { anchor != extent }

    /// An arrow: one cell selected, moved one step (stopping at the grid's edge).
    public mutating func move(_ direction: Direction) {
        let step = direction.step
        select(grid.clamp(CellReference(row: active.row + step.rows, column: active.column + step.columns)))
    }

    /// A shift-arrow: the extent moves one step; anchor and active cell stay.
    public mutating func extend(_ direction: Direction) {
        let step = direction.step
        extent = grid.clamp(CellReference(row: extent.row + step.rows, column: extent.column + step.columns))
    }

    /// Selects one cell.
    public mutating func select(_ cell: CellReference) {
        let cell = grid.clamp(cell)
        tabRunStart = nil
        active = cell
        anchor = cell
        extent = cell
    }

    /// Selects `range` (clamped), its top-left cell active.
    public mutating func select(_ range: CellRange) {
        let range = grid.clamp(range)
        tabRunStart = nil
        active = range.start
        anchor = range.start
        extent = range.end
    }

    /// Ctrl-A: the whole grid, the active cell kept.
    public mutating func selectAll() {
        let keep = active
        select(grid.all)
        active = keep
    }

    /// Enter, Tab and their reverses after a commit. One cell selected: the active cell moves a
    /// step. A range selected: the active cell moves inside it and wraps as spreadsheets do
    /// (Enter goes down the column, then to the top of the next column; Tab goes along the row,
    /// then to the start of the next row; past the last cell, back to the first), the range kept.
    /// One cell selected, Tab and Shift-Tab start or continue a run; Enter after a run goes to
    /// the next row in the run's first column.
    public mutating func advance(_ direction: Direction) {
        guard isRange else {
            let start = tabRunStart ?? active.column
            switch direction {
            case .right, .left:
                move(direction)
                tabRunStart = start
            case .down where tabRunStart != nil:
                select(CellReference(row: active.row + 1, column: start))
            case .up, .down:
                move(direction)
            }
            return
        }
        let range = self.range
        var row = active.row, column = active.column
        let rows = range.start.row...range.end.row, columns = range.start.column...range.end.column
        switch direction {
        case .down: Self.step(&row, within: rows, by: 1, carrying: &column, within: columns)
        case .up: Self.step(&row, within: rows, by: -1, carrying: &column, within: columns)
        case .right: Self.step(&column, within: columns, by: 1, carrying: &row, within: rows)
        case .left: Self.step(&column, within: columns, by: -1, carrying: &row, within: rows)
        }
        active = CellReference(row: row, column: column)
    }

    /// One step of `advance` along one axis (`along`, the row for Enter): past either end it
    /// wraps to the other and carries a step of the same sign to the other axis, which wraps too.
    private static func step(_ along: inout Int, within alongBounds: ClosedRange<Int>, by delta: Int,
                             carrying across: inout Int, within acrossBounds: ClosedRange<Int>) {
        along += delta
        guard !alongBounds.contains(along) else { return }
        along = delta > 0 ? alongBounds.lowerBound : alongBounds.upperBound
        across += delta
        if !acrossBounds.contains(across) { across = delta > 0 ? acrossBounds.lowerBound : acrossBounds.upperBound }
    }
}
