import Foundation
import SheetPortCore
import Dispatch

/// One `text/event-stream` answer (Docs/Reference/HTTP.md, "Event streams"): a sheet's `version` events or an
/// import job's `progress` events and its `done`, read from the store after each wake (a
/// change signalled through `SheetChanges`, or the `EventStreams` recheck timer).
///
/// Every delivery, an event or a heartbeat, first reads what is to be sent and then resolves
/// the token, its session and the subject's grant on the sheet (or its ownership of the job)
/// again: whatever was sent happened before that check, so nothing that happened after a
/// revocation is ever delivered, and a failed check ends the stream without another byte.
final class EventStream: LiveReplyStream, @unchecked Sendable {
    /// What the stream follows.
    enum Source {
        /// `version` events of a sheet.
        case sheet(String)
        /// `progress` and `done` events of an import job.
        case job(String)
    }

    let source: Source
    let subject: String
    /// Whose share of streams this one counts against: the subject, or for a share link's
    /// subject the owner who made the link (so links cannot fill the server's pool).
    let quotaSubject: String
    private let credential: Credential
    private let context: ServerContext
    /// Touched only by the daemon's reads (one at a time for a connection).
    private var lastID: Int?
    private var outgoing: [UInt8] = []
    private var sentCount = 0
    private var isLast = false
    private var lastDelivery: DispatchTime?
    /// Set from other threads.
    private let lock = NSLock()
    private var wakeDaemon: (@Sendable () -> Void)?
    private var watch: SheetChanges.Watch?
    private var isStopping = false

    /// Events read from the store per delivery.
    static let batch = 64

    init(_ source: Source, subject: String, quotaSubject: String, credential: Credential, after lastID: Int?, _ context: ServerContext) {
        self.source = source
        self.subject = subject
        self.quotaSubject = quotaSubject
        self.credential = credential
        self.lastID = lastID
        self.context = context
    }

    func start(wake: @escaping @Sendable () -> Void) {
        lock.withLock { wakeDaemon = wake }
        let handler: @Sendable (SheetChange?) -> Void = { [weak self] change in
            guard let self else { return }
            // nil: the server is stopping; the stream ends at its next read.
            if change == nil { lock.withLock { isStopping = true } }
            self.wake()
        }
        let watch = switch source {
        case .sheet(let id): context.changes.watch(id, handler)
        case .job(let id): context.changes.watch(job: id, handler)
        }
        lock.withLock { self.watch = watch }
    }

    /// Asks the daemon to read again.
    func wake() {
        lock.withLock { wakeDaemon }?()
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> LiveRead {
        if sentCount == outgoing.count {
            if isLast || lock.withLock({ isStopping }) { return .end }
            switch next() {
            case .end: return .end
            case .waiting: return .waiting
            case .failed: return .failed
            case .bytes: break
            }
        }
        let length = min(count, outgoing.count - sentCount)
        outgoing[sentCount..<sentCount + length].withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: length) }
        sentCount += length
        return .bytes(length)
    }

    func finish() {
        let watch = lock.withLock {
            wakeDaemon = nil
            isStopping = true
            return self.watch
        }
        if let watch { context.changes.cancel(watch) }
        context.events.remove(self)
    }

    /// Prepares the next delivery in `outgoing`: what happened, then the access check.
    private func next() -> LiveRead {
        do {
            var text = try pending()
            guard try isStillAllowed() else { return .end }
            let now = DispatchTime.now()
            if text.isEmpty {
                let heartbeat = UInt64(min(max(context.events.limits.heartbeat, 0.1), 30) * 1e9)
                // The first delivery is a heartbeat too: the client knows the stream is open.
                if let lastDelivery, now.uptimeNanoseconds - lastDelivery.uptimeNanoseconds < heartbeat { return .waiting }
                text = ": ping\n\n"
            }
            lastDelivery = now
            outgoing = Array(text.utf8)
            sentCount = 0
            return .bytes(outgoing.count)
        } catch {
            _ = context.log.incident(error, during: "an event stream")
            return .end
        }
    }

    /// The events after `lastID`, formatted; advances `lastID`.
    private func pending() throws -> String {
        switch source {
        case .sheet(let id):
            let events = try context.database { try $0.sheetEvents(of: id, after: lastID ?? 0, limit: Self.batch) }
            // More than a batch: the rest at the next read, which follows as soon as these are sent.
            lastID = events.last?.version ?? lastID
            return events.map { event in
                Self.event(id: event.version, name: "version",
                           .object([("version", .int(event.version)), ("change", .string(event.change.rawValue)),
                                    ("refs", event.refs.map { .array($0.map { JSON.string($0.description) }) } ?? .null)]))
            }.joined()
        case .job(let id):
            // A job stream's id is the rows stored so far (a progress sequence that only grows),
            // and one past that for `done`, so a reconnect after `done` gets nothing more.
            guard let job = try context.database({ try $0.job(id, for: subject) }) else { return "" }
            switch job.status {
            case .succeeded, .failed, .cancelled:
                isLast = true
                guard (lastID ?? -1) <= job.rows else { return "" }
                lastID = job.rows + 1
                return Self.event(id: job.rows + 1, name: "done", .object([("job", job.json)]))
            case .queued, .running:
                guard lastID.map({ job.rows > $0 }) ?? true else { return "" }
                lastID = job.rows
                return Self.event(id: job.rows, name: "progress", .object([
                    ("status", .string(job.status.rawValue)),
                    ("progress", .object([("bytes", .int(job.bytes)), ("rows", .int(job.rows)), ("cells", .int(job.cells))])),
                ]))
            }
        }
    }

    /// Whether the credential (token or browser session) still resolves to this subject and the subject may still read the
    /// sheet (or still owns the job).
    private func isStillAllowed() throws -> Bool {
        try context.database { database in
            guard try credential.subject(in: database) == subject else { return false }
            switch source {
            case .sheet(let id): return try database.sheet(id, for: subject) != nil
            case .job(let id): return try database.job(id, for: subject) != nil
            }
        }
    }

    /// One event: `id:`, `event:` and its JSON on one `data:` line (JSON text holds no line break).
    private static func event(id: Int, name: String, _ data: JSON) -> String {
        "id: \(id)\nevent: \(name)\ndata: \(data.text)\n\n"
    }
}
