import CCurl
import Foundation

/// An HTTP request for `HTTPClient`: method, URL, headers and an optional body.
package struct HTTPRequest: Sendable {
    /// Where the body comes from.
    package enum Body: Sendable {
        /// No body.
        case none
        /// These bytes.
        case bytes([UInt8])
        /// The file at this path, streamed (never read whole).
        case file(String)
    }

    /// `GET`, `POST`, `DELETE`, ...
    package var method: String
    /// The absolute URL.
    package var url: String
    /// Header fields in order (names as given).
    package var headers: [(name: String, value: String)]
    /// The request body.
    package var body: Body

    /// A request; `headers` are sent as given.
    package init(method: String = "GET", url: String, headers: [(name: String, value: String)] = [], body: Body = .none) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// The status line and header fields of a response.
package struct HTTPResponseHead: Sendable {
    /// The status code (200, 404, ...).
    package var status: Int
    /// Header fields in the order received (names as sent).
    package var headers: [(name: String, value: String)]

    /// The value of the first header field named `name`, ignoring case.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// A response whose body was collected in memory (`HTTPClient.send(_:)`).
package struct HTTPResponse: Sendable {
    /// The status and headers.
    package var head: HTTPResponseHead
    /// The body bytes.
    package var body: [UInt8]

    /// The status code.
    package var status: Int { head.status }
    /// The value of the first header field named `name`, ignoring case.
    package func header(_ name: String) -> String? { head.header(name) }
    /// The body as UTF-8 text.
    package var text: String { String(decoding: body, as: UTF8.self) }
}

/// Why a request failed before a complete response arrived.
package enum HTTPClientError: Error, CustomStringConvertible {
    /// The request body file cannot be opened.
    case unreadableFile(path: String, reason: String)
    /// The connection could not be made (refused, unresolvable host, ...).
    case connectionFailed(url: String, message: String)
    /// The request's deadline (`HTTPClient.timeout`) passed, or libcurl's connect timeout or
    /// low-speed limit gave up on the server; `message` says which.
    case timedOut(url: String, message: String)
    /// The answer's head or body passed its cap (`HTTPClient.maxHeadBytes`, the `maxBodyBytes`
    /// of `send(_:)`); the rest was not read.
    case answerTooLarge(url: String, part: String, limit: Int64)
    /// The response sink, the progress callback or `cancellation` threw; the transfer was aborted.
    case aborted(url: String, underlying: any Error)
    /// Any other libcurl failure, with its code and message.
    case transfer(url: String, code: Int, message: String)

    /// A sentence naming the URL (or file) and the reason.
    package var description: String {
        switch self {
        case let .unreadableFile(path, reason): return "\(path): cannot read the request body: \(reason)"
        case let .connectionFailed(url, message): return "\(url): cannot connect: \(message)"
        case let .timedOut(url, message): return "\(url): \(message)"
        case let .answerTooLarge(url, part, limit): return "\(url): the answer's \(part) is larger than \(limit) bytes; the rest was not read"
        case let .aborted(url, underlying): return "\(url): aborted: \(underlying)"
        case let .transfer(url, code, message): return "\(url): \(message) (curl error \(code))"
        }
    }
}

/// A blocking HTTP client on libcurl: one easy handle driven through a multi handle, both
/// reused across requests (keeping the connection alive). Request bodies can be streamed from a
/// file with upload progress, and response bodies are streamed to a sink, so neither is held whole.
///
/// Nothing a server does can hold it: every request has a deadline (`timeout`) and a low-speed
/// limit, answers collected in memory are capped, and `cancellation` is asked at least every
/// `pollInterval` seconds whatever the server does (connecting, sending, waiting for the answer).
///
/// Not thread-safe: use one client per thread.
package final class HTTPClient {
    /// The default cap on an answer collected in memory (`send(_:)`): 16 MiB.
    package static let maxAnswerBytes: Int64 = 16 << 20

    /// Seconds allowed to connect.
    package var connectTimeout: Double
    /// Seconds allowed for a whole request, connect, send and answer (0: no limit). For a request
    /// with a body they count from the moment the body has been sent, so that a large upload is
    /// bounded by the low-speed limit while it flows, and its answer by this deadline.
    package var timeout: Double
    /// Seconds allowed for the answer to begin once the request is sent (0: no limit): long, for
    /// a server that builds a large export before sending it; `timeout` bounds API requests.
    package var answerTimeout = 300.0
    /// While bytes flow (the body being sent, the answer received), below `lowSpeedLimit` bytes a
    /// second over `lowSpeedTime` seconds the server is given up on as trickling (either 0: no limit).
    package var lowSpeedLimit = 1024, lowSpeedTime = 20.0
    /// The most bytes a second a response body is received at (0: no limit).
    package var maxReceiveSpeed: Int64 = 0
    /// The most bytes of header fields an answer may carry.
    package var maxHeadBytes = 256 << 10
    /// Asked while a request waits (at least every `pollInterval` seconds); throwing ends the
    /// request at once with `HTTPClientError.aborted` carrying the error (a signal arrived, say).
    package var cancellation: () throws -> Void = {}
    /// The longest wait between two calls of `cancellation` and deadline checks.
    package var pollInterval = 0.1
    private let handle: UnsafeMutableRawPointer
    private let multi: UnsafeMutableRawPointer

    private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// A client with these timeouts in seconds (`timeout` 0: no deadline for a whole request).
    package init(connectTimeout: Double = 10, timeout: Double = 60) {
        _ = Self.globalInit
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        handle = curl_easy_init()
        multi = curl_multi_init()
    }

    deinit {
        curl_multi_cleanup(multi)
        curl_easy_cleanup(handle)
    }

    /// Sends `request` and returns the response with its body collected in memory, at most
    /// `maxBodyBytes` of it (past that, `HTTPClientError.answerTooLarge` without reading the rest).
    package func send(_ request: HTTPRequest, maxBodyBytes: Int64 = HTTPClient.maxAnswerBytes,
                     uploadProgress: ((_ sent: Int64, _ total: Int64) throws -> Void)? = nil) throws(HTTPClientError) -> HTTPResponse {
        var body: [UInt8] = []
        let head = try send(request, uploadProgress: uploadProgress) { head, chunk throws(HTTPClientError) in
            let declared = head.header("Content-Length").flatMap { Int64($0) } ?? 0
            guard Int64(body.count + chunk.count) <= maxBodyBytes, declared <= maxBodyBytes else {
                throw .answerTooLarge(url: request.url, part: "body", limit: maxBodyBytes)
            }
            body.append(contentsOf: chunk)
        }
        return HTTPResponse(head: head, body: body)
    }

    /// Sends `request`, handing the response body to `sink` chunk by chunk as it arrives (with
    /// the status and headers, complete by then); returns the status and headers.
    /// `uploadProgress` is told the bytes sent so far and the total; throwing from it or from
    /// `sink` aborts the transfer (`HTTPClientError.aborted`, or the `HTTPClientError` thrown).
    @discardableResult
    package func send(_ request: HTTPRequest,
                     uploadProgress: ((_ sent: Int64, _ total: Int64) throws -> Void)? = nil,
                     sink: (HTTPResponseHead, UnsafeRawBufferPointer) throws -> Void) throws(HTTPClientError) -> HTTPResponseHead {
        try withoutActuallyEscaping(sink) { sink throws(HTTPClientError) in
            try withoutActuallyEscaping(uploadProgress ?? { _, _ in }) { progress throws(HTTPClientError) in
                let transfer = Transfer(handle: handle, url: request.url, sink: sink, progress: uploadProgress == nil ? nil : progress,
                                        maxHeadBytes: maxHeadBytes)
                return try perform(request, transfer)
            }
        }
    }

    private func perform(_ request: HTTPRequest, _ transfer: Transfer) throws(HTTPClientError) -> HTTPResponseHead {
        curl_easy_reset(handle)
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        set(CURLOPT_URL, request.url)
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_CONNECTTIMEOUT_MS, Int(connectTimeout * 1000))
        sp_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, transfer.errorBuffer)
        defer { sp_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, nil) } // the buffer goes with `transfer`
        if maxReceiveSpeed > 0 { sp_curl_setopt_offset(handle, CURLOPT_MAX_RECV_SPEED_LARGE, curl_off_t(maxReceiveSpeed)) }
        sp_curl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, curlWrite)
        sp_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        sp_curl_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, curlHeader)
        sp_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)

        switch request.body {
        case .none:
            if request.method == "HEAD" { set(CURLOPT_NOBODY, 1) }
        case .bytes(let bytes):
            transfer.source = .bytes(bytes, offset: 0)
            transfer.bodySize = Int64(bytes.count)
            set(CURLOPT_UPLOAD, 1)
            sp_curl_setopt_offset(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(bytes.count))
        case .file(let path):
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .unreadableFile(path: path, reason: String(cString: strerror(errno))) }
            var status = stat()
            fstat(descriptor, &status)
            transfer.source = .file(descriptor)
            transfer.bodySize = Int64(status.st_size)
            set(CURLOPT_UPLOAD, 1)
            sp_curl_setopt_offset(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(status.st_size))
        }
        if case .none = request.body {} else {
            sp_curl_setopt_data_callback(handle, CURLOPT_READFUNCTION, curlRead)
            sp_curl_setopt_pointer(handle, CURLOPT_READDATA, context)
        }
        defer { transfer.closeSource() }
        if request.method != "GET" && request.method != "HEAD" {
            set(CURLOPT_CUSTOMREQUEST, request.method)
        }
        if transfer.progress != nil {
            set(CURLOPT_NOPROGRESS, 0)
            sp_curl_setopt_xferinfo_callback(handle, curlProgress)
            sp_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context)
        }
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in request.headers { list = curl_slist_append(list, "\(name): \(value)") }
        // No "Expect: 100-continue" round trip: the server answers a refused upload at once anyway.
        list = curl_slist_append(list, "Expect:")
        defer { curl_slist_free_all(list) }
        sp_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, list)

        let code = try run(request, transfer)
        if let failure = transfer.failure {
            if let failure = failure as? HTTPClientError { throw failure }
            throw .aborted(url: request.url, underlying: failure)
        }
        guard code == CURLE_OK else {
            let detail = String(cString: transfer.errorBuffer)
            let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            switch code {
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
                throw .connectionFailed(url: request.url, message: message)
            case CURLE_OPERATION_TIMEDOUT: throw .timedOut(url: request.url, message: message)
            default: throw .transfer(url: request.url, code: Int(code.rawValue), message: message)
            }
        }
        transfer.completeHead()
        return transfer.head
    }

    /// Drives the transfer on the multi handle, waking at least every `pollInterval` to ask
    /// `cancellation` and check the `RequestDeadline` (libcurl's own waits cannot be
    /// interrupted); returns libcurl's result.
    private func run(_ request: HTTPRequest, _ transfer: Transfer) throws(HTTPClientError) -> CURLcode {
        curl_multi_add_handle(multi, handle)
        defer { curl_multi_remove_handle(multi, handle) }
        var deadline = RequestDeadline(timeout: timeout, answerTimeout: answerTimeout, lowSpeedLimit: lowSpeedLimit,
                                       lowSpeedTime: lowSpeedTime, start: monotonicSeconds())
        var running: Int32 = 1
        while true {
            let status = curl_multi_perform(multi, &running)
            guard status == CURLM_OK else {
                throw .transfer(url: request.url, code: Int(status.rawValue), message: String(cString: curl_multi_strerror(status)))
            }
            if running == 0 { break }
            do {
                try cancellation()
            } catch {
                throw .aborted(url: request.url, underlying: error)
            }
            if let reason = deadline.check(now: monotonicSeconds(), hasBody: transfer.source != nil, bodySentAt: transfer.bodySentAt,
                                           sending: transfer.source != nil && transfer.bodySentAt == nil && transfer.sentBytes > 0,
                                           answerStarted: transfer.answerStarted, moved: transfer.sentBytes + transfer.receivedBytes) {
                throw .timedOut(url: request.url, message: reason)
            }
            curl_multi_poll(multi, nil, 0, Int32(pollInterval * 1000), nil)
        }
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            if message.pointee.msg == CURLMSG_DONE { return message.pointee.data.result }
        }
        return CURLE_OK
    }

    private func set(_ option: CURLoption, _ value: Int) { sp_curl_setopt_long(handle, option, value) }
    private func set(_ option: CURLoption, _ value: String) { sp_curl_setopt_string(handle, option, value) }
}

