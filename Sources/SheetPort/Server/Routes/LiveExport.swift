import Foundation

/// An export sent as it is written: a thread of its own runs the `ExportBuild` into a few
/// buffers, and the connection takes them as they fill, parked while it waits (no request
/// thread held). The answer waits, parked too, only for the first buffer (`ExportStart`), so a
/// build that fails at once still gets its 500; after that a failure cuts the connection
/// (`LiveRead.failed`), so no client takes a short body for a whole workbook. Memory stays
/// bounded: the build waits while `depth` buffers are queued; a client that goes stops it.
/// Holds its export slot until both ends are done.
final class LiveExport: LiveReplyStream, @unchecked Sendable {
    /// Bytes per queued buffer.
    static let bufferSize = 64 * 1024
    /// Buffers queued at most.
    static let depth = 8

    let build: ExportBuild
    private let context: ServerContext
    private let slot: ExportSlots.Slot
    private let condition = NSCondition()
    private var queued: [[UInt8]] = []
    private var filling: [UInt8] = []
    private var sending: [UInt8] = []
    private var sent = 0
    private var built = false
    private var failure: (any Error)?
    private var gone = false
    private var stopped = false
    private var wake: (@Sendable () -> Void)?
    private var ready: (@Sendable () -> Void)?
    private var isReady = false

    /// The client went away or the server is stopping.
    struct Gone: Error {}

    init(_ build: ExportBuild, slot: ExportSlots.Slot, _ context: ServerContext) {
        self.build = build
        self.slot = slot
        self.context = context
        filling.reserveCapacity(Self.bufferSize)
    }

    /// Starts the build; `ready` is called once, when the first buffer is queued or the build
    /// has ended (failed, or stopped with the server).
    func begin(ready: @escaping @Sendable () -> Void) {
        condition.withLock { self.ready = ready }
        guard context.exports.track(self) else { return stop() }
        context.exports.builds.enter()
        let thread = Thread { [self] in
            // Named from inside: Foundation names the system thread only for the current one.
            Thread.current.name = "export \(build.sheet.id.prefix(8))"
            produce()
            context.exports.builds.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// The build's error when it failed before its first byte was queued (it is the answer then).
    var failedBeforeFirstByte: (any Error)? {
        condition.withLock { queued.isEmpty && !built ? failure : nil }
    }

    /// Whether the server stopped it.
    var isStopped: Bool { condition.withLock { stopped } }

    func start(wake: @escaping @Sendable () -> Void) {
        condition.withLock { self.wake = wake }
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> LiveRead {
        if sent == sending.count {
            let next: [UInt8]? = condition.withLock {
                guard !queued.isEmpty else { return nil }
                condition.broadcast() // room for the build
                return queued.removeFirst()
            }
            guard let next else {
                return condition.withLock { failure != nil || stopped ? .failed : built ? .end : .waiting }
            }
            sending = next
            sent = 0
        }
        let length = min(count, sending.count - sent)
        sending.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + sent, byteCount: length) }
        sent += length
        return .bytes(length)
    }

    func finish() {
        condition.withLock {
            gone = true
            wake = nil
            condition.broadcast()
        }
        context.exports.forget(self)
    }

    /// The server is stopping: the build ends and the connection is cut at its next read.
    func stop() {
        let calls = condition.withLock {
            stopped = true
            gone = true
            condition.broadcast()
            return (wake, takeReady())
        }
        calls.0?()
        calls.1?()
    }

    private func produce() {
        do {
            try build.write(to: { [self] bytes in try take(bytes) }, context)
            try flush()
            condition.withLock { built = true }
        } catch is Gone {
            // The client went, or the server stops: nothing to tell.
        } catch {
            let started = condition.withLock {
                failure = error
                return isReady
            }
            // Once bytes went out the client only sees a cut connection: the reason goes to the log.
            if started { _ = ServerLog.incident(error, during: "export of sheet \(build.sheet.id)") }
        }
        let calls = condition.withLock { (wake, takeReady()) }
        calls.0?()
        calls.1?()
    }

    /// Under the lock: `ready`, the first time only.
    private func takeReady() -> (@Sendable () -> Void)? {
        defer { ready = nil }
        isReady = true
        return ready
    }

    /// The writer's sink: fills a buffer, queueing it when full.
    private func take(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let length = min(bytes.count - offset, Self.bufferSize - filling.count)
            filling.append(contentsOf: bytes[offset..<offset + length])
            offset += length
            if filling.count == Self.bufferSize { try flush() }
        }
    }

    /// Queues the buffer being filled, waiting while the queue is full.
    private func flush() throws {
        guard !filling.isEmpty else { return }
        let calls = try condition.withLock {
            while queued.count >= Self.depth && !gone { condition.wait() }
            guard !gone else { throw Gone() }
            queued.append(filling)
            return (wake, takeReady())
        }
        filling = []
        filling.reserveCapacity(Self.bufferSize)
        calls.0?()
        calls.1?()
    }
}

/// The answer of an export, parked until its first buffer is ready: then 200 with the
/// `LiveExport` as its body, or the build's error (a 500 with its incident) when it failed first.
final class ExportStart: PendingReply, @unchecked Sendable {
    private let export: LiveExport
    private let headers: [(name: String, value: String)]
    private let request: Request

    init(_ export: LiveExport, headers: [(name: String, value: String)], request: Request) {
        self.export = export
        self.headers = headers
        self.request = request
    }

    func start(wake: @escaping @Sendable () -> Void) { export.begin(ready: wake) }

    func answer() -> Reply {
        if export.isStopped { return .error(503, "busy", "the server is stopping") }
        return SheetServer.answer(for: request) {
            if let failure = export.failedBeforeFirstByte { throw failure }
            return Reply(status: 200, headers: headers, body: .live(export))
        }
    }
}
