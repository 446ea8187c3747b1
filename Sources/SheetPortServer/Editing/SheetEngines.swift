import Foundation

/// The calculation graphs of recently used sheets, within a memory budget (`serve --calc-memory`):
/// the least recently used go first, and are rebuilt from the sealed store when needed. One
/// sheet's graph is used by one write at a time (a lock per sheet), so writes to one sheet are
/// serialized in this process; the database serializes them across instances (`SheetWrite`).
final class SheetEngines: @unchecked Sendable {
    private struct Entry {
        var model: SheetModel
        var lastUse: UInt64
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var sheetLocks: [String: (lock: NSLock, users: Int)] = [:]
    private var clock: UInt64 = 0
    /// The budget in bytes.
    let budget: Int

    init(budget: Int) {
        self.budget = budget
    }

    /// Runs `body` holding sheet `id`'s lock, with its cached graph (nil when none is held: the
    /// body builds it). What `body` leaves in `model` is kept (nil drops it), then graphs of
    /// other sheets are evicted, least recently used first, until the budget holds.
    func withSheet<T>(_ id: String, _ body: (inout SheetModel?) throws -> T) throws -> T {
        let sheetLock = acquire(id)
        defer { release(id, sheetLock) }
        var model = lock.withLock { entries.removeValue(forKey: id)?.model }
        defer {
            // Measured under the sheet's lock alone, not the lock every sheet's request takes.
            model?.refreshEstimate()
            lock.withLock {
                if let model {
                    clock += 1
                    entries[id] = Entry(model: model, lastUse: clock)
                }
                evict(keeping: id)
            }
        }
        return try body(&model)
    }

    /// Drops sheet `id`'s graph when it is older than `version` (another instance wrote it).
    func drop(_ id: String, olderThan version: Int) {
        lock.withLock {
            if let entry = entries[id], entry.model.version < version { entries[id] = nil }
        }
    }

    /// True while more than `holders` (0 or the caller, 1) hold or wait for sheet `id`'s lock:
    /// background work lets requests go first.
    func isWanted(_ id: String, beyond holders: Int = 0) -> Bool {
        lock.withLock { (sheetLocks[id]?.users ?? 0) > holders }
    }

    /// The bytes the cached graphs are reckoned to hold, and how many there are.
    var usage: (bytes: Int, sheets: Int) {
        lock.withLock { (entries.values.reduce(0) { $0 + $1.model.estimatedBytes }, entries.count) }
    }

    private func evict(keeping id: String) {
        var total = entries.values.reduce(0) { $0 + $1.model.estimatedBytes }
        guard total > budget else { return }
        // A graph whose values are not all stored yet stays until `SheetSettle` stored them.
        for (key, entry) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where key != id && entry.model.isSettled {
            entries[key] = nil
            total -= entry.model.estimatedBytes
            if total <= budget { return }
        }
        // The sheet just used alone is over the budget: it is not kept either (once settled).
        if total > budget, entries[id]?.model.isSettled == true { entries[id] = nil }
    }

    private func acquire(_ id: String) -> NSLock {
        let sheetLock = lock.withLock {
            var slot = sheetLocks[id] ?? (NSLock(), 0)
            slot.users += 1
            sheetLocks[id] = slot
            return slot.lock
        }
        sheetLock.lock()
        return sheetLock
    }

    private func release(_ id: String, _ sheetLock: NSLock) {
        sheetLock.unlock()
        lock.withLock {
            guard var slot = sheetLocks[id] else { return }
            slot.users -= 1
            sheetLocks[id] = slot.users == 0 ? nil : slot
        }
    }
}
