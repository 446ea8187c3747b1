/// A source of a streamed response body, read by the HTTP daemon chunk by chunk.
public protocol ReplyStream: AnyObject {
    /// Fills up to `count` bytes at `buffer`; returns how many, 0 at the end. Throwing ends the
    /// response abruptly (the client sees a cut-off body).
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int
}

/// An HTTP response: status, headers and a body held in memory or streamed.
public struct Reply {
    /// The body.
    public enum Body {
        /// Held in memory.
        case bytes([UInt8])
        /// Streamed, of this length when known (nil: chunked).
        case stream(any ReplyStream, length: Int64?)
    }

    /// The status code.
    public var status: Int
    /// Extra header fields (`Cache-Control: no-store` is added to every response).
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Body

    /// A response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response.
    public static func json(_ value: JSON, status: Int = 200, headers: [(name: String, value: String)] = []) -> Reply {
        Reply(status: status, headers: [("Content-Type", "application/json")] + headers, body: .bytes(Array(value.text.utf8)))
    }

    /// A CONTRACTS error: `{"error":{"code","message","findings"}}`.
    public static func error(_ status: Int, _ code: String, _ message: String, findings: [String] = []) -> Reply {
        var members: [(String, JSON)] = [("code", .string(code)), ("message", .string(message))]
        if !findings.isEmpty { members.append(("findings", .array(findings.map(JSON.raw)))) }
        return json(.object([("error", .object(members))]), status: status)
    }

    /// 404 `not-found`: also what a subject gets for what it may not see.
    public static var notFound: Reply { Refusal.notFound.reply }
}
