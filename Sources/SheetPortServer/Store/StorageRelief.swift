import Foundation

/// What the server does after a write found the storage full: once a second, a checkpoint that
/// truncates SQLite's WAL (`PRAGMA wal_checkpoint(TRUNCATE)`), until one succeeds. While the disk
/// stays full it cannot (the database file cannot take the WAL's pages); once space is freed it
/// does, so the WAL gives its space back instead of keeping (and growing into) what was freed,
/// and uploads and imports work again without a restart.
final class StorageRelief: @unchecked Sendable {
    /// Set by any of the server's threads that found the storage full; read by the relief thread.
    private let wasFull = FullFlag()
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

    /// Starts the thread (the embedded store only: PostgreSQL keeps its own WAL).
    func start() {
        guard store.kind == .sqlite else { return }
        thread.start(named: "storage relief") { [store, wasFull, log] stopAsked in
            var database: Database?
            while !stopAsked(1) {
                guard wasFull.isSet else { continue }
                do {
                    if database == nil { database = try store.connect() }
                    if try database!.truncateWAL() {
                        wasFull.set(false)
                        log.write("storage relieved: the database's WAL is checkpointed and truncated")
                    }
                } catch {
                    database = nil // reconnect on the next try
                }
            }
        }
    }

    /// Stops the thread.
    func stop() { thread.stop() }
}

/// Whether a write found the storage full since the last successful checkpoint.
private final class FullFlag: @unchecked Sendable {
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
