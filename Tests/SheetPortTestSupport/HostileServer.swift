import Foundation
import Testing
import SheetPortCore
import SheetPortReader
import SheetPortConvert
import SheetPortClient
import SheetPortServer

/// A misbehaving HTTP/1.1 server on 127.0.0.1 with real sockets, for the client's hostile-server
/// tests: each request (method and path) gets a scripted `Behaviour` — an answer (with hostile
/// text, say), never an answer, an endless or trickling body. Every wait in it is bounded and
/// `stop()` (or deinit) closes every connection.
package final class HostileServer: @unchecked Sendable {
    /// What the server does with one request.
    package enum Behaviour: Sendable {
        /// Answers with this status, extra headers and body (`Content-Length` added).
        case answer(status: Int, headers: [String] = [], body: [UInt8])
        /// Reads the request and its body, then never answers.
        case stall
        /// Reads only the request's head, never its body, and never answers.
        case stallBeforeBody
        /// Sends `head` (status line and headers, without the blank line) and `prefix` of the
        /// body, then sends nothing more.
        case stallMidBody(head: String, prefix: [UInt8])
        /// Sends `head`, then zero bytes as fast as the client takes them, without end.
        case endless(head: String)
        /// Sends `head`, then one byte of body every `interval` seconds.
        case trickle(head: String, interval: Double)
        /// Sends a status line, then header fields without end.
        case endlessHead

        /// A JSON answer.
        package static func json(_ status: Int, _ text: String) -> Behaviour {
            .answer(status: status, headers: ["Content-Type: application/json"], body: Array(text.utf8))
        }
    }

    private let listener: Int32
    private let route: @Sendable (_ method: String, _ path: String) -> Behaviour
    private let lock = NSLock()
    private var connections: [Int32] = []
    private var stopped = false
    private var seen: [String] = []
    private var bodyBytesSent = 0
    /// The port listened on.
    package let port: Int
    /// `http://127.0.0.1:PORT`.
    package var url: String { "http://127.0.0.1:\(port)" }

    package init(_ route: @escaping @Sendable (_ method: String, _ path: String) -> Behaviour) throws {
        self.route = route
        (listener, port) = try listenOnLoopback("hostile server")
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit { stop() }

    /// The requests received so far, as `METHOD /path`.
    package var requests: [String] { lock.withLock { seen } }

    /// Bytes of answer bodies sent so far (what a client read of an endless answer, about).
    package var bodyBytes: Int { lock.withLock { bodyBytesSent } }

    /// Whether a request starting with `prefix` (`GET /api/limits`) arrived.
    package func received(_ prefix: String) -> Bool { requests.contains { $0.hasPrefix(prefix) } }

    /// Stops answering and closes every connection.
    package func stop() {
        // Once only: the listener's number is reused after the accept loop closes it.
        let open: [Int32]? = lock.withLock {
            guard !stopped else { return nil }
            stopped = true
            return connections
        }
        guard let open else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        for connection in open { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func acceptLoop() {
        defer { close(listener) }
        while !isStopped {
            let connection = accept(listener, nil, nil)
            if connection < 0 { return }
            lock.withLock { connections.append(connection) }
            Thread.detachNewThread { [self] in
                serve(connection)
                lock.withLock {
                    connections.removeAll { $0 == connection }
                    close(connection) // under the lock, so that stop() never shuts down a reused number
                }
            }
        }
    }

    /// Serves requests on one connection until the client closes it or a behaviour ends it.
    private func serve(_ connection: Int32) {
        var buffer: [UInt8] = []
        while !isStopped {
            guard let headEnd = readHead(connection, into: &buffer) else { return }
            let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
            buffer.removeFirst(headEnd + 4)
            let requestLine = head.split(separator: "\r\n").first.map(String.init) ?? ""
            let parts = requestLine.split(separator: " ")
            guard parts.count >= 2 else { return }
            let method = String(parts[0]), path = String(parts[1])
            lock.withLock { seen.append("\(method) \(path)") }
            let behaviour = route(method, path)
            if case .stallBeforeBody = behaviour { wait(); return }
            let length = head.split(separator: "\r\n").compactMap { line -> Int? in
                let field = line.split(separator: ":", maxSplits: 1)
                guard field.count == 2, field[0].lowercased() == "content-length" else { return nil }
                return Int(field[1].trimmingCharacters(in: .whitespaces))
            }.first ?? 0
            guard skip(connection, bytes: length, buffered: &buffer) else { return }
            switch behaviour {
            case let .answer(status, headers, body):
                let text = (["HTTP/1.1 \(status) Hostile", "Content-Length: \(body.count)", "Cache-Control: no-store"] + headers)
                    .joined(separator: "\r\n") + "\r\n\r\n"
                guard send(connection, Array(text.utf8)), send(connection, body, counted: true) else { return }
            case .stall, .stallBeforeBody:
                wait(); return
            case let .stallMidBody(head, prefix):
                _ = send(connection, Array((head + "\r\n\r\n").utf8))
                _ = send(connection, prefix, counted: true)
                wait(); return
            case .endless(let head):
                guard send(connection, Array((head + "\r\n\r\n").utf8)) else { return }
                let zeros = [UInt8](repeating: 0, count: 1 << 16)
                while !isStopped, send(connection, zeros, counted: true) {}
                return
            case .endlessHead:
                guard send(connection, Array("HTTP/1.1 200 OK\r\n".utf8)) else { return }
                let field = Array(("X-Padding: " + String(repeating: "a", count: 1000) + "\r\n").utf8)
                while !isStopped, send(connection, field, counted: true) {}
                return
            case let .trickle(head, interval):
                guard send(connection, Array((head + "\r\n\r\n").utf8)) else { return }
                let deadline = Date().addingTimeInterval(120)
                while !isStopped, Date() < deadline, send(connection, [UInt8(ascii: "x")], counted: true) {
                    usleep(UInt32(interval * 1_000_000))
                }
                return
            }
        }
    }

    /// Holds the connection open, sending nothing, until stopped (at most two minutes).
    private func wait() {
        let deadline = Date().addingTimeInterval(120)
        while !isStopped, Date() < deadline { usleep(20_000) }
    }

    /// Reads until `buffer` holds a request head; the index of its blank line, nil at the end.
    private func readHead(_ connection: Int32, into buffer: inout [UInt8]) -> Int? {
        let blank: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if buffer.count >= 4, let index = (0...(buffer.count - 4)).first(where: { Array(buffer[$0..<$0 + 4]) == blank }) {
                return index
            }
            guard buffer.count < 1 << 16, let chunk = receive(connection) else { return nil }
            buffer += chunk
        }
    }

    /// Reads and drops `bytes` bytes of body, those in `buffered` first.
    private func skip(_ connection: Int32, bytes: Int, buffered: inout [UInt8]) -> Bool {
        var left = bytes - min(bytes, buffered.count)
        buffered.removeFirst(min(bytes, buffered.count))
        while left > 0 {
            guard let chunk = receive(connection) else { return false }
            left -= chunk.count
        }
        return true
    }

    private func receive(_ connection: Int32) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let count = read(connection, &chunk, chunk.count)
        return count > 0 ? Array(chunk[..<count]) : nil
    }

    /// Sends all of `bytes` (MSG_NOSIGNAL: a client that has gone raises no SIGPIPE here);
    /// false once the client is gone.
    private func send(_ connection: Int32, _ bytes: [UInt8], counted: Bool = false) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return false }
            offset += written
            if counted { lock.withLock { bodyBytesSent += written } }
        }
        return true
    }
}

/// JSON answers a hostile server gives to make the client get as far as the stage under test.
package enum HostileAnswers {
    /// `GET /api/limits` with generous caps.
    package static let limits = HostileServer.Behaviour.json(200, #"{"maxUploadBytes":1073741824,"maxCells":10000000}"#)
    /// `POST /api/imports`: job `j1` queued.
    package static let queued = HostileServer.Behaviour.json(202, #"{"job":{"id":"j1","status":"queued"}}"#)
}
