#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import SheetPortClient

/// A plain TCP connection to a loopback server, for sending bytes no HTTP client would: every
/// call is bounded by a receive/send timeout, so a test cannot hang on it.
package final class RawConnection {
    package private(set) var descriptor: Int32

    /// Connects to `127.0.0.1:port`, from `source` (any 127.x.y.z: another client) when given.
    /// `sendBuffer` shrinks the socket's send buffer, so bytes sent are close to bytes the
    /// server took; `receiveBuffer` shrinks the receive buffer (and so the window the server
    /// may fill), so an answer not read stays mostly on the server's side.
    package init(port: UInt16, source: String? = nil, timeout: Double = 5, sendBuffer: Int32? = nil, receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawConnectionError.failed("socket", errno) }
        if var sendBuffer { setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size)) }
        if var receiveBuffer { setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, socklen_t(MemoryLayout<Int32>.size)) }
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            var local = Self.address(source, port: 0)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { close(); throw RawConnectionError.failed("bind \(source)", errno) }
        }
        var remote = Self.address("127.0.0.1", port: port)
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(); throw RawConnectionError.failed("connect", errno) }
    }

    /// The port of a server base such as `http://127.0.0.1:8080`.
    package static func port(of base: String) -> UInt16 { UInt16(base.split(separator: ":").last ?? "") ?? 0 }

    private static func address(_ host: String, port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        return address
    }

    /// Sends all of `bytes`; the count sent before the peer stopped taking them.
    @discardableResult
    package func send(_ bytes: [UInt8]) -> Int {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { break }
            sent += count
        }
        return sent
    }

    /// Sends text.
    @discardableResult
    package func send(_ text: String) -> Int { send(Array(text.utf8)) }

    /// Whether the server has something to read or closed the connection, without waiting.
    package var hasAnswered: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Everything the server sends until it closes the connection, `limit` bytes are in or the
    /// receive timeout passes.
    package func receiveAll(limit: Int = 1 << 20) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while received.count < limit {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return received
    }

    /// Stops sending (the server sees the end of the request body).
    package func shutdownWrite() { shutdown(descriptor, Int32(SHUT_WR)) }

    package func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    deinit { close() }
}

package enum RawConnectionError: Error {
    case failed(String, Int32)
}

/// A raw HTTP answer split into its response heads and body.
package struct RawAnswer {
    package let bytes: [UInt8]

    package init(bytes: [UInt8]) { self.bytes = bytes }
    package var text: String { String(decoding: bytes, as: UTF8.self) }
    /// How many response heads (`HTTP/1.x NNN `) the bytes hold.
    package var headCount: Int {
        let pattern = try! NSRegularExpression(pattern: "HTTP/1\\.[01] [0-9]{3} ")
        return pattern.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
    }
    /// The first status code.
    package var status: Int { Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0 }
    /// The body after the first head.
    package var body: String { text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n") }
    /// A header field of the first head (any case).
    package func header(_ name: String) -> String? {
        let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
        for line in head.split(separator: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() { return parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }
    /// The error code of a JSON error body.
    package var errorCode: String? {
        let object = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
        return (object?["error"] as? [String: Any])?["code"] as? String
    }
}

/// Results shared between test threads.
package final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    package private(set) var items: [String] = []

    package func add(_ item: String) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }
}

/// Starts `count` threads running `body(index)`; the group they leave.
package func spawn(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> DispatchGroup {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread { body(index); group.leave() }
        thread.stackSize = 1 << 20
        thread.start()
    }
    return group
}

/// Starts `count` threads, each exporting `sheet` with `minVersion` on a client of its own;
/// each outcome is "STATUS CODE VERSION SECONDS" (`-` for no error code or version), or
/// "error ..." when no answer came.
package func startExports(_ count: Int, of sheet: String, minVersion: Int, as api: API) -> (DispatchGroup, Outcomes) {
    let outcomes = Outcomes()
    let started = Date()
    let group = spawn(count) { _ in
        do {
            let response = try api.call("GET", "/api/sheets/\(sheet)/export.xlsx?minVersion=\(minVersion)", client: HTTPClient(timeout: 30))
            let code = (response.object["error"] as? [String: Any])?["code"] as? String ?? "-"
            let seconds = String(format: "%.2f", Date().timeIntervalSince(started))
            outcomes.add("\(response.status) \(code) \(response.header("X-Sheet-Version") ?? "-") \(seconds)")
        } catch { outcomes.add("error \(error)") }
    }
    return (group, outcomes)
}

/// Sends a chunked body of up to 200 MB in 64 KiB chunks until the server answers; the
/// bytes sent before the answer and the answer.
package func sendChunked(_ head: String, port: UInt16) throws -> (sent: Int, answer: RawAnswer) {
    let connection = try RawConnection(port: port, timeout: 10, sendBuffer: 64 * 1024)
    connection.send(head + "Transfer-Encoding: chunked\r\n\r\n")
    let chunk = [UInt8]("PK".utf8) + [UInt8](repeating: 0, count: 64 * 1024 - 2)
    let piece = Array(String(chunk.count, radix: 16).utf8) + [13, 10] + chunk + [13, 10]
    var sent = 0
    while sent < 200 << 20, !connection.hasAnswered {
        guard connection.send(piece) == piece.count else { break }
        sent += chunk.count
    }
    return (sent, RawAnswer(bytes: connection.receiveAll()))
}

/// Seconds until `GET /api/limits` from `source` is answered 200, trying again every 50 ms
/// (nil: not within `timeout`).
package func secondsToServe(port: UInt16, from source: String, timeout: Double) -> Double? {
    let started = Date()
    while Date().timeIntervalSince(started) < timeout {
        if let connection = try? RawConnection(port: port, source: source, timeout: 1) {
            connection.send("GET /api/limits HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            if RawAnswer(bytes: connection.receiveAll()).status == 200 { return Date().timeIntervalSince(started) }
        }
        usleep(50_000)
    }
    return nil
}

/// Imports through `api` a sheet (its workbook made in `folder`) whose export is about 13 MB
/// (far more than the kernel buffers on the server's side, tcp_wmem's 4 MB at most, and its
/// queue of buffers hold) and starts its export on a connection that reads nothing (a 4 KiB
/// receive window); returns it once answered.
package func stalledExport(_ api: API, in folder: URL) throws -> (connection: RawConnection, path: String) {
    let sheet = try api.importSheet(try makeTextWorkbook(rows: 9_000, in: folder))
    let path = "/api/sheets/\(sheet)/export.xlsx"
    let stalled = try RawConnection(port: RawConnection.port(of: api.base), timeout: 60, receiveBuffer: 4_096)
    _ = stalled.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(api.token!)\r\n\r\n")
    #expect(eventually(within: 60) { stalled.hasAnswered }, "the export never answered")
    return (stalled, path)
}
