import SheetPortCore

/// A sheet's column widths in characters of the default font, as Excel shows them (what
/// CELL("width") rounds).
struct ColumnLayout: Sendable {
    /// Runs of columns (0-based, inclusive) with their width, in the order they were set: a
    /// later run wins where runs overlap.
    var runs: [(first: Int32, last: Int32, width: Double)] = []
    /// The width of a column no run sets (Excel's default is 8).
    var defaultWidth = 8.0

    /// The width of the 0-based `column`, and whether it is the sheet's default.
    func width(ofColumn column: Int32) -> (width: Double, isDefault: Bool) {
        if let run = runs.last(where: { column >= $0.first && column <= $0.last }) { return (run.width, false) }
        return (defaultWidth, true)
    }
}

extension CalcEngine {
    /// Sets the width of the columns `columns` (1-based as `CellReference.column`) of `sheet`, in
    /// characters of the default font as Excel shows them (a hidden column is 0 wide). Columns
    /// outside the grid are cut off; a width that is negative or not finite is ignored.
    public func setColumnWidth(_ width: Double, columns: ClosedRange<Int>, sheet: Int) {
        guard sheet >= 0, sheet < sheets.count, width.isFinite, width >= 0,
              columns.upperBound >= 1, columns.lowerBound <= CellReference.maxColumn else { return }
        let first = Int32(max(columns.lowerBound, 1) - 1), last = Int32(min(columns.upperBound, CellReference.maxColumn) - 1)
        columnLayouts[Int32(sheet), default: ColumnLayout()].runs.append((first, last, width))
        needsFullRecalc = true
    }

    /// Sets the width of `sheet`'s columns no `setColumnWidth` run covers (8 characters unless set).
    public func setDefaultColumnWidth(_ width: Double, sheet: Int) {
        guard sheet >= 0, sheet < sheets.count, width.isFinite, width >= 0 else { return }
        columnLayouts[Int32(sheet), default: ColumnLayout()].defaultWidth = width
        needsFullRecalc = true
    }

    /// Sets the cell selected in the workbook (the active cell of its selected sheet), which
    /// CELL without a reference answers for; nil (the default) leaves such a CELL `#VALUE!`.
    public func setSelectedCell(_ cell: CellReference?, sheet: Int) {
        needsFullRecalc = true
        guard let cell, sheet >= 0, sheet < sheets.count, (1...CellReference.maxRow).contains(cell.row),
              (1...CellReference.maxColumn).contains(cell.column) else { selectedCell = nil; return }
        let row = Int32(cell.row - 1), column = Int32(cell.column - 1)
        selectedCell = SheetRange(sheet: Int32(sheet), r1: row, c1: column, r2: row, c2: column)
    }
}
