import SheetPortCore
import Foundation

/// An export sent as it is written: a thread of its own runs the `ExportBuild` into a few
/// buffers (`ExportPipe`), and the connection takes them as they fill, parked while it waits
/// (no request thread held). The answer waits, parked too, only for the first buffer
/// (`ExportStart`), so a build that fails at once still gets its 500; after that a failure cuts
/// the connection (`LiveRead.failed`), so no client takes a short body for a whole workbook.
/// Memory stays bounded: the build waits while `depth` buffers are queued; a client that goes
/// stops it. Holds its export slot until both ends are done.
final class LiveExport: LiveReplyStream, @unchecked Sendable {
    /// Bytes per queued buffer.
    static let bufferSize = 64 * 1024
    /// Buffers queued at most.
    static let depth = 8

    let build: ExportBuild
    let context: ServerContext
    private let slot: ExportSlots.Slot
    private let pipe = ExportPipe(bufferSize: LiveExport.bufferSize, depth: LiveExport.depth)
    // Only the connection's reads touch these (one at a time).
    private var sending: [UInt8] = []
    private var sent = 0

    init(_ build: ExportBuild, slot: ExportSlots.Slot, _ context: ServerContext) {
        self.build = build
        self.slot = slot
        self.context = context
    }

    /// Starts the build; `ready` is called once, when the first buffer is queued or the build
    /// has ended (failed, or stopped with the server).
    func begin(ready: @escaping @Sendable () -> Void) {
        pipe.onReady(ready)
        guard context.exports.track(self) else { return stop() }
        // Access revoked: what is queued is dropped, the build ends and the connection is cut.
        slot.onRevoke { [pipe] in pipe.stop(dropping: true) }
        context.exports.startBuild(named: "export \(build.sheet.id.prefix(8))") { [self] in produce() }
    }

    /// The build's error when it failed before its first byte was queued (it is the answer then).
    var failedBeforeFirstByte: (any Error)? { pipe.failedBeforeFirstBuffer }

    /// Whether the server stopped it.
    var isStopped: Bool { pipe.isStopped }

    /// Whether its token, session or grant was revoked while it ran.
    var isRevoked: Bool { slot.isRevoked }

    func start(wake: @escaping @Sendable () -> Void) { pipe.onWake(wake) }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> LiveRead {
        // A flag, not a look at the store: the slot's recheck timer sets it.
        if slot.isRevoked { return .failed }
        if sent == sending.count {
            switch pipe.next() {
            case .bytes(let next):
                sending = next
                sent = 0
            case .waiting: return .waiting
            case .end: return .end
            case .failed: return .failed
            }
        }
        let length = min(count, sending.count - sent)
        sending.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + sent, byteCount: length) }
        sent += length
        return .bytes(length)
    }

    func finish() {
        pipe.close()
        context.exports.forget(self)
    }

    /// The server is stopping: the build ends and the connection is cut at its next read.
    func stop() { pipe.stop() }

    private func produce() {
        do {
            try build.write(to: { [pipe] bytes in try pipe.write(bytes) }, context)
            try pipe.finish()
        } catch is ExportPipe.Closed {
            pipe.abandon() // the client went, or the server stops: nothing to tell
        } catch {
            // Once bytes went out the client only sees a cut connection: the reason goes to the log.
            if pipe.fail(error) { _ = context.log.incident(error, during: "export of sheet \(build.sheet.id)") }
        }
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
        let reply: Reply
        if export.isRevoked {
            reply = .notFound
        } else if export.isStopped {
            reply = .error(503, .busy, "the server is stopping")
        } else {
            reply = SheetServer.answer(for: request, export.context) {
                if let failure = export.failedBeforeFirstByte { throw failure }
                return Reply(status: 200, headers: headers, body: .live(export))
            }
        }
        // An answer without the export as its body: nothing will end it, so it ends here
        // (else it stayed tracked, and its slot taken, for as long as the server ran).
        if case .live = reply.body {} else { export.finish() }
        return reply
    }
}
