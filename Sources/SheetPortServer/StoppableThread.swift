import Foundation

/// A named background thread that runs until it is asked to stop, and whose `stop()` waits for
/// it: the server's housekeeping passes (storage relief, the row block migration).
final class StoppableThread: @unchecked Sendable {
    private let stopping = DispatchSemaphore(value: 0)
    private let thread = JoinableThread()

    /// Starts `body` on a thread named `name`. `body` calls its argument between steps with how
    /// long it may wait there (0 to only look); it answers true once a stop was asked.
    func start(named name: String, _ body: @escaping @Sendable (_ stopAsked: (_ waiting: Double) -> Bool) -> Void) {
        thread.start(named: name) { [stopping] in
            body { seconds in stopping.wait(timeout: .now() + seconds) == .success }
        }
    }

    /// Asks the thread to stop and waits until it has; nothing when it was never started.
    func stop() {
        guard thread.isStarted else { return }
        stopping.signal()
        thread.join()
    }
}
