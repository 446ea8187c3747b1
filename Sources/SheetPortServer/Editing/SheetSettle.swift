import Foundation
import SheetPortCalc

/// What a write leaves after its answer: a write whose dependents change more than the answer
/// lists (`SheetWrite.maxChanged`) answers once it knows that, and its other dependents are
/// computed and stored here, in steps that let the sheet's next write go first (its own
/// recalculation takes up the cells left, so a run of writes recomputes the chain once, not
/// once each). Until then `sheets.values_pending` is 1, and every read of stored values
/// (rows windows, views, exports) first brings the sheet level (`ensure`): a reader never sees
/// a value older than an answered write. An instance that stopped part way leaves the flag
/// set: the next instance to load the sheet computes it from the inputs and stores the values
/// that differ (`SheetModel.load(valuesPending:)`).
enum SheetSettle {
    /// Cells a background step computes before it looks for a waiting request.
    static let cellsPerStep = 25_000
    /// Row blocks a background step stores in one transaction.
    static let blocksPerStep = 128

    /// Brings sheet `id`'s stored values level with its inputs before a read (nothing when
    /// they are: one query).
    static func ensure(_ id: String, _ context: ServerContext) throws {
        guard try context.database({ try $0.valuesPending(of: id) }) else { return }
        _ = try step(id, context, whole: true)
    }

    /// One step for sheet `id`: computes part of what is left, or stores part of it (all of it
    /// when `whole`, loading the sheet when this instance does not hold it). Answers true when
    /// nothing is left for this instance.
    static func step(_ id: String, _ context: ServerContext, whole: Bool) throws -> Bool {
        try context.engines.withSheet(id) { slot in
            if !whole, let model = slot, model.engine.hasPendingRecalculation {
                model.noteUnstored(model.engine.continueRecalculation(cells: cellsPerStep))
                return false
            }
            do {
                return try context.database { database in
                    try database.transaction {
                        let (version, valuesPending) = try SheetWrite.lock(id, database)
                        // Another instance wrote the sheet since (its load stored what was left),
                        // or stored the values itself: this graph is not the store's any more.
                        if let model = slot, model.version != version || !valuesPending { slot = nil }
                        guard version > 0, valuesPending else { return true }
                        if slot == nil { slot = try SheetModel.load(id, version: version, valuesPending: true, database, context) }
                        let model = slot!
                        while model.engine.hasPendingRecalculation { model.noteUnstored(model.engine.continueRecalculation()) }
                        let edit = SheetEdit(sheet: id, subject: "", model: model, database: database, context: context)
                        repeat {
                            _ = try edit.store(model.takeUnstored(blocks: blocksPerStep), showing: 0)
                        } while whole && !model.unstored.isEmpty
                        if model.isSettled { try database.query("UPDATE sheets SET values_pending = 0 WHERE id = ?", [.text(id)]) }
                        return model.isSettled
                    }
                }
            } catch {
                // Cells taken for a transaction that did not commit: the graph goes, and the flag
                // still set makes the next load find them again.
                slot = nil
                throw error
            }
        }
    }
}

/// The background thread that settles sheets written with values left to store, one step at
/// a time, yielding to any request that wants the sheet.
final class SheetSettler: @unchecked Sendable {
    private let lock = NSLock()
    private var queue: [String] = []
    private let wake = DispatchSemaphore(value: 0)
    private let thread = StoppableThread()

    /// Starts the thread; sheets the store marks pending (left by a previous run) are queued.
    func start(_ context: ServerContext) {
        if let pending = try? context.database({ try $0.query("SELECT id FROM sheets WHERE values_pending <> 0") }) {
            for row in pending { if let id = row.first?.string { schedule(id) } }
        }
        thread.start(named: "sheet settle") { [self] stopAsked in
            while !stopAsked(0) {
                guard let id = next() else {
                    _ = wake.wait(timeout: .now() + 0.5)
                    continue
                }
                do {
                    while try !SheetSettle.step(id, context, whole: false) {
                        // Requests for the sheet first: a write takes up the cells left itself.
                        while context.engines.isWanted(id) { if stopAsked(0.001) { return } }
                        if stopAsked(0) { return }
                    }
                } catch {
                    ServerLog.write("sheet \(id): values left by a write not stored yet (\(error)); the next read or write stores them")
                }
            }
        }
    }

    /// Queues sheet `id` (once).
    func schedule(_ id: String) {
        lock.withLock { if !queue.contains(id) { queue.append(id) } }
        wake.signal()
    }

    /// Stops the thread after its current step; what is left stays flagged in the store.
    func stop() { thread.stop() }

    private func next() -> String? {
        lock.withLock { queue.isEmpty ? nil : queue.removeFirst() }
    }
}
