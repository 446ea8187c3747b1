import SheetPortCore
import SheetPortCalc

/// Spilled values are cells like any other (Docs/Reference/HTTP.md, "Spills"): the row blocks
/// hold each cell a dynamic array spills into, marked with its anchor (`"spill":"G1"`), so rows
/// windows, views, exports and `changed` show them as they show any cell. The engine owns the
/// spills; a write compares the engine's spill ranges with the ones the blocks hold
/// (`SheetModel.storedSpills`) and rewrites the cells whose part in a spill changed.
extension SheetEdit {
    /// A cell's part in a spill after a write.
    enum SpillMark: Sendable {
        /// The anchor of a spill over the range.
        case anchor(CellRange)
        /// A cell the anchor's result spills into.
        case member(anchor: CellReference)
        /// No part any more (the spill shrank, moved, was blocked or its formula went).
        case none

        /// The mark written into a stored cell.
        func apply(to stored: inout StoredCell) {
            switch self {
            case .anchor(let range):
                stored.arrayRange = range.description
                stored.spill = range.start.description
            case .member(let anchor):
                stored.arrayRange = nil
                stored.spill = anchor.description
                // Typed by no one (an imported file stores a spilled value as a plain one).
                if stored.formula == nil { stored.input = "" }
            case .none:
                if stored.spill != nil { stored.arrayRange = nil }
                stored.spill = nil
            }
        }
    }

    /// The cells whose part in a spill this write changed, and notes the engine's spills as
    /// stored: the cells of a spill that appeared, moved or changed size, of one taken back,
    /// of a spill whose anchor was recalculated (its values), and every written cell inside a
    /// spill (its mark kept).
    func spillMarks(recalculated: [CellChange]) -> [CellReference: SpillMark] {
        let now = model.engine.spillRanges(sheet: 0)
        let before = model.storedSpills
        guard !now.isEmpty || !before.isEmpty else { return [:] }
        var marks: [CellReference: SpillMark] = [:]
        for (anchor, range) in before where now[anchor] != range {
            for cell in Self.cells(of: range) { marks[cell] = SpillMark.none }
        }
        var recomputed = Set(updates.keys)
        for change in recalculated where change.location.sheet == 0 && now[change.location.cell] != nil {
            recomputed.insert(change.location.cell)
        }
        for (anchor, range) in now where before[anchor] != range || recomputed.contains(anchor) {
            for cell in Self.cells(of: range) { marks[cell] = cell == anchor ? .anchor(range) : .member(anchor: anchor) }
        }
        // A written cell inside a spill that still stands (a format, or an input the spill kept).
        for cell in updates.keys where marks[cell] == nil {
            if let (anchor, range) = now.first(where: { $0.value.contains(cell) }) {
                marks[cell] = cell == anchor ? .anchor(range) : .member(anchor: anchor)
            }
        }
        model.storedSpills = now
        return marks
    }

    /// Marks the cells of an imported sheet's dynamic arrays as spilled (an xlsx stores them as
    /// plain values): each anchor the engine (`sheet`, recalculated) spills from, where `keeps`
    /// (the anchor keeps its formula), and each cell of its spill, in the stored row blocks of
    /// sheet `id`, inside the caller's transaction. Answers the last row and column marked.
    static func markSpills(ofImported id: String, _ engine: CalcEngine, sheet: Int, where keeps: (CellReference) -> Bool,
                           _ database: Database, _ context: ServerContext) throws -> (lastRow: Int, lastColumn: Int) {
        let ranges = engine.spillRanges(sheet: sheet).filter { keeps($0.key) }
        guard !ranges.isEmpty else { return (0, 0) }
        let edit = SheetEdit(sheet: id, subject: "", model: SheetModel(engine: engine, version: 1, cellCount: 0), database: database, context: context)
        for (anchor, range) in ranges {
            for cell in cells(of: range) { edit.spills[cell] = cell == anchor ? .anchor(range) : .member(anchor: anchor) }
        }
        let touched = edit.spills.keys.sorted().map { ($0, scalar(engine.value(at: $0, sheet: sheet))) }
        let applied = try edit.store(touched, showing: 0)
        return (applied.lastRow, applied.lastColumn)
    }

    /// The cells of a range in row order.
    private static func cells(of range: CellRange) -> [CellReference] {
        var cells: [CellReference] = []
        cells.reserveCapacity(range.cellCount)
        for row in range.start.row...range.end.row {
            for column in range.start.column...range.end.column { cells.append(CellReference(row: row, column: column)) }
        }
        return cells
    }

    /// `touched` with `cells` added (each once, with its value now), still sorted.
    func adding(_ cells: some Collection<CellReference>, to touched: [Touched]) -> [Touched] {
        let present = Set(touched.map(\.cell))
        var all = touched
        for cell in cells where !present.contains(cell) { all.append((cell, Self.scalar(model.engine.value(at: cell, sheet: 0)))) }
        all.sort { $0.cell < $1.cell }
        return all
    }

    /// Stores the cells of the spills the engine changed since they were last stored, outside
    /// a write's `apply` (the background's settling of a write's later dependents).
    func storeSpills() throws {
        spills = spillMarks(recalculated: [])
        guard !spills.isEmpty else { return }
        _ = try store(adding(spills.keys, to: []), showing: 0)
    }
}
