import Foundation

extension Thread {
    /// A thread (not started) that runs `work`, lets go of it with all it captured (a server's
    /// context, its connections), and only then calls `ended` (the signal `stop()` waits for).
    /// A closure the thread kept would be released only as it exits, after that signal, and with
    /// it possibly the server's last connections: a stopped server's store could still be open
    /// (SQLite's WAL and shared memory not yet removed) once `stop()` had returned.
    static func running(_ work: @escaping @Sendable () -> Void, then ended: @escaping @Sendable () -> Void) -> Thread {
        let once = RunOnce(work)
        return Thread {
            once()
            ended()
        }
    }
}

/// Work run once and let go of.
private final class RunOnce: @unchecked Sendable {
    // Set before the thread starts, cleared on it: never touched by two threads at once.
    private var work: (@Sendable () -> Void)?

    init(_ work: @escaping @Sendable () -> Void) {
        self.work = work
    }

    func callAsFunction() {
        work?()
        work = nil
    }
}
