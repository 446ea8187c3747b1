import Foundation
import SheetPortCore

/// A request answered by a calculation worker: its connection is parked (no polling thread
/// waits) until the worker has the answer.
final class CalcReply: PendingReply, @unchecked Sendable {
    private let workers: CalcWorkers
    private let sheet: String?
    private let work: @Sendable () -> Reply
    private let lock = NSLock()
    private var reply: Reply?

    /// `work` runs on one of `workers` (as a write of `sheet` when given).
    init(_ workers: CalcWorkers, sheet: String?, _ work: @escaping @Sendable () -> Reply) {
        self.workers = workers
        self.sheet = sheet
        self.work = work
    }

    func start(wake: @escaping @Sendable () -> Void) {
        workers.submit(sheet: sheet, { [self] in
            let answer = work()
            lock.withLock { reply = answer }
            wake()
        }, refuse: { [self] in
            lock.withLock { reply = .error(503, .busy, "the server is stopping; nothing of this request was done") }
            wake()
        })
    }

    func answer() -> Reply {
        lock.withLock { reply } ?? .error(500, .internal, "the server failed to answer this request")
    }
}
