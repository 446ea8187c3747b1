#if canImport(Glibc)
import Glibc
#endif
import SheetPortCore

/// A source of a streamed response body, read by the HTTP daemon chunk by chunk.
package protocol ReplyStream: AnyObject {
    /// Fills up to `count` bytes at `buffer`; returns how many, 0 at the end. Throwing ends the
    /// response abruptly (the client sees a cut-off body).
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int
}

/// An answer that is not ready when the request is complete (a wait for a sheet version).
/// The daemon suspends the connection, so no request thread waits, until `wake` is called,
/// then asks for the answer on a request thread.
package protocol PendingReply: AnyObject, Sendable {
    /// Starts waiting (called right after the connection is parked). Calls `wake` once, from
    /// any thread or at once, when the answer can be given: the awaited event, a deadline, or
    /// the server stopping. A later call of `wake` does nothing.
    func start(wake: @escaping @Sendable () -> Void)
    /// The answer once woken. It may do work but must not wait.
    func answer() -> Reply
}

/// What a live stream has for the daemon at one read.
package enum LiveRead: Equatable {
    /// This many bytes were filled (more than 0).
    case bytes(Int)
    /// Nothing yet: the daemon parks the connection until the stream's `wake` is called.
    case waiting
    /// The body is complete: the connection ends.
    case end
    /// The body cannot be completed: the connection is cut without the chunked body's end,
    /// so the client sees a broken answer, never a short one that looks whole.
    case failed
}

/// A body produced as things happen, open for as long as it has more to say (an event
/// stream). Between deliveries its connection is parked (suspended), so it holds no thread.
package protocol LiveReplyStream: AnyObject, Sendable {
    /// Called once, before the first read: `wake` (callable any number of times, from any
    /// thread, cheap) tells the daemon to read again because there may be more to send.
    func start(wake: @escaping @Sendable () -> Void)
    /// Fills up to `count` bytes at `buffer`, or says there is nothing yet, or that it ended.
    /// Called on a request thread; it may do quick work but must not wait.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> LiveRead
    /// The connection ended (the body complete, the client gone, the server stopping):
    /// release what the stream holds. Calls of `wake` after it do nothing.
    func finish()
}

/// An HTTP response: status, headers and a body held in memory or streamed.
package struct Reply {
    /// The body.
    package enum Body {
        /// Held in memory.
        case bytes([UInt8])
        /// Streamed, of this length when known (nil: chunked).
        case stream(any ReplyStream, length: Int64?)
        /// Produced as things happen, chunked, for as long as the stream lasts.
        case live(any LiveReplyStream)
        /// Not ready yet: the daemon parks the connection until the pending reply wakes it,
        /// then sends its `answer()` (status and headers included). Only `finish` may return it.
        case pending(any PendingReply)
    }

    /// The status code.
    package var status: Int
    /// Extra header fields (`Cache-Control: no-store` is added to every response).
    package var headers: [(name: String, value: String)]
    /// The body.
    package var body: Body

    /// A response.
    package init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response.
    package static func json(_ value: JSON, status: Int = 200, headers: [(name: String, value: String)] = []) -> Reply {
        Reply(status: status, headers: [("Content-Type", "application/json")] + headers, body: .bytes(Array(value.text.utf8)))
    }

    /// An error of Docs/Reference/HTTP.md: `{"error":{"code","message","findings"}}`.
    package static func error(_ status: Int, _ code: ServerErrorCode, _ message: String, findings: [String] = []) -> Reply {
        var members: [(String, JSON)] = [("code", .string(code.rawValue)), ("message", .string(message))]
        if !findings.isEmpty { members.append(("findings", .array(findings.map(JSON.raw)))) }
        return json(.object([("error", .object(members))]), status: status)
    }

    /// An answer given later, without holding a request thread meanwhile.
    package static func later(_ pending: any PendingReply) -> Reply { Reply(status: 0, body: .pending(pending)) }

    /// 404 `not-found`: also what a subject gets for what it may not see.
    package static var notFound: Reply { RequestRefusal.notFound.reply }
}

extension Reply {
    /// Writes this answer (a small one held in memory) straight to `socket`, as its last
    /// bytes: for the answers given where libmicrohttpd cannot give them (a request refused
    /// before it reaches libmicrohttpd, an upload cut off mid-body). Never blocks.
    func sendClosing(on socket: Int32) {
        guard case .bytes(let body) = body else { return }
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\nCache-Control: no-store\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        let bytes = Array(head.utf8) + body
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            guard count > 0 else { break }
            sent += count
        }
        shutdown(socket, Int32(SHUT_WR))
    }

    /// The reason phrase of the statuses answered this way.
    static func reason(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 431: "Request Header Fields Too Large"
        case 501: "Not Implemented"
        default: "Error"
        }
    }
}
