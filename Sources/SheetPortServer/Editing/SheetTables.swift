import SheetPortCore
import SheetPortCalc
import SheetPortConvert

/// Excel's table auto-expansion on the server (Docs/Reference/HTTP.md, "Tables"): content written
/// in the row right below a table without a totals row, in one of its columns, makes that row
/// the table's last data row. The table's `ref` grows by the row, each calculated column's cell
/// of the row that is empty and not written by the write gets the column's formula, and
/// formulas reading the table (`Table1[Qty]`, `SUM(Table1[Amount])`) read the new row. A write
/// giving content to several rows from the one below grows the table over all of them (a paste).
enum SheetTables {
    /// Extends the tables of the sheet `edit` writes whose row below holds one of `cells`
    /// (cells given content, not cleared); the new layout is stored in the write's transaction.
    static func extend(_ edit: SheetEdit, writing cells: [CellReference]) throws {
        let model = edit.model
        guard !model.tables.isEmpty, !cells.isEmpty else { return }
        var tables = model.tables
        var extended = false
        for index in tables.indices {
            var table = tables[index]
            let firstData = table.dataRows?.lowerBound ?? table.range.end.row + 1
            // Row by row while the write gives content right below: a batch of rows below (a
            // paste) grows the table over all of them, as in Excel.
            while !table.hasTotalsRow, table.range.end.row < CellReference.maxRow {
                let below = table.range.end.row + 1
                let row = CellRange(start: CellReference(row: below, column: table.range.start.column),
                                    end: CellReference(row: below, column: table.range.end.column))
                // Another table right below is not grown into.
                guard cells.contains(where: { $0.row == below && row.columns.contains($0.column) }),
                      !tables.contains(where: { $0.name != table.name && $0.range.rows.contains(below) && $0.range.columns.overlaps(row.columns) }) else { break }
                table.range = CellRange(start: table.range.start, end: row.end)
                for (offset, column) in table.columns.enumerated() {
                    guard let formula = column.calculatedColumnFormula else { continue }
                    let cell = CellReference(row: below, column: row.start.column + offset)
                    guard edit.updates[cell] == nil, try edit.stored(cell) == nil,
                          let moved = try? CalcEngine.translateFormula(formula, from: CellReference(row: firstData, column: cell.column), to: cell),
                          (try? CellInputCheck.checkFormula(moved, at: cell)) != nil else { continue }
                    edit.set(cell, CellUpdate(content: .formula(moved)))
                }
                extended = true
            }
            tables[index] = table
        }
        guard extended else { return }
        edit.storing {
            var layout = try SheetLayout.load(sheet: edit.sheet, edit.database, edit.context.sealer)
            layout.tables = tables
            try edit.database.setLayout(of: edit.sheet, layout.sealed(sheet: edit.sheet, edit.context.sealer))
        }
        // Last: nothing after this throws before the write calculates (a failed write drops the graph).
        model.tables = tables
        for table in tables { model.engine.addTable(CalcTable(table, sheet: 0)) }
    }
}
