import Foundation

/// The threads that run the requests which calculate (writes, and reads that may compute a
/// sheet's pending values or settle it), so libmicrohttpd's polling threads only accept and
/// answer connections: a request's connection is parked (`CalcReply`) while a worker runs it.
/// A job that names a sheet (a write) runs only while no other job of that sheet does, and the
/// jobs of one sheet start in the order they came; others pass a sheet's waiting writes.
final class CalcWorkers: @unchecked Sendable {
    private struct Job {
        let sheet: String?
        let run: @Sendable () -> Void
        let refuse: @Sendable () -> Void
    }

    private let condition = NSCondition()
    private var queue: [Job] = []
    /// The sheets whose job is running.
    private var busy: Set<String> = []
    private var isClosed = false
    private var running = 0
    private let ended = DispatchGroup()

    private let count: Int
    private let name: String
    private var isStarted = false

    /// `count` threads named `name`, started with the first job (a server that fails to
    /// start leaves none behind).
    init(count: Int, name: String) {
        self.count = max(1, count)
        self.name = name
    }

    /// Starts the threads (under `condition`).
    private func startThreads() {
        isStarted = true
        for _ in 0..<count {
            ended.enter()
            let thread = Thread.running { [self] in
                while let job = next() {
                    job.run()
                    done(job)
                }
            } then: { [ended] in
                ended.leave()
            }
            thread.name = name
            thread.stackSize = 8 << 20 // as libmicrohttpd's threads, where these requests ran before
            thread.start()
        }
    }

    /// Queues `run` (for sheet `sheet` when it writes one). Once the workers are closed, `refuse`
    /// is called instead (at once, or for a job still queued when they close).
    func submit(sheet: String?, _ run: @escaping @Sendable () -> Void, refuse: @escaping @Sendable () -> Void) {
        let accepted = condition.withLock {
            guard !isClosed else { return false }
            if !isStarted { startThreads() }
            queue.append(Job(sheet: sheet, run: run, refuse: refuse))
            condition.broadcast()
            return true
        }
        if !accepted { refuse() }
    }

    /// Refuses the queued jobs, lets the running ones finish, and waits for the threads to end.
    func close() {
        let refused: [Job] = condition.withLock {
            isClosed = true
            defer { queue = [] }
            condition.broadcast()
            return queue
        }
        refused.forEach { $0.refuse() }
        ended.wait()
    }

    /// How many jobs wait or run (for tests and the log).
    var load: Int { condition.withLock { queue.count + running } }

    /// The first queued job whose sheet is free, waiting for one; nil once closed.
    private func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if isClosed { return nil }
            if let index = queue.firstIndex(where: { $0.sheet.map { !busy.contains($0) } ?? true }) {
                let job = queue.remove(at: index)
                if let sheet = job.sheet { busy.insert(sheet) }
                running += 1
                return job
            }
            condition.wait()
        }
    }

    private func done(_ job: Job) {
        condition.withLock {
            if let sheet = job.sheet { busy.remove(sheet) }
            running -= 1
            condition.broadcast()
        }
    }
}
