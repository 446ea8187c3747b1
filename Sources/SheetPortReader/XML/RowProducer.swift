import Foundation
import SheetPortCore

/// Runs the worksheet fast path on two threads of its own, a few batches of rows ahead of the
/// caller: one tokenizes the XML (`WorksheetTokenizer` and its `WorksheetPart`) into
/// `UndecodedRows`, the other decodes their values (`CellDecoder`) into rows of cells, so that
/// with the inflating thread and what the caller does with the rows (CSV, JSONL, the import's
/// storage) the work spreads over the cores. Each batch carries a copy of the metadata and the
/// progress as they were, so the caller never reads state a producing thread is changing.
final class RowProducer {
    /// Rows completed since the last batch, and how the tokenizer went on: undecoded as the
    /// tokenizing thread hands them to the decoding thread, rows of cells for the caller.
    struct Stage<Rows> {
        var rows: Rows
        var metadata: WorksheetMetadata
        var bytesRead: Int64
        var step: FastPathStep
    }

    /// A batch of rows of cells.
    typealias Batch = Stage<[Row]>

    private let tokenized = BatchQueue<Stage<UndecodedRows>>()
    private let decoded = BatchQueue<Batch>()
    private let source: BackgroundInflater
    /// Signalled once by each of the two threads as it ends.
    private let done = DispatchSemaphore(value: 0)

    /// Starts tokenizing `source` into `handler`, and decoding the rows with `decoder`, on two new threads.
    init(source: BackgroundInflater, handler: WorksheetPart, decoder: CellDecoder) {
        self.source = source
        let tokenizer = WorksheetTokenizer(source: source, handler: handler)
        let tokenizing = Job(output: tokenized, done: done) {
            let step = tokenizer.advance()
            return Stage(rows: handler.completedRows.takeComplete(), metadata: handler.metadata, bytesRead: tokenizer.bytesRead, step: step)
        }
        var decoder = decoder
        let decoding = Job(output: decoded, done: done) { [tokenized] in
            guard let batch = tokenized.receive() else { return nil }
            var rows: [Row] = []
            decoder.decode(batch.rows, into: &rows)
            return Batch(rows: rows, metadata: decoder.completing(batch.metadata), bytesRead: batch.bytesRead, step: batch.step)
        }
        let threads = [Thread { tokenizing.run() }, Thread { decoding.run() }]
        for thread in threads {
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    deinit {
        // A reader that stops early stops both threads, also one waiting on the inflater.
        tokenized.stop()
        decoded.stop()
        source.abort()
        done.wait()
        done.wait()
    }

    /// The next batch; waits while none is ready. After a batch whose step is not `.rows`
    /// there is none.
    func next() -> Batch {
        // Only `deinit` stops the queue, and then nobody calls this.
        decoded.receive()!
    }

    /// A producing thread's work: sends what `next` makes until it makes nothing, a batch ends
    /// the sheet (its step is not `.rows`) or the receiver went away; then signals `done`.
    private struct Job<Rows>: @unchecked Sendable {
        let output: BatchQueue<Stage<Rows>>
        let done: DispatchSemaphore
        let next: () -> Stage<Rows>?

        func run() {
            defer { done.signal() }
            while let batch = next(), output.send(batch), case .rows = batch.step {}
        }
    }
}

/// Batches handed from one thread to the next, a few deep: the sender waits while the queue
/// is full, the receiver while it is empty, and `stop()` ends both waits.
final class BatchQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [Element] = []
    private var stopped = false
    private let depth: Int

    /// A queue holding at most `depth` batches.
    init(depth: Int = 4) { self.depth = depth }

    /// Queues `batch`; false when the queue was stopped (the receiver went away).
    func send(_ batch: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= depth && !stopped { condition.wait() }
        guard !stopped else { return false }
        queue.append(batch)
        condition.broadcast()
        return true
    }

    /// The next batch; nil once the queue is stopped.
    func receive() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !stopped { condition.wait() }
        guard !stopped else { return nil }
        let batch = queue.removeFirst()
        condition.broadcast()
        return batch
    }

    /// Ends every wait; later sends fail and receives return nil.
    func stop() {
        condition.withLock { stopped = true; condition.broadcast() }
    }
}
