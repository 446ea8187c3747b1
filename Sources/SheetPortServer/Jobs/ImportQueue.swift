import Foundation

/// The queue of import jobs waiting for a worker, with the cancellations of running ones.
package final class ImportQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [String] = []
    private var running: Set<String> = []
    private var cancelled: Set<String> = []
    private var stopping = false

    /// Adds a job.
    package func enqueue(_ id: String) {
        condition.lock()
        pending.append(id)
        condition.signal()
        condition.unlock()
    }

    /// The next job for a worker (waiting for one), or nil when the server stops.
    func next() -> String? {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty && !stopping { condition.wait() }
        guard !stopping else { return nil }
        let id = pending.removeFirst()
        running.insert(id)
        return id
    }

    /// Waits until a job is added, the server stops or `timeout` seconds pass (a shared
    /// store's workers claim from the database; an addition here only wakes them early);
    /// returns false when the server stops.
    func waitForWork(timeout: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if pending.isEmpty && !stopping { _ = condition.wait(until: Date().addingTimeInterval(timeout)) }
        pending.removeAll()
        return !stopping
    }

    /// A job claimed from a shared store runs here: a cancel through this instance reaches it.
    func running(_ id: String) {
        condition.lock()
        running.insert(id)
        condition.unlock()
    }

    /// Cancels a job: one still waiting is removed (no worker will see it); a running one's
    /// worker sees `shouldStop` at its next batch.
    func cancel(_ id: String) {
        condition.lock()
        defer { condition.unlock() }
        if let index = pending.firstIndex(of: id) {
            pending.remove(at: index)
        } else if running.contains(id) {
            cancelled.insert(id)
        }
    }

    /// Why a running job must stop, if it must.
    func stopReason(_ id: String) -> ImportInterruption? {
        condition.lock()
        defer { condition.unlock() }
        if cancelled.contains(id) { return .cancelled }
        return stopping ? .shuttingDown : nil
    }

    /// A worker is done with a job.
    func finished(_ id: String) {
        condition.lock()
        running.remove(id)
        cancelled.remove(id)
        condition.unlock()
    }

    /// Whether the server is stopping.
    var isStopping: Bool { condition.withLock { stopping } }

    /// Wakes the workers to stop.
    func shutDown() {
        condition.withLock { stopping = true; condition.broadcast() }
    }
}

/// Why an import stopped before its end.
enum ImportInterruption: Error {
    /// Its owner cancelled it.
    case cancelled
    /// The server is stopping: the job goes back to the queue for the next start.
    case shuttingDown
    /// The job's claim no longer holds (this instance stalled past its lease and another
    /// took the job over): it stops without touching the job.
    case claimLost
}
