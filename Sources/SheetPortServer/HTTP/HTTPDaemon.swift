import CMicroHTTPD
import Foundation
import SheetPortCore

/// The HTTP server on libmicrohttpd: a `ConnectionGate` that accepts connections, keeps the
/// connection limits and checks each request head, then libmicrohttpd's own polling threads (a
/// bounded pool) for the rest, with a `RequestHandler` reached from MHD's C callbacks through
/// an unmanaged context. Upload bodies reach the handler chunk by chunk as MHD reads them;
/// response bodies are either bytes or streamed (`ReplyStream`) through
/// `MHD_create_response_from_callback`; a pending reply parks its connection (suspended).
package final class HTTPDaemon {
    private var daemon: OpaquePointer?
    private let context: Unmanaged<DaemonContext>
    /// libmicrohttpd's logger: its lines go to the server's log through `context`.
    private let logger: UnsafeMutablePointer<sp_mhd_logger>
    private var gate: ConnectionGate!
    /// The port it is bound to (the chosen one when asked for port 0).
    package let port: UInt16

    /// Starts listening on `address` within `limits`; libmicrohttpd's own messages go to `log`.
    package init(address: ListenAddress, limits: ConnectionLimits, log: ServerLog, handler: any RequestHandler) throws {
        let context = Unmanaged.passRetained(DaemonContext(handler: handler, transferTimeout: UInt32(clamping: max(1, limits.transferTimeout)), log: log))
        self.context = context
        logger = .allocate(capacity: 1)
        logger.initialize(to: sp_mhd_logger(sink: { context, line in
            Unmanaged<DaemonContext>.fromOpaque(context!).takeUnretainedValue().log
                .write("libmicrohttpd: " + (line.map { String(cString: $0) } ?? "").trimmingCharacters(in: .whitespacesAndNewlines))
        }, context: context.toOpaque()))
        // The gate keeps the connection limits (per client too): libmicrohttpd hands a connection
        // to a polling thread by its descriptor, not by load, so each thread takes up to all.
        let threads = max(1, limits.threads)
        let daemon = sp_mhd_start(sp_mhd_daemon_flags, UInt32(clamping: threads), UInt32(clamping: max(1, limits.connections) * threads),
                                  UInt32(clamping: max(1, limits.idleTimeout)), 256 * 1024,
                                  accessCallback, context.toOpaque(), completedCallback, connectionCallback, logger)
        guard let daemon else {
            logger.deallocate()
            context.release()
            throw ServerError.startFailed("libmicrohttpd did not start")
        }
        self.daemon = daemon
        let target = DaemonPointer(daemon)
        do {
            gate = try ConnectionGate(address: address, limits: limits) { socket, client in
                var client = client
                return withUnsafePointer(to: &client) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        MHD_add_connection(target.daemon, socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == sp_mhd_yes
                    }
                }
            }
        } catch {
            MHD_stop_daemon(daemon)
            self.daemon = nil
            logger.deallocate()
            context.release()
            throw error
        }
        port = gate.port
        context.takeUnretainedValue().gate = gate
        gate.start()
    }

    /// Stops listening, closes connections and waits for the polling threads.
    package func stop() {
        guard let daemon else { return }
        gate.stop()
        MHD_stop_daemon(daemon)
        self.daemon = nil
        logger.deallocate()
        context.release()
    }

    deinit { stop() }

}

/// The daemon, for the gate's thread (libmicrohttpd's MHD_add_connection is thread-safe).
private struct DaemonPointer: @unchecked Sendable {
    let daemon: OpaquePointer
    init(_ daemon: OpaquePointer) { self.daemon = daemon }
}

/// What the C callbacks reach.
private final class DaemonContext {
    let handler: any RequestHandler
    let transferTimeout: UInt32
    /// The server's log, for libmicrohttpd's messages.
    let log: ServerLog
    /// Told when libmicrohttpd closes a connection the gate handed it.
    var gate: ConnectionGate?
    init(handler: any RequestHandler, transferTimeout: UInt32, log: ServerLog) {
        self.handler = handler
        self.transferTimeout = transferTimeout
        self.log = log
    }
}

/// One request in flight, kept in MHD's per-request pointer.
private final class Exchange {
    var request: Request
    var finished = false
    /// The answer its parked connection waits for.
    var parked: (any PendingReply)?
    init(request: Request) { self.request = request }
}

