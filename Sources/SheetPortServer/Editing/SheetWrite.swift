import Foundation
import SheetPortCore
import SheetPortCalc

/// The one write path of a sheet (Docs/Reference/HTTP.md, "Writing"): every write (cells, clear, copy,
/// format, sizes, restore, undo) runs here, atomic and serialized per sheet: the sheet's lock in
/// this process (`SheetEngines`), then one database transaction that on PostgreSQL first takes
/// the sheet's advisory lock (two instances take turns) and the sheet's row. Inside it the
/// sheet's graph is made current (rebuilt from the sealed store when this instance's is missing
/// or older), the write's `body` gathers its updates (`SheetEdit`), the engine applies them and
/// recalculates their dependents, the affected row blocks are rewritten, the version moves on
/// with a `version` event naming the change and its refs, each changed input joins the cell
/// history, and other instances are told (NOTIFY: their graphs of the sheet go).
package enum SheetWrite {
    /// What a write did.
    package struct Outcome {
        /// The sheet's new version.
        package var version: Int
        /// The first cells (`shown`) whose input, style or value changed, as stored now, in row order.
        package var changed: [StoredCell]
        /// How many cells changed in all.
        package var changedCount: Int
    }

    /// Cells `changed` lists at most in an answer (then `more`).
    package static let maxChanged = 1_000
    /// Changed cells a write keeps as stored cells: enough for the answer and the event's refs
    /// (a write whose dependents are 200,000 cells never builds 200,000 of them).
    static let shown = max(maxChanged, SheetEvent.maxRefs)

    /// Runs one write of `subject` on sheet `id` (the caller checked the role); `body` gathers
    /// the updates and may throw (a `SheetEditError`, a route's refusal), and then nothing is
    /// stored. `SheetEditError.noSuchSheet` when the sheet went meanwhile.
    package static func run(_ id: String, subject: String, change: SheetChangeKind, _ context: ServerContext,
                            _ body: (SheetEdit) throws -> Void) throws -> Outcome {
        let (outcome, settled): (Outcome, Bool) = try context.engines.withSheet(id) { slot in
            var applying = false
            defer { slot?.engine.deadline = nil }
            do {
                return try context.database { database in
                    try database.transaction {
                        let (version, valuesPending) = try database.lockSheetForWrite(id)
                        guard version > 0 else { throw SheetEditError.noSuchSheet }
                        if slot == nil || slot!.version != version {
                            slot = nil
                            slot = try SheetModel.load(id, version: version, valuesPending: valuesPending, database, context)
                        }
                        let edit = SheetEdit(sheet: id, subject: subject, model: slot!, database: database, context: context)
                        // Counted from here: the wait for the sheet and rebuilding this instance's
                        // graph of it are not the write's calculation.
                        let deadline = isTimed(change) ? CalcDeadline(seconds: context.configuration.calcTimeout) : nil
                        slot!.engine.deadline = deadline
                        try body(edit)
                        applying = true
                        let applied = try edit.apply(showing: shown)
                        // Past it the engine gave up part way: the catch below drops its graph.
                        if let deadline, deadline.hasPassed { throw SheetEditError.calcTimeout(context.configuration.calcTimeout) }
                        let next = version + 1
                        let settled = slot!.isSettled
                        try database.finishWrite(sheet: id, version: next, lastRow: applied.lastRow, lastColumn: applied.lastColumn,
                                                 valuesPending: !settled)
                        let refs = applied.count <= SheetEvent.maxRefs ? applied.cells.map { CellReference(row: $0.row, column: $0.column) } : nil
                        try database.record(SheetEvent(version: next, change: change, refs: refs), of: id)
                        try CellHistory.record(edit, version: next, change: change, database, context)
                        try context.sheetChanges.publish(sheet: id, version: next, database)
                        slot!.version = next
                        return (Outcome(version: next, changed: applied.cells, changedCount: applied.count), settled)
                    }
                }
            } catch {
                // The engine may hold what the transaction did not keep: it is rebuilt next time.
                if applying { slot = nil }
                throw error
            }
        }
        context.changes.signal(SheetChange(sheet: id, version: outcome.version))
        if !settled { context.settler.schedule(id) }
        return outcome
    }

    /// Whether a write of this kind is refused past `serve --calc-timeout`: undo and restore
    /// never are (taking a write back must always be possible).
    static func isTimed(_ change: SheetChangeKind) -> Bool {
        change != .undo && change != .restore
    }
}
