import Foundation
import SheetPortCore
import SheetPortReader
import SheetPortCalc
import SheetPortConvert

/// A stored sheet's calculation graph: its cells loaded into a `CalcEngine` (sheet 0) from the
/// sealed row blocks and recalculated, at the sheet's `version`. Lives in memory only
/// (`SheetEngines`); never written anywhere.
final class SheetModel {
    /// The engine holding every cell's value and formula.
    let engine: CalcEngine
    /// The sheet version the engine reflects.
    var version: Int
    /// Cells loaded or added, for the memory estimate.
    var cellCount: Int

    /// Bytes an engine holds per cell, measured roughly (the cell table, the column index, the
    /// value and a share of compiled formulas), for `--calc-memory`.
    static let bytesPerCell = 320

    /// The memory this model is reckoned to hold.
    var estimatedBytes: Int { cellCount * Self.bytesPerCell + (64 << 10) }

    init(engine: CalcEngine, version: Int, cellCount: Int) {
        self.engine = engine
        self.version = version
        self.cellCount = cellCount
    }

    /// Blocks unsealed per database read while loading.
    static let blocksPerRead = 64

    /// Loads sheet `id` (at `version`) from the store through `database` (inside the caller's
    /// transaction, so the blocks are the ones of that version) and recalculates.
    static func load(_ id: String, version: Int, _ database: Database, _ context: ServerContext) throws -> SheetModel {
        let engine = CalcEngine(dateSystem: StoredCell.dateSystem, clock: context.calcClock)
        let sheet = engine.addSheet("Sheet1")
        var count = 0
        let last = try database.query("SELECT MAX(block) FROM row_blocks WHERE sheet_id = ?", [.text(id)]).first?.first?.int ?? -1
        var next = 0
        while next <= last {
            for block in try database.rowBlocks(of: id, from: next, to: next + blocksPerRead - 1) {
                let plaintext = try context.sealer.open(block.data, context: RowBlock.context(sheet: id, block: block.block), what: "row block")
                for typed in try RowBlock.rows(stored: plaintext, name: "row block \(block.block) of sheet \(id)") {
                    for cell in typed.row.cells {
                        load(cell, row: typed.row.index, into: engine, sheet: sheet)
                        count += 1
                    }
                }
            }
            next += blocksPerRead
        }
        engine.recalculate()
        return SheetModel(engine: engine, version: version, cellCount: count)
    }

    /// One stored cell into the engine: a constant as its value, a formula with its stored value
    /// as the cached one (kept only where the engine cannot compute it, as at import).
    private static func load(_ cell: Cell, row: Int, into engine: CalcEngine, sheet: Int) {
        let address = CellAddress(row: Int32(row - 1), column: Int32(cell.column - 1))
        let value = WorkbookCalculation.calcValue(cell.value, dateSystem: StoredCell.dateSystem)
        guard let formula = cell.formula else {
            engine.setValue(value, at: address, sheet: sheet)
            return
        }
        var range: RangeAddress?
        if case .array(let text) = cell.formulaKind { range = RangeAddress(text) }
        engine.setFormula(formula, at: address, sheet: sheet, cachedValue: cell.value == .empty ? nil : value, arrayRange: range)
    }
}