/// Resumes a parked (suspended) connection, once: libmicrohttpd's behaviour for a second
/// resume, or one after the connection ended, is undefined.
private final class Parking: @unchecked Sendable {
    private let connection: OpaquePointer
    private let lock = NSLock()
    private var isResumed = false

    init(_ connection: OpaquePointer) { self.connection = connection }

    func resume() {
        lock.lock()
        let first = !isResumed
        isResumed = true
        lock.unlock()
        if first { MHD_resume_connection(connection) }
    }
}

/// A streamed body, kept alive by MHD until its free callback.
private final class StreamBox {
    let stream: any ReplyStream
    let connection: OpaquePointer?
    init(_ stream: any ReplyStream, _ connection: OpaquePointer?) {
        self.stream = stream
        self.connection = connection
    }
}

/// A body that cannot be completed (a failed build, an export whose access was revoked): the
/// connection is reset when libmicrohttpd closes it (SO_LINGER 0), so what the socket still
/// holds is dropped rather than sent (megabytes, seconds of a slow client) and the client sees
/// a cut body at once.
private func resetOnClose(_ connection: OpaquePointer?) {
    guard let connection else { return }
    let socket = sp_mhd_connection_socket(connection)
    guard socket >= 0 else { return }
    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
    setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
}

/// A live body and its connection, kept alive by MHD until its free callback. Its connection
/// is parked whenever the stream has nothing to send and resumed by the stream's wake; the
/// lock makes "park unless woken meanwhile" and "resume if parked" exclusive, so a wake is
/// never lost. Only a parked connection is resumed, and a parked one cannot end (MHD does not
/// touch it; the server wakes every stream before it stops), so no resume reaches a connection
/// after it ended, and the free callback needs no lock (none held while MHD may hold its own).
private final class LiveBox: @unchecked Sendable {
    let stream: any LiveReplyStream
    let connection: OpaquePointer
    private let lock = NSLock()
    private var isParked = false
    private var wasWoken = false

    init(_ stream: any LiveReplyStream, _ connection: OpaquePointer) {
        self.stream = stream
        self.connection = connection
    }

    /// From the content reader callback (the one place MHD allows a suspend in a response).
    func park() {
        lock.withLock {
            if wasWoken {
                wasWoken = false // read again at once
            } else {
                isParked = true
                MHD_suspend_connection(connection)
            }
        }
    }

    func wake() {
        lock.withLock {
            if isParked {
                isParked = false
                MHD_resume_connection(connection)
            } else {
                wasWoken = true
            }
        }
    }

    func finish() { stream.finish() }
}

/// The header fields (names lower-cased) or query arguments (names as sent) of a request.
private func values(_ connection: OpaquePointer?, _ kind: MHD_ValueKind) -> [String: String] {
    final class Collected { var values: [String: String] = [:] }
    let collected = Collected()
    let pointer = Unmanaged.passUnretained(collected).toOpaque()
    MHD_get_connection_values(connection, kind, { context, valueKind, key, value in
        guard let key else { return sp_mhd_yes }
        let collected = Unmanaged<Collected>.fromOpaque(context!).takeUnretainedValue()
        let name = String(cString: key)
        let text = value.map { String(cString: $0) } ?? ""
        if valueKind == sp_mhd_header_kind {
            collected.values[name.lowercased()] = text
        } else {
            // Arguments arrive still percent-encoded (sp_mhd_keep_escaped): decoded here, NULs kept.
            collected.values[Request.percentDecoded(name)] = Request.percentDecoded(text)
        }
        return sp_mhd_yes
    }, pointer)
    return collected.values
}

/// Every query argument in the order sent, repeated names included, percent-decoded as `values` decodes them.
private func arguments(_ connection: OpaquePointer?) -> [(name: String, value: String)] {
    final class Collected { var items: [(name: String, value: String)] = [] }
    let collected = Collected()
    let pointer = Unmanaged.passUnretained(collected).toOpaque()
    MHD_get_connection_values(connection, sp_mhd_argument_kind, { context, _, key, value in
        guard let key else { return sp_mhd_yes }
        let collected = Unmanaged<Collected>.fromOpaque(context!).takeUnretainedValue()
        collected.items.append((Request.percentDecoded(String(cString: key)), Request.percentDecoded(value.map { String(cString: $0) } ?? "")))
        return sp_mhd_yes
    }, pointer)
    return collected.items
}

