import Foundation

/// Runs the worksheet fast path (`WorksheetTokenizer` and its `WorksheetPart`) on a thread of
/// its own, a few batches of rows ahead of the caller, so that what the caller does with the
/// rows (CSV, JSONL, the import's storage) runs on the other core. Each batch carries a copy of
/// the metadata and the progress as they were, so the caller never reads state the producing
/// thread is changing.
final class RowProducer {
    /// Rows completed since the last batch, and how the tokenizer went on.
    struct Batch {
        var rows: [Row]
        var metadata: WorksheetMetadata
        var bytesRead: Int64
        var step: WorksheetTokenizer.Step
    }

    /// What both threads share: the queue of batches, a few deep.
    private final class Channel: @unchecked Sendable {
        let condition = NSCondition()
        var queue: [Batch] = []
        var stopped = false
        let done = DispatchSemaphore(value: 0)
        static let depth = 4

        /// Queues a batch; false when the reader went away.
        func send(_ batch: Batch) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while queue.count >= Self.depth && !stopped { condition.wait() }
            guard !stopped else { return false }
            queue.append(batch)
            condition.broadcast()
            return true
        }
    }

    private let channel = Channel()
    private let source: BackgroundInflater

    /// Starts tokenizing `source` into `handler` on a new thread.
    init(source: BackgroundInflater, handler: WorksheetPart) {
        self.source = source
        let job = Job(channel: channel, tokenizer: WorksheetTokenizer(source: source, handler: handler), handler: handler)
        let thread = Thread { job.run() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit {
        // A reader that stops early stops the thread, also one waiting on the inflater.
        channel.condition.lock()
        channel.stopped = true
        channel.condition.broadcast()
        channel.condition.unlock()
        source.abort()
        channel.done.wait()
    }

    /// The next batch; waits while none is ready. After a batch whose step is not `.rows`
    /// there is none.
    func next() -> Batch {
        channel.condition.lock()
        defer { channel.condition.unlock() }
        while channel.queue.isEmpty { channel.condition.wait() }
        let batch = channel.queue.removeFirst()
        channel.condition.broadcast()
        return batch
    }

    /// The producing thread's work.
    private struct Job: @unchecked Sendable {
        let channel: Channel
        let tokenizer: WorksheetTokenizer
        let handler: WorksheetPart

        func run() {
            defer { channel.done.signal() }
            while true {
                let step = tokenizer.advance()
                var rows: [Row] = []
                swap(&rows, &handler.completedRows)
                handler.completedRows.reserveCapacity(256)
                let batch = Batch(rows: rows, metadata: handler.metadata, bytesRead: tokenizer.bytesRead, step: step)
                guard channel.send(batch), case .rows = step else { return }
            }
        }
    }
}
