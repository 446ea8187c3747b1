import SheetPortCore
import SheetPortCalc
import SheetPortConvert
import Foundation
import SheetPortReader

/// A stored sheet's calculation graph: its cells loaded into a `CalcEngine` (sheet 0) from the
/// sealed row blocks and recalculated, at the sheet's `version`. Lives in memory only
/// (`SheetEngines`); never written anywhere.
final class SheetModel {
    /// The engine holding every cell's value and formula.
    let engine: CalcEngine
    /// The sheet version the engine reflects.
    var version: Int
    /// The sheet's tables as the engine has them (a write below one extends it: `SheetTables`).
    var tables: [WorksheetTable] = []
    /// Cells loaded or added, for the memory estimate.
    var cellCount: Int
    /// Cells whose value the engine changed and the store does not hold yet (a write answers
    /// before its dependents past the answer's first 1,000 are computed and stored: `SheetSettle`).
    var unstored: [CellReference] = []
    /// The dynamic arrays' spill ranges as the row blocks hold their cells (`SheetEdit.spillMarks`).
    var storedSpills: [CellReference: CellRange] = [:]

    /// True when the store holds every value the engine has: nothing left to compute or store.
    var isSettled: Bool { unstored.isEmpty && !engine.hasPendingRecalculation }

    /// Bytes an engine holds per cell, measured roughly (the cell table, the column index, the
    /// value and a share of compiled formulas), for `--calc-memory`.
    static let bytesPerCell = 320

    /// The bytes the cells' texts hold, measured at `textBytesVersion` (`refreshEstimate`).
    private(set) var textBytes = 0
    private var textBytesVersion: Int?

    /// The memory this model is reckoned to hold: its cells and their texts (a sheet of long
    /// texts holds far more than the per-cell share).
    var estimatedBytes: Int { cellCount * Self.bytesPerCell + textBytes + (64 << 10) }

    /// Measures the texts again when the sheet changed since they were last measured (one pass
    /// over the cells per version, not per request).
    func refreshEstimate() {
        guard textBytesVersion != version else { return }
        textBytes = engine.heldTextBytes()
        textBytesVersion = version
    }

    init(engine: CalcEngine, version: Int, cellCount: Int) {
        self.engine = engine
        self.version = version
        self.cellCount = cellCount
    }

    /// Notes the cells of `changes` (the engine's, sheet 0) as not stored yet.
    func noteUnstored(_ changes: [CellChange]) {
        for change in changes where change.location.sheet == 0 {
            unstored.append(change.location.cell)
        }
        // Reads store nothing: writes and reads without a pause note a chain's cells again each
        // time. Once the list is twice the sheet, each cell is kept once (bounded by the sheet).
        if unstored.count > 2 * max(cellCount, 1_024) {
            unstored.sort()
            var kept = 0
            for index in unstored.indices where kept == 0 || unstored[kept - 1] != unstored[index] {
                unstored[kept] = unstored[index]
                kept += 1
            }
            unstored.removeLast(unstored.count - kept)
        }
    }

    /// Takes the first unstored cells (row order, each once) spanning at most `blocks` row
    /// blocks, with their values now.
    func takeUnstored(blocks: Int) -> [SheetEdit.Touched] {
        unstored.sort()
        var cells: [SheetEdit.Touched] = []
        var taken = 0
        var lastBlock = -1
        var spanned = 0
        for cell in unstored {
            if let last = cells.last, last.cell == cell { taken += 1; continue }
            let block = RowBlock.block(of: cell.row)
            if block != lastBlock {
                if spanned == blocks { break }
                spanned += 1
                lastBlock = block
            }
            cells.append((cell, SheetEdit.scalar(engine.value(at: cell, sheet: 0))))
            taken += 1
        }
        unstored.removeFirst(taken)
        return cells
    }

    /// The unstored cells of rows `rows` (row order, each once) with their values now, left in
    /// `unstored` (a read shows them; `SheetSettle` stores them).
    func unstoredCells(in rows: ClosedRange<Int>) -> [SheetEdit.Touched] {
        var cells = unstored.filter { rows.contains($0.row) }
        cells.sort()
        var touched: [SheetEdit.Touched] = []
        for cell in cells where touched.last?.cell != cell {
            touched.append((cell, SheetEdit.scalar(engine.value(at: cell, sheet: 0))))
        }
        return touched
    }

    /// Blocks unsealed per database read while loading.
    static let blocksPerRead = 64

