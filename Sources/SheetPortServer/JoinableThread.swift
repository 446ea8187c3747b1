import Foundation

/// A named thread whose end its owner waits for when it stops: an import worker, the lease
/// keeper, the sheet change feed, a housekeeping pass.
final class JoinableThread: @unchecked Sendable {
    private let ended = DispatchSemaphore(value: 0)
    // Set by `start` and cleared by `join`, both called by the owner, never at once.
    private(set) var isStarted = false

    /// Starts `work` on a thread named `name`.
    func start(named name: String, _ work: @escaping @Sendable () -> Void) {
        let thread = Thread.running(work) { [ended] in ended.signal() }
        thread.name = name
        thread.start()
        isStarted = true
    }

    /// Waits until the thread has ended; returns at once when it was not started (or was
    /// already waited for).
    func join() {
        if isStarted { ended.wait() }
        isStarted = false
    }
}
