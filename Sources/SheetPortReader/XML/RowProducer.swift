import Foundation
import SheetPortCore

/// Runs the worksheet fast path on two threads of its own, a few batches of rows ahead of the
/// caller: one tokenizes the XML (`WorksheetTokenizer` and its `WorksheetPart`) into
/// `UndecodedRows`, the other decodes their values (`CellDecoder`) into rows of cells, so that
/// with the inflating thread and what the caller does with the rows (CSV, JSONL, the import's
/// storage) the work spreads over the cores. Each batch carries a copy of the metadata and the
/// progress as they were, so the caller never reads state a producing thread is changing.
final class RowProducer {
    /// Rows completed since the last batch, and how the tokenizer went on.
    struct Batch {
        var rows: [Row]
        var metadata: WorksheetMetadata
        var bytesRead: Int64
        var step: FastPathStep
    }

    /// A batch as the tokenizing thread hands it to the decoding thread.
    private struct Tokenized {
        var rows: UndecodedRows
        var metadata: WorksheetMetadata
        var bytesRead: Int64
        var step: FastPathStep
    }

    private let tokenized = BatchQueue<Tokenized>()
    private let decoded = BatchQueue<Batch>()
    private let source: BackgroundInflater
    /// Signalled once by each of the two threads as it ends.
    private let done = DispatchSemaphore(value: 0)

    /// Starts tokenizing `source` into `handler`, and decoding the rows with `decoder`, on two new threads.
    init(source: BackgroundInflater, handler: WorksheetPart, decoder: CellDecoder) {
        self.source = source
        let tokenizing = TokenizeJob(output: tokenized, tokenizer: WorksheetTokenizer(source: source, handler: handler),
                                     handler: handler, done: done)
        let decoding = DecodeJob(input: tokenized, output: decoded, decoder: decoder, done: done)
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

    /// The tokenizing thread's work.
    private struct TokenizeJob: @unchecked Sendable {
        let output: BatchQueue<Tokenized>
        let tokenizer: WorksheetTokenizer<WorksheetPart>
        let handler: WorksheetPart
        let done: DispatchSemaphore

        func run() {
            defer { done.signal() }
            while true {
                let step = tokenizer.advance()
                let rows = handler.completedRows.takeComplete()
                let batch = Tokenized(rows: rows, metadata: handler.metadata, bytesRead: tokenizer.bytesRead, step: step)
                guard output.send(batch), case .rows = step else { return }
            }
        }
    }

    /// The decoding thread's work.
    private struct DecodeJob: @unchecked Sendable {
        let input: BatchQueue<Tokenized>
        let output: BatchQueue<Batch>
        let decoder: CellDecoder
        let done: DispatchSemaphore

        func run() {
            defer { done.signal() }
            var decoder = self.decoder
            while let batch = input.receive() {
                var rows: [Row] = []
                decoder.decode(batch.rows, into: &rows)
                let decoded = Batch(rows: rows, metadata: decoder.completing(batch.metadata), bytesRead: batch.bytesRead, step: batch.step)
                guard output.send(decoded), case .rows = batch.step else { return }
            }
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
