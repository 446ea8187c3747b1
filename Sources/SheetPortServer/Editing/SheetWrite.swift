import Foundation
import SheetPortCore
import SheetPortCalc

/// The one write path of a sheet (Docs/Reference/HTTP.md, "Writing"): every write (cells, clear, copy,
/// format, sizes, restore, undo) runs here, atomic and serialized per sheet by the sheet's lock
/// in this process (`SheetEngines`) and, across instances, the database.
///
/// A write computes before its transaction opens, so a long calculation holds no database lock
/// (SQLite's is the whole file's: another user's small write to another sheet would wait for
/// it): the sheet's graph is made current (rebuilt from the sealed store when this instance's
/// is missing or older), the write's `body` gathers its updates (`SheetEdit`), and the engine
/// applies them and recalculates their dependents. Then one short transaction, which on
/// PostgreSQL first takes the sheet's advisory lock (two instances take turns) and the sheet's
/// row, checks the sheet is still at the version computed from; if so it runs the body's own
/// writes (heights, the layout, undo marks), rewrites the affected row blocks, moves the version
/// on with a `version` event naming the change and its refs, adds each changed input to the cell
/// history and tells other instances (NOTIFY: their graphs of the sheet go). If another
/// instance wrote the sheet meanwhile, the graph is rebuilt at the new version and the write
/// computed again on it (it is serialized after that write, as if it had come later); after
/// `computedAhead` such rounds it computes inside the transaction, holding the sheet, so it
/// always ends.
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

    /// Rounds a write computes outside its transaction before it computes inside it (another
    /// instance wrote the sheet while it computed each time).
    static let computedAhead = 3

    /// Runs one write of `subject` on sheet `id` (the caller checked the role); `body` gathers
    /// the updates and may throw (a `SheetEditError`, a route's refusal), and then nothing is
    /// stored. `body` runs again when the sheet moved on while the write computed. Throws
    /// `SheetEditError.noSuchSheet` when the sheet went meanwhile.
    package static func run(_ id: String, subject: String, change: SheetChangeKind, _ context: ServerContext,
                            _ body: (SheetEdit) throws -> Void) throws -> Outcome {
        let (outcome, settled): (Outcome, Bool) = try context.engines.withSheet(id) { slot in
            defer { slot?.engine.deadline = nil }
            // Counted from the first round's graph being current: the wait for the sheet and
            // rebuilding this instance's graph of it are not the write's calculation.
            var deadline: CalcDeadline?
            var calculated = false
            /// The graph made current at `version`, the body run and the engine recalculated:
            /// the edit and the cells to store.
            func calculate(version: Int, valuesPending: Bool, _ database: Database) throws -> (SheetEdit, [SheetEdit.Touched]) {
                guard version > 0 else { throw SheetEditError.noSuchSheet }
                if slot == nil || slot!.version != version {
                    slot = nil
                    slot = try SheetModel.load(id, version: version, valuesPending: valuesPending, database, context)
                }
                if deadline == nil, isTimed(change) { deadline = CalcDeadline(seconds: context.configuration.calcTimeout) }
                slot!.engine.deadline = deadline
                let edit = SheetEdit(sheet: id, subject: subject, model: slot!, database: database, context: context)
                try body(edit)
                calculated = true
                let touched = edit.calculate(showing: shown)
                // Past it the engine gave up part way: the catch below drops its graph.
                if let deadline, deadline.hasPassed { throw SheetEditError.calcTimeout(context.configuration.calcTimeout) }
                return (edit, touched)
            }
            /// Stores what `edit` computed at `version` in the transaction open on `database`.
            func store(_ edit: SheetEdit, _ touched: [SheetEdit.Touched], version: Int, _ database: Database) throws -> (Outcome, Bool) {
                try edit.beginStoring(in: database)
                let applied = try edit.store(touched, showing: shown)
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
            do {
                for _ in 0..<computedAhead {
                    // No transaction while it computes: this instance's writes of the sheet wait
                    // for its lock, and another instance's move the version, checked below.
                    let (version, valuesPending) = try context.database { try $0.versionAndValues(of: id) }
                    let (edit, touched) = try context.database { try calculate(version: version, valuesPending: valuesPending, $0) }
                    let stored: (Outcome, Bool)? = try context.database { database in
                        try database.transaction {
                            let (now, _) = try database.lockSheetForWrite(id)
                            guard now > 0 else { throw SheetEditError.noSuchSheet }
                            guard now == version else { return nil }
                            return try store(edit, touched, version: version, database)
                        }
                    }
                    if let stored { return stored }
                    // Another instance wrote the sheet: this graph holds inputs the store does not.
                    slot = nil
                    calculated = false
                }
                return try context.database { database in
                    try database.transaction {
                        let (version, valuesPending) = try database.lockSheetForWrite(id)
                        let (edit, touched) = try calculate(version: version, valuesPending: valuesPending, database)
                        return try store(edit, touched, version: version, database)
                    }
                }
            } catch {
                // The engine may hold what the transaction did not keep: it is rebuilt next time
                // from the store (a refused or failed store leaves it as the store is).
                if calculated { slot = nil }
                throw error
            }
        }
        context.changes.signal(SheetChange(sheet: id, version: outcome.version))
        if !settled { context.settler.schedule(id) }
        // A large write replaced many row blocks: their old pages are free and the WAL grew;
        // both come back off the request path, as after a delete.
        if outcome.changedCount >= Self.givesSpaceBackFrom { context.relief.noteFreed() }
        return outcome
    }

    /// The changed cells from which a write gives the space it freed back (some blocks' worth).
    static let givesSpaceBackFrom = 10_000

    /// Whether a write of this kind is refused past `serve --calc-timeout`: undo and restore
    /// never are (taking a write back must always be possible).
    static func isTimed(_ change: SheetChangeKind) -> Bool {
        change != .undo && change != .restore
    }
}
