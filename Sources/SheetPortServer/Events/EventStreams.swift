import Foundation
import SheetPortCore

/// How many event streams a server keeps open and how often it looks at them.
public struct EventStreamLimits: Sendable {
    /// Streams open at once, of all subjects (past it: 503).
    public var total = 256
    /// Streams open at once of one subject, the streams of the share links it made included
    /// (past it: 429).
    public var perSubject = 16
    /// Seconds between heartbeat comments (`: ping`) on a stream with nothing else to say; at
    /// most 30, so an open stream never stalls as long as a streamed answer may (60 s).
    public var heartbeat = 15.0
    /// Seconds between the looks every open stream takes at its token and grant even when
    /// nothing happens: a revocation made straight in the database (`sheetport token revoke`)
    /// ends a stream within this long. At most 1.
    public var recheck = 1.0

    /// The defaults.
    public init() {}
}

/// The open event streams: their caps, and the one timer that wakes each of them every
/// `recheck` seconds to check its access again and to send a heartbeat when one is due.
final class EventStreams: @unchecked Sendable {
    let limits: EventStreamLimits
    private let lock = NSLock()
    private var open: [ObjectIdentifier: EventStream] = [:]
    private var perSubject: [String: Int] = [:]
    private var timer: DispatchSourceTimer?

    init(limits: EventStreamLimits) {
        self.limits = limits
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "sheetport.event-streams.recheck"))
        let interval = min(max(limits.recheck, 0.05), 1)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
        timer.setEventHandler { [weak self] in self?.wakeAll() }
        timer.resume()
        self.timer = timer
    }

    /// Counts `stream` in, or the refusal when a cap is reached: 503 over the total (the
    /// server is busy), 429 over the subject's share; both say when to try again.
    func admit(_ stream: EventStream) -> Reply? {
        lock.lock()
        defer { lock.unlock() }
        if open.count >= limits.total {
            return Self.refusal(503, .tooManyStreams, "the server has \(limits.total) event streams open; try again later")
        }
        if perSubject[stream.quotaSubject, default: 0] >= limits.perSubject {
            return Self.refusal(429, .tooManyStreams, "a subject (with the share links it made) may have \(limits.perSubject) event streams open at once")
        }
        open[ObjectIdentifier(stream)] = stream
        perSubject[stream.quotaSubject, default: 0] += 1
        return nil
    }

    /// Counts `stream` out (its connection ended).
    func remove(_ stream: EventStream) {
        lock.lock()
        defer { lock.unlock() }
        guard open.removeValue(forKey: ObjectIdentifier(stream)) != nil else { return }
        perSubject[stream.quotaSubject, default: 1] -= 1
        if perSubject[stream.quotaSubject] == 0 { perSubject[stream.quotaSubject] = nil }
    }

    /// How many are open.
    var count: Int { lock.withLock { open.count } }

    /// Stops the timer; the streams themselves end through `SheetChanges.close()`.
    func close() {
        lock.withLock {
            timer?.cancel()
            timer = nil
        }
    }

    private func wakeAll() {
        let streams = lock.withLock { Array(open.values) }
        for stream in streams { stream.wake() }
    }

    private static func refusal(_ status: Int, _ code: ServerErrorCode, _ message: String) -> Reply {
        var reply = Reply.error(status, code, message)
        reply.headers.append(("Retry-After", "5"))
        return reply
    }
}
