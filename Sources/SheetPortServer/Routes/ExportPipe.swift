import Foundation

/// The bounded buffers between an export's build thread (the writer) and its connection (the
/// reader). The writer fills buffers of `bufferSize` bytes and waits while `depth` are queued;
/// the reader takes them with `next()`, which decides under one lock whether a buffer is there,
/// the body ended, failed, or is still coming. (Deciding "nothing queued" and "the build ended"
/// under two locks once lost the last buffer: the writer could queue it and end in between, and
/// the reader ended a chunked body that looked whole but held no zip central directory.)
final class ExportPipe: @unchecked Sendable {
    /// What the reader gets at one call of `next()`.
    enum Next: Equatable {
        /// The next buffer, in order.
        case bytes([UInt8])
        /// Nothing queued yet: `wake` is called when there is.
        case waiting
        /// Every buffer was taken and the writer ended.
        case end
        /// The writer failed, or the pipe was stopped: the body cannot be completed.
        case failed
    }

    /// The reader went away or the pipe was stopped: the writer's next write throws it.
    struct Closed: Error {}

    let bufferSize: Int
    let depth: Int
    private let condition = NSCondition()
    private var queued: [[UInt8]] = []
    /// Whether any buffer was ever queued (the reader may have taken it already).
    private var hasQueued = false
    private var filling: [UInt8] = []
    private var ended = false
    private var failure: (any Error)?
    private var closed = false
    private var stopped = false
    private var wake: (@Sendable () -> Void)?
    private var ready: (@Sendable () -> Void)?
    private var isReady = false

    init(bufferSize: Int, depth: Int) {
        precondition(bufferSize > 0 && depth > 0)
        self.bufferSize = bufferSize
        self.depth = depth
        filling.reserveCapacity(bufferSize)
    }

    /// `ready` is called once: when the first buffer is queued, or the writer ended, failed or
    /// was stopped before that.
    func onReady(_ ready: @escaping @Sendable () -> Void) {
        condition.withLock { self.ready = ready }
    }

    /// `wake` is called whenever a `.waiting` reader may have something new.
    func onWake(_ wake: @escaping @Sendable () -> Void) {
        condition.withLock { self.wake = wake }
    }

    // MARK: the writer

    /// Appends bytes, queueing each buffer as it fills (waiting while the queue is full).
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let length = min(bytes.count - offset, bufferSize - filling.count)
            filling.append(contentsOf: bytes[offset..<offset + length])
            offset += length
            if filling.count == bufferSize { try flush() }
        }
    }

    /// The writer is done: the last partial buffer is queued and the reader may end after it.
    func finish() throws {
        try flush()
        notify { ended = true }
    }

    /// The writer failed; returns whether the reader had been told to start (then it only sees
    /// a cut connection, so the caller logs the error).
    @discardableResult
    func fail(_ error: any Error) -> Bool {
        var started = false
        notify {
            failure = error
            started = isReady
        }
        return started
    }

    /// The writer gave up on `Closed` (nothing to record): wakes the reader all the same.
    func abandon() { notify {} }

    // MARK: the reader

    /// The next buffer, or why there is none, decided at once under the lock.
    func next() -> Next {
        condition.withLock {
            if !queued.isEmpty {
                condition.broadcast() // room for the writer
                return .bytes(queued.removeFirst())
            }
            if failure != nil || stopped { return .failed }
            return ended ? .end : .waiting
        }
    }

    /// The writer's error when it failed before its first buffer was queued (the answer then).
    var failedBeforeFirstBuffer: (any Error)? {
        condition.withLock { hasQueued ? nil : failure }
    }

    /// Whether `stop()` was called.
    var isStopped: Bool { condition.withLock { stopped } }

    /// The reader is gone: the writer stops at its next buffer; no callback is made again.
    func close() {
        condition.withLock {
            closed = true
            wake = nil
            condition.broadcast()
        }
    }

    /// The server is stopping (or the export's access was revoked): the writer stops and the
    /// reader fails at its next call, after the buffers queued unless `dropping`.
    func stop(dropping: Bool = false) {
        notify {
            stopped = true
            closed = true
            if dropping { queued.removeAll() }
        }
    }

    /// Queues the buffer being filled, waiting while the queue is full.
    private func flush() throws {
        guard !filling.isEmpty else { return }
        let buffer = filling
        try notify {
            while queued.count >= depth && !closed { condition.wait() }
            guard !closed else { throw Closed() }
            queued.append(buffer)
            hasQueued = true
        }
        filling = []
        filling.reserveCapacity(bufferSize)
    }

    /// Runs `change` under the lock, then calls `wake` and (the first time) `ready` outside it.
    private func notify(_ change: () throws -> Void) rethrows {
        let calls: ((@Sendable () -> Void)?, (@Sendable () -> Void)?) = try condition.withLock {
            try change()
            condition.broadcast()
            defer { ready = nil }
            isReady = true
            return (wake, ready)
        }
        calls.0?()
        calls.1?()
    }
}