/// Queues `reply`, or parks the connection for a pending one: suspended, it holds no thread
/// and MHD calls the access callback again once the pending reply wakes it.
private func respond(_ reply: Reply, _ exchange: Exchange, on connection: OpaquePointer?, _ daemon: DaemonContext) -> MHD_Result {
    guard case .pending(let pending) = reply.body else { return queue(reply, on: connection, transferTimeout: daemon.transferTimeout) }
    guard let connection else { return sp_mhd_no }
    exchange.parked = pending
    MHD_suspend_connection(connection)
    pending.start(wake: Parking(connection).resume)
    return sp_mhd_yes
}

private func queue(_ reply: Reply, on connection: OpaquePointer?, transferTimeout: UInt32) -> MHD_Result {
    // A streamed answer may stall longer than an idle connection may stay silent.
    switch reply.body {
    case .stream, .live: if let connection { sp_mhd_set_timeout(connection, transferTimeout) }
    default: break
    }
    return queue(reply, on: connection)
}

private func queue(_ reply: Reply, on connection: OpaquePointer?) -> MHD_Result {
    let response: OpaquePointer?
    switch reply.body {
    case .pending:
        // Only a complete request can be parked (see `Reply.Body.pending`).
        return queue(.error(500, .internal, "the server failed to answer this request"), on: connection)
    case .live(let stream):
        guard let connection else { stream.finish(); return sp_mhd_no }
        let live = LiveBox(stream, connection)
        stream.start(wake: live.wake)
        let box = Unmanaged.passRetained(live).toOpaque()
        response = MHD_create_response_from_callback(UInt64.max, 16 * 1024, { context, _, buffer, count in
            let live = Unmanaged<LiveBox>.fromOpaque(context!).takeUnretainedValue()
            switch live.stream.read(into: UnsafeMutableRawPointer(buffer!), count: count) {
            case .bytes(let count) where count > 0: return count
            case .bytes, .waiting:
                live.park()
                return 0 // nothing yet: MHD calls again once resumed
            case .end: return -1 // MHD_CONTENT_READER_END_OF_STREAM
            case .failed:
                resetOnClose(live.connection)
                return -2 // MHD_CONTENT_READER_END_WITH_ERROR
            }
        }, box, { context in
            let live = Unmanaged<LiveBox>.fromOpaque(context!).takeRetainedValue()
            live.finish()
        })
        if response == nil { Unmanaged<LiveBox>.fromOpaque(box).takeRetainedValue().finish() }
    case .bytes(let bytes):
        response = bytes.withUnsafeBytes {
            MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), sp_mhd_must_copy)
        }
    case .stream(let stream, let length):
        let box = Unmanaged.passRetained(StreamBox(stream, connection)).toOpaque()
        response = MHD_create_response_from_callback(length.map(UInt64.init) ?? UInt64.max, 64 * 1024, { context, _, buffer, count in
            let box = Unmanaged<StreamBox>.fromOpaque(context!).takeUnretainedValue()
            do {
                let read = try box.stream.read(into: UnsafeMutableRawPointer(buffer!), count: count)
                return read > 0 ? read : -1 // MHD_CONTENT_READER_END_OF_STREAM
            } catch {
                resetOnClose(box.connection)
                return -2 // MHD_CONTENT_READER_END_WITH_ERROR
            }
        }, box, { context in
            Unmanaged<StreamBox>.fromOpaque(context!).release()
        })
        // libmicrohttpd frees the box only through a response it made.
        if response == nil { Unmanaged<StreamBox>.fromOpaque(box).release() }
    }
    guard let response else { return sp_mhd_no }
    defer { MHD_destroy_response(response) }
    // Only the page's hashed assets say otherwise (`WebAssets`).
    if !reply.headers.contains(where: { $0.name.lowercased() == "cache-control" }) {
        MHD_add_response_header(response, "Cache-Control", "no-store")
    }
    // One request a connection: the gate checks each request head before libmicrohttpd reads
    // it, and it sees only a connection's first.
    MHD_add_response_header(response, "Connection", "close")
    for (name, value) in reply.headers { MHD_add_response_header(response, name, value) }
    return MHD_queue_response(connection, UInt32(reply.status), response)
}