    /// Loads sheet `id` (at `version`) from the store through `database` (inside the caller's
    /// transaction, so the blocks are the ones of that version) and recalculates. When the
    /// store's values are behind its inputs (`valuesPending`: the instance that wrote them
    /// stopped before storing its dependents), the formula cells whose computed value differs
    /// from the stored one are `unstored`, for `SheetSettle` to store.
    static func load(_ id: String, version: Int, valuesPending: Bool = false, _ database: Database, _ context: ServerContext) throws -> SheetModel {
        let engine = CalcEngine(dateSystem: StoredCell.dateSystem, clock: context.calcClock)
        engine.limits = context.configuration.calcLimits
        let layout = try SheetLayout.load(sheet: id, database, context.sealer)
        let sheet = engine.addSheet(layout.sheetName ?? "Sheet1")
        for name in layout.names where !name.isBuiltIn {
            engine.defineName(name.name, formula: name.formula, sheet: name.isLocal ? sheet : nil)
        }
        for table in layout.tables { engine.addTable(CalcTable(table, sheet: sheet)) }
        // CELL("width") reads the widths stored; a width set later reaches it when the sheet is
        // next loaded (Excel too leaves CELL alone when a column is resized, until it recalculates).
        // The store keeps no selected cell: CELL without a reference stays #VALUE!.
        WorkbookCalculation.setColumnWidths(layout.columns, sheet: sheet, of: engine)
        var count = 0
        var stored: [(CellReference, CellValue)] = []
        // The ranges of the dynamic arrays loaded so far: their spilled cells (stored after their
        // anchor, in row order) are the anchor's to fill, not constants that would block it.
        var spills: [CellRange] = []
        try forEachStoredRow(of: id, database, context) { row in
            // Rows come in order: a spill that ended above this row holds none of its cells.
            if !spills.isEmpty { spills.removeAll { $0.end.row < row.index } }
            for cell in row.cells {
                let address = CellReference(row: row.index, column: cell.column)
                if case .dynamicArray(let text) = cell.formulaKind, let range = CellRange(text) {
                    spills.append(range)
                } else if cell.formula == nil, spills.contains(where: { $0.contains(address) }) {
                    count += 1
                    continue
                }
                load(cell, row: row.index, into: engine, sheet: sheet)
                if valuesPending, cell.formula != nil { stored.append((CellReference(row: row.index, column: cell.column), cell.value)) }
                count += 1
            }
        }
        engine.recalculate()
        let model = SheetModel(engine: engine, version: version, cellCount: count)
        model.storedSpills = engine.spillRanges(sheet: sheet)
        model.tables = layout.tables
        for (cell, value) in stored where WorkbookCalculation.calcValue(value, dateSystem: StoredCell.dateSystem) != SheetEdit.scalar(engine.value(at: cell, sheet: sheet)) {
            model.unstored.append(cell)
        }
        return model
    }

    /// Calls `body` with each stored row of sheet `id`, in row order: its blocks read, unsealed
    /// and decoded `blocksPerRead` at a time.
    static func forEachStoredRow(of id: String, _ database: Database, _ context: ServerContext, _ body: (Row) throws -> Void) throws {
        let last = try database.lastRowBlock(of: id) ?? -1
        var next = 0
        while next <= last {
            for block in try database.rowBlocks(of: id, from: next, to: next + blocksPerRead - 1) {
                let plaintext = try context.sealer.open(block.data, context: RowBlock.context(sheet: id, block: block.block), what: "row block")
                for typed in try RowBlock.rows(stored: plaintext, name: "row block \(block.block) of sheet \(id)") { try body(typed.row) }
            }
            next += blocksPerRead
        }
    }

    /// One stored cell into the engine: a constant as its value, a formula with its stored value
    /// as the cached one (kept only where the engine cannot compute it, as at import).
    private static func load(_ cell: Cell, row: Int, into engine: CalcEngine, sheet: Int) {
        let address = CellReference(row: row, column: cell.column)
        let value = WorkbookCalculation.calcValue(cell.value, dateSystem: StoredCell.dateSystem)
        guard let formula = cell.formula else {
            // The stored result of an array formula loaded above is its own, not a constant.
            if !engine.isArrayMember(at: address, sheet: sheet) { engine.setValue(value, at: address, sheet: sheet) }
            return
        }
        var range: CellRange?
        if let text = cell.formulaKind.arrayRange { range = CellRange(text) }
        // A dynamic array spills again; so does one whose spill was blocked (typed over HTTP, as every formula is).
        var isDynamic = false
        if case .dynamicArray = cell.formulaKind { isDynamic = true }
        if case .error(ExcelError.spill.rawValue) = cell.value { isDynamic = true }
        engine.setFormula(formula, at: address, sheet: sheet, cachedValue: cell.value == .empty || isDynamic ? nil : value,
                          arrayRange: range, isDynamicArray: isDynamic)
    }
}