/// The state of one transfer, reached from libcurl's callbacks.
private final class Transfer {
    enum Source { case bytes([UInt8], offset: Int), file(Int32) }

    let handle: UnsafeMutableRawPointer
    let url: String
    let sink: (HTTPResponseHead, UnsafeRawBufferPointer) throws -> Void
    let progress: ((Int64, Int64) throws -> Void)?
    var source: Source?
    var head = HTTPResponseHead(status: 0, headers: [])
    var failure: (any Error)?
    /// The request body's size in bytes.
    var bodySize: Int64 = 0
    /// When the whole request body was read for sending (the deadline counts from then): libcurl
    /// stops reading at the size it was given, so this is by count, or at an early end.
    var bodySentAt: Double?
    /// Bytes of the body sent and of the answer (head and body) received so far.
    var sentBytes: Int64 = 0, receivedBytes: Int64 = 0
    /// Whether the answer's first bytes arrived.
    var answerStarted: Bool { receivedBytes > 0 }
    /// Bytes of header fields received, against `maxHeadBytes`.
    private var headBytes = 0
    private let maxHeadBytes: Int
    /// libcurl's message for a failure (`CURLOPT_ERRORBUFFER`).
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init(handle: UnsafeMutableRawPointer, url: String, sink: @escaping (HTTPResponseHead, UnsafeRawBufferPointer) throws -> Void,
         progress: ((Int64, Int64) throws -> Void)?, maxHeadBytes: Int) {
        self.handle = handle
        self.url = url
        self.sink = sink
        self.progress = progress
        self.maxHeadBytes = maxHeadBytes
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit { errorBuffer.deallocate() }

    func completeHead() {
        var status = 0
        sp_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        head.status = status
    }

    /// Takes one header line; false once the head passes its cap (the transfer is then aborted).
    func header(_ bytes: UnsafeRawBufferPointer) -> Bool {
        headBytes += bytes.count
        receivedBytes += Int64(bytes.count)
        guard headBytes <= maxHeadBytes else {
            failure = HTTPClientError.answerTooLarge(url: url, part: "head", limit: Int64(maxHeadBytes))
            return false
        }
        let line = String(decoding: bytes, as: UTF8.self)
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("HTTP/") {
            head.headers = [] // a new response (after 100 Continue or a redirect)
            headBytes = bytes.count
        } else if let colon = trimmed.firstIndex(of: ":") {
            head.headers.append((String(trimmed[..<colon]), trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return true
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        let length = readSource(into: buffer, count: count)
        if length > 0 && length <= count { sentBytes += Int64(length) }
        if (length == 0 || sentBytes >= bodySize) && bodySentAt == nil { bodySentAt = monotonicSeconds() }
        return length
    }

    private func readSource(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        switch source {
        case .bytes(let bytes, let offset)?:
            let length = min(count, bytes.count - offset)
            bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + offset, byteCount: length) }
            source = .bytes(bytes, offset: offset + length)
            return length
        case .file(let descriptor)?:
            let length = Glibc.read(descriptor, buffer, count)
            return length >= 0 ? length : Int(CURL_READFUNC_ABORT)
        case nil:
            return 0
        }
    }

    func closeSource() {
        if case .file(let descriptor)? = source { close(descriptor) }
        source = nil
    }
}

private func transfer(_ pointer: UnsafeMutableRawPointer?) -> Transfer {
    Unmanaged<Transfer>.fromOpaque(pointer!).takeUnretainedValue()
}

private func curlWrite(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    let state = transfer(context)
    state.completeHead()
    do {
        state.receivedBytes += Int64(size * count)
        try state.sink(state.head, UnsafeRawBufferPointer(start: data, count: size * count))
        return size * count
    } catch {
        state.failure = error
        return 0
    }
}

private func curlHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    transfer(context).header(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
}

private func curlRead(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    transfer(context).read(into: UnsafeMutableRawPointer(data!), count: size * count)
}

private func curlProgress(_ context: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloaded: curl_off_t,
                          _ uploadTotal: curl_off_t, _ uploaded: curl_off_t) -> Int32 {
    let state = transfer(context)
    guard state.failure == nil else { return 1 }
    do {
        try state.progress?(Int64(uploaded), Int64(uploadTotal))
        return 0
    } catch {
        state.failure = error
        return 1
    }
}

/// Seconds on the monotonic clock (deadlines must not move with the wall clock).
func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