/// Answers a request whose body is still arriving (an upload past its cap) and closes the
/// connection, so the rest of the body is never read. libmicrohttpd 0.9.75 queues no response
/// before the body's end, so the answer (small, it fits the socket's buffer) is written to the
/// socket here, followed by the end of the stream; returning `MHD_NO` makes MHD close it.
private func answerMidBody(_ reply: Reply, on connection: OpaquePointer?) -> MHD_Result {
    guard let connection else { return sp_mhd_no }
    let socket = sp_mhd_connection_socket(connection)
    guard socket >= 0 else { return sp_mhd_no }
    reply.sendClosing(on: socket)
    return sp_mhd_no
}

private func accessCallback(_ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                            _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?,
                            _ uploadData: UnsafePointer<CChar>?, _ uploadDataSize: UnsafeMutablePointer<Int>?,
                            _ state: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result {
    let daemon = Unmanaged<DaemonContext>.fromOpaque(context!).takeUnretainedValue()
    let handler = daemon.handler
    guard let state else { return sp_mhd_no }
    guard let existing = state.pointee else {
        var request = Request(method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
                              query: values(connection, sp_mhd_argument_kind), headers: values(connection, sp_mhd_header_kind))
        request.queryItems = arguments(connection)
        let exchange = Exchange(request: request)
        state.pointee = Unmanaged.passRetained(exchange).toOpaque()
        if let reply = handler.begin(&exchange.request) {
            exchange.finished = true
            return queue(reply, on: connection)
        }
        // An accepted upload may stall longer than an idle connection may stay silent.
        if exchange.request.upload != nil, let connection { sp_mhd_set_timeout(connection, daemon.transferTimeout) }
        return sp_mhd_yes
    }
    let exchange = Unmanaged<Exchange>.fromOpaque(existing).takeUnretainedValue()
    if let parked = exchange.parked {
        // Resumed: the answer can be given now.
        exchange.parked = nil
        return respond(parked.answer(), exchange, on: connection, daemon)
    }
    if let uploadDataSize, uploadDataSize.pointee > 0 {
        guard !exchange.finished else {
            // Answered early (413): the rest of the body is not read but the connection closed.
            return sp_mhd_no
        }
        let refusal = handler.receive(&exchange.request, UnsafeRawBufferPointer(start: uploadData, count: uploadDataSize.pointee))
        uploadDataSize.pointee = 0
        guard let refusal else { return sp_mhd_yes }
        exchange.finished = true
        return answerMidBody(refusal, on: connection)
    }
    guard !exchange.finished else { return sp_mhd_yes }
    exchange.finished = true
    return respond(handler.finish(&exchange.request), exchange, on: connection, daemon)
}

/// A connection's place in the gate's count, given back once: when its request ends (the
/// answer is sent; with one request a connection nothing follows) or, failing that, when it
/// closes. Counting until the close would count connections the client is done with.
private final class Admission {
    private let client: UInt32
    private var isReleased = false
    private let lock = NSLock()

    init(client: UInt32) { self.client = client }

    func release(to gate: ConnectionGate?) {
        let first: Bool = lock.withLock {
            defer { isReleased = true }
            return !isReleased
        }
        if first { gate?.released(client: client) }
    }
}

private func connectionCallback(_ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                                _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ code: MHD_ConnectionNotificationCode) {
    guard let connection, let socketContext else { return }
    if code == sp_mhd_connection_closed {
        guard let stored = socketContext.pointee else { return }
        socketContext.pointee = nil
        let admission = Unmanaged<Admission>.fromOpaque(stored).takeRetainedValue()
        admission.release(to: Unmanaged<DaemonContext>.fromOpaque(context!).takeUnretainedValue().gate)
    } else {
        socketContext.pointee = Unmanaged.passRetained(Admission(client: sp_mhd_client_ipv4(connection))).toOpaque()
    }
}

private func completedCallback(_ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
                               _ state: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ code: MHD_RequestTerminationCode) {
    let daemon = Unmanaged<DaemonContext>.fromOpaque(context!).takeUnretainedValue()
    if let connection, let stored = sp_mhd_socket_context(connection) {
        Unmanaged<Admission>.fromOpaque(stored).takeUnretainedValue().release(to: daemon.gate)
    }
    guard let state, let existing = state.pointee else { return }
    let exchange = Unmanaged<Exchange>.fromOpaque(existing).takeRetainedValue()
    state.pointee = nil
    if exchange.request.upload != nil {
        // finish() hands a complete upload to the job queue and clears it; anything left is abandoned.
        daemon.handler.abandon(&exchange.request)
    }
}
