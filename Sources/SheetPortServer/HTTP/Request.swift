import Foundation

/// An HTTP request as routes see it: method, path, query, the header fields the server uses,
/// the authenticated subject, and the body (small JSON bodies in memory; uploads staged sealed).
package struct Request {
    /// `GET`, `POST`, ...
    package var method: String
    /// The path without the query, percent-decoded by the daemon.
    package var path: String
    /// The path's segments (`/api/sheets/x` gives `["api", "sheets", "x"]`).
    package var segments: [String]
    /// Query arguments (a name given twice keeps its last value).
    package var query: [String: String]
    /// Every query argument in the order sent, repeated names included (`filter=..&filter=..`).
    package var queryItems: [(name: String, value: String)] = []
    /// Header fields by lower-case name.
    package var headers: [String: String]
    /// The session's subject, once the token is resolved.
    package var subject: String?
    /// What authenticated the request (a bearer token or a browser session), once resolved.
    package var credential: Credential?
    /// Whether a page route answers JSON through its API route (`ContentNegotiation`): the
    /// answer then carries `Vary: Accept`.
    package var isNegotiated = false
    /// A small body (JSON requests), collected in memory up to `Request.maxBodyBytes`.
    package var body: [UInt8] = []
    /// Whether the body went past what the route accepts.
    package var bodyTooLarge = false
    /// The staged upload of `POST /api/imports`.
    package var upload: UploadStaging?

    /// The most a JSON request body may hold.
    package static let maxBodyBytes = 1 << 16

    /// A request. `path` is as sent, percent-encoded: it is split into segments first and each
    /// is decoded, so an encoded `/` stays inside its segment and an encoded NUL is kept (and
    /// refused), not a place where the text ends.
    package init(method: String, path: String, query: [String: String], headers: [String: String]) {
        self.method = method
        self.path = Self.percentDecoded(path)
        self.segments = path.split(separator: "/").map { Self.percentDecoded(String($0)) }
        self.query = query
        self.headers = headers
    }

    /// `text` with its `%HH` escapes decoded; text whose escapes do not decode to UTF-8 is kept as sent.
    static func percentDecoded(_ text: String) -> String { text.removingPercentEncoding ?? text }

    /// A header field by name (any case).
    package func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// What a request handler does with requests, in the daemon's three steps.
package protocol RequestHandler: AnyObject, Sendable {
    /// The headers are in: authenticate, and answer at once (an error, a refused upload, an
    /// idempotent repeat) or return nil to read the body.
    func begin(_ request: inout Request) -> Reply?
    /// A chunk of the body; an answer (413) ends the request at once, unread body and all.
    func receive(_ request: inout Request, _ chunk: UnsafeRawBufferPointer) -> Reply?
    /// The body is complete: the answer.
    func finish(_ request: inout Request) -> Reply
    /// The request ended without `finish` (the connection broke): drop what it staged.
    func abandon(_ request: inout Request)
}
