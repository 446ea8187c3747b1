import Foundation

/// What the server does after a write found the storage full: once a second, a checkpoint that
/// truncates SQLite's WAL (`PRAGMA wal_checkpoint(TRUNCATE)`), until one succeeds. While the disk
/// stays full it cannot (the database file cannot take the WAL's pages); once space is freed it
/// does, so the WAL gives its space back instead of keeping (and growing into) what was freed,
/// and uploads and imports work again without a restart.
final class StorageRelief: @unchecked Sendable {
    /// Set by any thread that found the storage full; read by the relief thread.
    private static let pending = NSLock()
    nonisolated(unsafe) private static var wasFull = false

    /// Notes that a write found the storage full.
    static func noteFull() {
        pending.withLock { wasFull = true }
    }

    private let store: StoreLocation
    private let thread = StoppableThread()

    init(store: StoreLocation) {
        self.store = store
    }

    /// Starts the thread (the embedded store only: PostgreSQL keeps its own WAL).
    func start() {
        guard store.kind == .sqlite else { return }
        thread.start(named: "storage relief") { [store] stopAsked in
            var database: Database?
            while !stopAsked(1) {
                guard Self.pending.withLock({ Self.wasFull }) else { continue }
                do {
                    if database == nil { database = try store.connect() }
                    let result = try database!.query("PRAGMA wal_checkpoint(TRUNCATE)")
                    // (busy, frames in the WAL, frames checkpointed): busy 0 and a truncated WAL (0 or -1 frames).
                    if let row = result.first, row.first?.int == 0, (row.count < 2 || (row[1].int ?? 0) <= 0) {
                        Self.pending.withLock { Self.wasFull = false }
                        ServerLog.write("storage relieved: the database's WAL is checkpointed and truncated")
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
