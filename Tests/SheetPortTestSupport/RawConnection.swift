#if canImport(Glibc)
import Glibc
#endif
import Foundation

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
