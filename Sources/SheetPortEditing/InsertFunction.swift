import SheetPortCore

/// The insert-function menu's functions (Alt-= is SUM).
public enum InsertableFunction: String, Sendable, CaseIterable {
    case sum = "SUM", average = "AVERAGE", count = "COUNT", min = "MIN", max = "MAX"
}

/// Where an inserted function goes and what it reads, as the web product's command decides it
/// (the rules are in SheetPortEditing.docc, "Insert function"):
/// - one cell selected: the argument is the contiguous run of numbers directly above it; when
///   there is none, the run directly to its left; when there is neither, a draft `=SUM(` opens;
/// - a range of several rows selected: one result per column, in the row below the range, over
///   that column's cells of the range;
/// - a range of one row selected: one result in the cell right of the range, over the row.
public enum InsertFunctionPlan: Sendable, Equatable {
    /// Write these inputs.
    case write([CellEdit])
    /// Open a draft with this text at the active cell (no argument found).
    case draft(String)
    /// The results would land past the grid's edge.
    case offGrid

    /// The plan for `function` over `selection`, reading numbers through `cell`.
    public static func make(_ function: InsertableFunction, selection: Selection,
                            cell: (CellReference) -> CellSnapshot?) -> InsertFunctionPlan {
        let name = function.rawValue
        let range = selection.range
        func isNumber(_ row: Int, _ column: Int) -> Bool {
            row >= 1 && column >= 1 && cell(CellReference(row: row, column: column))?.isNumber == true
        }
        guard selection.isRange else {
            let active = selection.active
            var top = active.row
            while isNumber(top - 1, active.column) { top -= 1 }
            if top < active.row {
                let argument = CellRange(start: CellReference(row: top, column: active.column), end: CellReference(row: active.row - 1, column: active.column))
                return .write([CellEdit(ref: active, input: "=\(name)(\(argument))")])
            }
            var left = active.column
            while isNumber(active.row, left - 1) { left -= 1 }
            if left < active.column {
                let argument = CellRange(start: CellReference(row: active.row, column: left), end: CellReference(row: active.row, column: active.column - 1))
                return .write([CellEdit(ref: active, input: "=\(name)(\(argument))")])
            }
            return .draft("=\(name)(")
        }
        if range.rowCount == 1 {
            let target = CellReference(row: range.start.row, column: range.end.column + 1)
            guard target.column <= selection.grid.columns else { return .offGrid }
            return .write([CellEdit(ref: target, input: "=\(name)(\(range))")])
        }
        let below = range.end.row + 1
        guard below <= selection.grid.rows else { return .offGrid }
        return .write((range.start.column...range.end.column).map { column in
            let argument = CellRange(start: CellReference(row: range.start.row, column: column), end: CellReference(row: range.end.row, column: column))
            return CellEdit(ref: CellReference(row: below, column: column), input: "=\(name)(\(argument))")
        })
    }
}
