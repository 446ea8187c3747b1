import Foundation
import SheetPortCalc

/// What a write leaves after its answer: a write whose dependents change more than the answer
/// lists (`SheetWrite.maxChanged`) answers once it knows that, and its other dependents are
/// computed and stored here, in steps that let the sheet's next write go first (its own
/// recalculation takes up the cells left, so a run of writes recomputes the chain once, not
/// once each). Until then `sheets.values_pending` is 1: rows windows and views lay the values
/// not stored yet over the stored ones (`SheetOverlay`), and exports first bring the sheet
/// level (`ensure`), so a reader never sees a value older than an answered write. An instance
/// that stopped part way leaves the flag set: the next instance to load the sheet computes it
/// from the inputs and stores the values that differ (`SheetModel.load(valuesPending:)`).
enum SheetSettle {
    /// Cells a background step computes at most, in slices after each of which it lets a
    /// waiting request go first (a slice is about a millisecond of a running total).
    static let cellsPerStep = 50_000
    static let cellsPerSlice = 2_000
    /// Row blocks a background step stores at most in one transaction, in slices likewise.
    static let blocksPerStep = 256
    static let blocksPerSlice = 16

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
            let wanted = { !whole && context.engines.isWanted(id, beyond: 1) }
            // Computed before the transaction opens: a PostgreSQL session idle in a transaction
            // is ended after a bound (`PostgresSessionBounds`).
            if let model = slot, model.engine.hasPendingRecalculation {
                var computed = 0
                repeat {
                    model.noteUnstored(model.engine.continueRecalculation(cells: cellsPerSlice))
                    computed += cellsPerSlice
                } while model.engine.hasPendingRecalculation && (whole || (computed < cellsPerStep && !wanted()))
                if !whole { return false }
            }
            let held = slot != nil
            do {
                return try context.database { database in
                    try database.transaction {
                        let (version, valuesPending) = try database.lockSheetForWrite(id)
                        // Another instance wrote the sheet since (its load stored what was left):
                        // this graph is not the store's any more. Values stored already (by a
                        // read here, or another instance's repair) leave nothing to store.
                        if let model = slot, model.version != version { slot = nil }
                        if let model = slot, !valuesPending { model.unstored = [] }
                        guard version > 0, valuesPending else { return true }
                        if slot == nil {
                            // The background leaves a sheet another instance wrote since to that
                            // instance; a read, or a start that found the flag, loads it.
                            guard whole || !held else { return true }
                            slot = try SheetModel.load(id, version: version, valuesPending: true, database, context)
                        }
                        let model = slot!
                        let edit = SheetEdit(sheet: id, subject: "", model: model, database: database, context: context)
                        edit.parallel = whole
                        var stored = 0
                        if !model.engine.hasPendingRecalculation { try edit.storeSpills() }
                        repeat {
                            _ = try edit.store(model.takeUnstored(blocks: blocksPerSlice), showing: 0)
                            stored += blocksPerSlice
                        } while !model.unstored.isEmpty && (whole || (stored < blocksPerStep && !wanted()))
                        if model.isSettled { try database.markValuesStored(of: id) }
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
/// a time, yielding to any request that wants the sheet, and starting only once the sheet's
/// writes pause (`quiet`): a burst of writes takes up what each left in the next one's
/// recalculation, so settling between them would only slow them down.
final class SheetSettler: @unchecked Sendable {
    /// How long a sheet goes without a write before its settling starts, in seconds.
    static let quiet = 0.02
    private let lock = NSLock()
    private var queue: [String] = []
    /// When each queued sheet was last written (`DispatchTime` nanoseconds).
    private var written: [String: UInt64] = [:]
    private let wake = DispatchSemaphore(value: 0)
    private let thread = StoppableThread()

    /// Starts the thread; sheets the store marks pending (left by a previous run) are queued.
    func start(_ context: ServerContext) {
        if let pending = try? context.database({ try $0.sheetsWithValuesPending() }) {
            for id in pending { schedule(id) }
        }
        thread.start(named: "sheet settle") { [self] stopAsked in
            #if os(Linux)
            // Below requests: the kernel runs a request's thread first when both want a core
            // (Linux's nice value is per thread; 0 names the calling one).
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            #endif
            while !stopAsked(0) {
                guard let id = next() else {
                    _ = wake.wait(timeout: .now() + 0.5)
                    continue
                }
                do {
                    repeat {
                        // Requests for the sheet first, and a burst of writes to its end.
                        while context.engines.isWanted(id) || sinceWritten(id) < Self.quiet {
                            if stopAsked(max(0.0005, Self.quiet - sinceWritten(id))) { return }
                        }
                        if stopAsked(0) { return }
                    } while try !SheetSettle.step(id, context, whole: false)
                } catch {
                    context.log.write("sheet \(id): values left by a write not stored yet (\(error)); the next read or write stores them")
                }
            }
        }
    }

    /// Queues sheet `id` (once).
    func schedule(_ id: String) {
        lock.withLock {
            if !queue.contains(id) { queue.append(id) }
            written[id] = DispatchTime.now().uptimeNanoseconds
        }
        wake.signal()
    }

    /// Seconds since sheet `id` was last written (scheduled).
    private func sinceWritten(_ id: String) -> Double {
        let last = lock.withLock { written[id] } ?? 0
        return Double(DispatchTime.now().uptimeNanoseconds &- last) / 1e9
    }

    /// Stops the thread after its current step; what is left stays flagged in the store.
    func stop() { thread.stop() }

    private func next() -> String? {
        lock.withLock {
            guard !queue.isEmpty else { return nil }
            let id = queue.removeFirst()
            written[id] = nil
            return id
        }
    }
}
