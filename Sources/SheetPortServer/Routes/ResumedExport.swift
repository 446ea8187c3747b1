import Foundation
import SheetPortCore

/// The answer of a resumed export (`Range: bytes=N-` of the same version): a 206 states the
/// whole length, so the workbook is built first, whole, into a sealed scratch file unlinked as
/// soon as it is made, on a build thread while the connection is parked (no request thread
/// builds); then 206 from byte N, or 416 past the end, or the build's error (500 with its
/// incident), or 503 when the server stops meanwhile.
final class ResumedExport: PendingReply, @unchecked Sendable {
    private let build: ExportBuild
    private let start: Int64
    private let headers: [(name: String, value: String)]
    private let slot: ExportSlots.Slot
    private let request: Request
    private let context: ServerContext
    private let lock = NSLock()
    private var built: Result<SealedBlockFile, any Error>?

    init(_ build: ExportBuild, from start: Int64, headers: [(name: String, value: String)], slot: ExportSlots.Slot,
         request: Request, _ context: ServerContext) {
        self.build = build
        self.start = start
        self.headers = headers
        self.slot = slot
        self.request = request
        self.context = context
    }

    func start(wake: @escaping @Sendable () -> Void) {
        context.exports.startBuild(named: "resume \(build.sheet.id.prefix(8))") { [self] in
            let result = Result { try scratch() }
            lock.withLock { built = result }
            wake()
        }
    }

    func answer() -> Reply {
        guard let built = lock.withLock({ built }) else {
            return .error(500, .internal, "the export was answered before it was built")
        }
        if slot.isRevoked { return .notFound }
        if case .failure(let error) = built, error is ExportSlots.Stopping { return .error(503, .busy, "the server is stopping") }
        return SheetServer.answer(for: request, context) {
            let file = try built.get()
            guard start < file.size else {
                var reply = Reply.error(416, .rangeNotSatisfiable, "the export is \(file.size) bytes long; the range starts at \(start)")
                reply.headers.append(("Content-Range", "bytes */\(file.size)"))
                return reply
            }
            return Reply(status: 206, headers: headers + [("Content-Range", "bytes \(start)-\(file.size - 1)/\(file.size)")],
                         body: .stream(ExportStream(file: file, from: start, slot: slot), length: file.size - start))
        }
    }

    /// The whole workbook in a sealed scratch file, already unlinked: its open descriptor keeps
    /// it readable, and nothing stays on disk whatever happens next. A server that stops ends
    /// the build at its next write.
    private func scratch() throws -> SealedBlockFile {
        let identity = Sodium.identifier()
        let path = context.directory.exports + "/" + identity + ".xlsx"
        let file = try SealedBlockFile(creating: path, identity: identity, sealer: context.sealer)
        unlink(path)
        try build.write(to: { [context, slot] bytes in
            guard !context.exports.isClosed else { throw ExportSlots.Stopping() }
            guard !slot.isRevoked else { throw ExportSlots.Stopping() }
            try file.append(bytes)
        }, context)
        try file.flush()
        return file
    }
}

/// Streams a sealed file from a byte on, unsealing one block at a time; holds its export
/// slot until the daemon frees it.
final class ExportStream: ReplyStream {
    private let file: SealedBlockFile
    private var position: Int64
    private let slot: ExportSlots.Slot

    init(file: SealedBlockFile, from start: Int64, slot: ExportSlots.Slot) {
        self.file = file
        position = start
        self.slot = slot
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        // Access revoked (the slot's recheck timer says so): the connection is cut.
        guard !slot.isRevoked else { throw ExportSlots.Revoked() }
        let read = try file.read(into: buffer, count: count, at: position)
        position += Int64(read)
        return read
    }
}
