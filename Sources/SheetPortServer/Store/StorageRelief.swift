import Foundation

/// The server's storage housekeeping, on one thread off the request path:
/// - after sheets were deleted (or a write freed many blocks), the space comes back: on SQLite
///   the free pages are returned in bounded steps (`reclaimSpace()`) and the WAL the delete
///   grew is checkpointed and truncated; on PostgreSQL the tables a delete touches are vacuumed
///   (outside a transaction), so their dead rows are reused and their emptied ends returned;
/// - after a write found the storage full: once a second, a checkpoint that truncates SQLite's
///   WAL (`PRAGMA wal_checkpoint(TRUNCATE)`), until one succeeds. While the disk stays full it
///   cannot (the database file cannot take the WAL's pages); once space is freed it does, so the
///   WAL gives its space back instead of keeping (and growing into) what was freed, and uploads
///   and imports work again without a restart.
final class StorageRelief: @unchecked Sendable {
    /// Set by any of the server's threads that found the storage full; read by the relief thread.
    private let wasFull = Flag()
    /// Set by a delete or a large write; the relief thread gives the space back.
    private let freed = Flag()
    private let store: StoreLocation
    private let log: ServerLog
    private let thread = StoppableThread()

    init(store: StoreLocation, log: ServerLog) {
        self.store = store
        self.log = log
    }

    /// Notes that a write found the storage full.
    func noteFull() {
        wasFull.set(true)
    }

    /// Notes that sheets or blocks were deleted: their space is given back shortly, off the
    /// request path.
    func noteFreed() {
        freed.set(true)
    }

    /// Starts the thread.
    func start() {
        thread.start(named: "storage relief") { [store, wasFull, freed, log] stopAsked in
            var database: Database?
            var failures = 0, looks = 0
            // A quarter second between looks: a delete's space comes back soon after its answer;
            // a full disk is looked at every fourth (once a second).
            while !stopAsked(0.25) {
                looks += 1
                let fullLook = wasFull.isSet && store.kind == .sqlite && looks % 4 == 0
                guard freed.isSet || fullLook else { continue }
                do {
                    if database == nil { database = try Self.connect(store) }
                    if freed.isSet {
                        // Cleared first: a delete during the pass asks for the next one.
                        freed.set(false)
                        if try !database!.giveSpaceBack() { freed.set(true) } // the WAL was busy: again soon
                    }
                    if fullLook, try database!.truncateWAL() {
                        wasFull.set(false)
                        log.write("storage relieved: the database's WAL is checkpointed and truncated")
                    }
                    failures = 0
                } catch {
                    database = nil // reconnect on the next try
                    failures += 1
                    if failures == 1 { log.write("storage: giving space back failed: \(error); tried again") }
                    if failures >= 20 { freed.set(false); failures = 0 } // left to the next delete or start
                }
            }
        }
    }

    /// The relief thread's own connection; on SQLite it waits at most a tenth of a second for a
    /// lock, so a step never holds a request back longer than that (a busy step is tried again).
    private static func connect(_ store: StoreLocation) throws -> Database {
        let database = try store.connect()
        try database.waitForLocksBriefly()
        return database
    }

    /// Stops the thread.
    func stop() { thread.stop() }
}

/// A flag set by one thread and read by another (the storage was full; space was freed).
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }
    func set(_ full: Bool) { lock.withLock { value = full } }
}

extension Database {
    /// Gives a full disk back what SQLite's WAL holds: a checkpoint that truncates it now (it
    /// fails harmlessly while readers hold it or the database file cannot grow), and again once
    /// a second by `relief` (the server's own) until one succeeds. Nothing on PostgreSQL, which
    /// keeps its own.
    func relieveFullStorage(noting relief: StorageRelief) {
        guard kind == .sqlite else { return }
        relief.noteFull()
        _ = try? truncateWAL()
    }

    /// A checkpoint that truncates the WAL; whether it did (none busy, the WAL left empty).
    @discardableResult
    func truncateWAL() throws -> Bool {
        let result = try query("PRAGMA wal_checkpoint(TRUNCATE)")
        // (busy, frames in the WAL, frames checkpointed): busy 0 and a truncated WAL (0 or -1 frames).
        guard let row = result.first else { return false }
        return row.first?.int == 0 && (row.count < 2 || (row[1].int ?? 0) <= 0)
    }
}
