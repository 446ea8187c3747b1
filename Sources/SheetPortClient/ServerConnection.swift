import Foundation

/// A server (its base URL) and the session token to speak to it with (Docs/Reference/HTTP.md):
/// builds authenticated requests, retries what may be retried, and turns error answers into
/// `ClientError`s naming the URL.
public struct ServerConnection: Sendable {
    /// `http://host:port`, no trailing slash.
    public let baseURL: String
    private let token: String
    /// How requests are retried.
    public var retry: RetryPolicy

    /// A connection to `url` (`http://` or `https://`) with `token`.
    public init(url: String, token: String, retry: RetryPolicy = RetryPolicy()) throws(ClientError) {
        var base = url
        while base.hasSuffix("/") { base.removeLast() }
        guard base.hasPrefix("http://") || base.hasPrefix("https://"), base.count > "https://".count - 1 else {
            throw .invalidResponse(url: url, reason: "a server URL starts with http:// or https://")
        }
        baseURL = base
        self.token = token.trimmingCharacters(in: .whitespacesAndNewlines)
        self.retry = retry
    }

    /// The token from the file `file` when given, else from `SHEETPORT_TOKEN` (never from the
    /// command line, Docs/Reference/CLI.md).
    public static func token(file: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws(ClientError) -> String {
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw .missingToken("cannot read the token file \(file)")
            }
            let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !token.isEmpty else { throw .missingToken("the token file \(file) is empty") }
            return token
        }
        guard let token = environment["SHEETPORT_TOKEN"], !token.isEmpty else {
            throw .missingToken("give --token-file FILE or set SHEETPORT_TOKEN")
        }
        return token
    }

    /// The absolute URL of `path` (`/api/...`).
    public func url(_ path: String) -> String { baseURL + path }

    /// A request to `path` with the token and `headers`.
    package func request(_ method: String, _ path: String, headers: [(name: String, value: String)] = [],
                        body: HTTPRequest.Body = .none) -> HTTPRequest {
        HTTPRequest(method: method, url: url(path),
                    headers: [("Authorization", "Bearer \(token)"), ("Accept", "application/json")] + headers, body: body)
    }

    /// A `GET` of the event stream at `path` (`Accept: text/event-stream` alone), resuming after
    /// `lastEventID` when there is one.
    package func eventStreamRequest(_ path: String, after lastEventID: String?) -> HTTPRequest {
        var headers: [(name: String, value: String)] = [("Accept", "text/event-stream")]
        if let lastEventID { headers.append(("Last-Event-ID", lastEventID)) }
        var request = self.request("GET", path, headers: headers)
        request.headers.removeAll { $0.name == "Accept" && $0.value == "application/json" }
        return request
    }

    /// Sends a request whose answer is JSON, retrying dropped connections and retryable
    /// statuses; `what` names the resource in a 404 ("import job 12").
    func json(_ method: String, _ path: String, client: HTTPClient, what: String) throws -> JSONObject {
        try json(request(method, path), client: client, what: what)
    }

    /// Sends `request` (its body streamed, `uploadProgress` told of it) and parses the JSON
    /// answer, retrying dropped connections and retryable statuses. The client's `cancellation`
    /// also cuts a retry's backoff short, and is what is thrown when it stopped the retries.
    func json(_ request: HTTPRequest, client: HTTPClient, what: String,
              uploadProgress: ((Int64, Int64) throws -> Void)? = nil) throws -> JSONObject {
        let response: HTTPResponse
        // A request without a body ends within the budget, its retries included: each try's
        // deadlines are cut to what is left of it. (An upload's tries are bounded each, its
        // deadline counting from the end of its body.)
        let budget = if case .none = request.body { retry.budget } else { 0.0 }
        let saved = (client.connectTimeout, client.timeout, client.answerTimeout)
        defer { (client.connectTimeout, client.timeout, client.answerTimeout) = saved }
        do {
            response = try retry.run({ _, left in
                if let left {
                    let bound = max(left, 0.05)
                    client.connectTimeout = min(saved.0, bound)
                    client.timeout = saved.1 > 0 ? min(saved.1, bound) : bound
                    client.answerTimeout = saved.2 > 0 ? min(saved.2, bound) : bound
                }
                let response = try Self.send(request, client: client, uploadProgress: uploadProgress)
                if RetryPolicy.isRetryable(status: response.status) {
                    throw RetryableFailure(Self.error(response, url: request.url, what: what), retryAfter: Self.retryAfter(response.head))
                }
                return response
            }, budget: budget, shouldStop: { (try? client.cancellation()) == nil })
        } catch {
            try client.cancellation()
            throw error
        }
        guard (200..<300).contains(response.status) else { throw Self.error(response, url: request.url, what: what) }
        if response.body.isEmpty { return JSONObject([:]) }
        do {
            return try JSONObject(parsing: response.body)
        } catch {
            throw ClientError.invalidResponse(url: request.url, reason: error.description)
        }
    }

    /// `make` applied to a JSON answer of `url`; an answer of the wrong shape is an invalid response.
    func decode<Value>(_ url: String, _ make: () throws -> Value) throws -> Value {
        do {
            return try make()
        } catch let error as JSONShapeError {
            throw ClientError.invalidResponse(url: url, reason: error.description)
        }
    }

    /// Sends `request`; a retryable connection failure is thrown as a `RetryableFailure`.
    static func send(_ request: HTTPRequest, client: HTTPClient,
                     uploadProgress: ((Int64, Int64) throws -> Void)? = nil) throws -> HTTPResponse {
        do {
            return try client.send(request, uploadProgress: uploadProgress)
        } catch {
            throw failure(error, url: request.url)
        }
    }

    /// A connection failure as the error to throw: retryable ones wrapped for `RetryPolicy`.
    static func failure(_ error: HTTPClientError, url: String) -> any Error {
        if case .aborted(_, let underlying) = error { return underlying }
        let failure = ClientError.transport(url: url, message: Self.message(error))
        return RetryPolicy.isRetryable(error) ? RetryableFailure(failure) : failure
    }

    private static func message(_ error: HTTPClientError) -> String {
        switch error {
        case .connectionFailed(_, let message): "cannot connect: \(message)"
        case .timedOut(_, let message): message
        case .transfer(_, _, let message): message
        case .unreadableFile(let path, let reason): "\(path): \(reason)"
        case .aborted(_, let underlying): "\(underlying)"
        case let .answerTooLarge(_, part, limit): "the answer's \(part) is larger than \(limit) bytes; the rest was not read"
        }
    }

    /// The `ClientError` for an error answer: its `{"error":{"code","message"}}`, 404 as not found.
    static func error(_ response: HTTPResponse, url: String, what: String) -> ClientError {
        if response.status == 404 { return .notFound(url: url, what: what) }
        let error = (try? JSONObject(parsing: response.body))?.optionalObject("error")
        return .server(url: url, status: response.status, code: error?.errorCode,
                       message: error?.optionalString("message") ?? "")
    }

    /// `Retry-After` in seconds, when given as a number.
    static func retryAfter(_ head: HTTPResponseHead) -> Double? {
        head.header("Retry-After").flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }

    // MARK: the API

    /// The server's caps.
    package func limits(client: HTTPClient) throws -> ServerLimits {
        let path = "/api/limits"
        return try decode(url(path)) { try ServerLimits(json: try json("GET", path, client: client, what: "limits")) }
    }

    /// The sheets the subject may read.
    package func sheets(client: HTTPClient) throws -> [RemoteSheet] {
        let path = "/api/sheets"
        return try decode(url(path)) {
            try json("GET", path, client: client, what: "sheets").objects("sheets").map { object throws(JSONShapeError) in try RemoteSheet(json: object) }
        }
    }

    /// One import job of the subject; `ClientError.notFound` for one that does not exist or
    /// is another subject's.
    package func job(_ id: String, client: HTTPClient) throws -> ImportJob {
        let path = "/api/imports/" + Self.pathSegment(id)
        return try decode(url(path)) {
            try ImportJob(json: try json("GET", path, client: client, what: "import job \(id)"))
        }
    }

    /// The subject's import jobs.
    package func jobs(client: HTTPClient) throws -> [ImportJob] {
        let path = "/api/imports"
        return try decode(url(path)) {
            let answer = try json("GET", path, client: client, what: "import jobs")
            let items = (answer.values["jobs"] as? [Any]) ?? []
            return try items.compactMap { $0 as? [String: Any] }.map { item throws(JSONShapeError) in try ImportJob(json: JSONObject(["job": item])) }
        }
    }

    /// Cancels an import job (a cancelled job leaves no sheet behind).
    package func cancelJob(_ id: String, client: HTTPClient) throws {
        _ = try json("DELETE", "/api/imports/" + Self.pathSegment(id), client: client, what: "import job \(id)")
    }

    /// `text` percent-encoded for one path segment.
    static func pathSegment(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
