#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import SheetPortClient
import SheetPortServer

/// One `text/event-stream` answer read off a raw loopback connection (HTTP/1.0, so the body is
/// not chunked and its end is the connection's), with the moment each event arrived.
package final class EventReader {
    package enum Next: Equatable {
        case event(ServerSentEvent)
        case ended
        case timedOut
    }

    package let connection: RawConnection
    package private(set) var status = 0
    package private(set) var head = ""
    package private(set) var pings = 0
    private var pending: [UInt8] = []
    private var parser = EventStreamParser()
    private var events: [ServerSentEvent] = []
    private var isEnded = false

    /// Opens `path` with `token` (nil: none, a browser's cookie in `headers` instead), the
    /// header fields `headers` and, if given, the raw `Last-Event-ID` bytes; waits (5 s at
    /// most) for the answer's head.
    package init(port: UInt16, path: String, token: String?, headers: [(name: String, value: String)] = [], lastEventID: [UInt8]? = nil) throws {
        connection = try RawConnection(port: port, timeout: 5)
        var request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n".utf8)
        if let token { request += Array("Authorization: Bearer \(token)\r\n".utf8) }
        for (name, value) in headers { request += Array("\(name): \(value)\r\n".utf8) }
        if let lastEventID { request += Array("Last-Event-ID: ".utf8) + lastEventID + Array("\r\n".utf8) }
        request += Array("\r\n".utf8)
        connection.send(request)
        let deadline = Date().addingTimeInterval(5)
        while status == 0 && !isEnded && Date() < deadline { receive(wait: 0.1) }
    }

    /// The next event within `seconds`, the stream's end, or nothing in time.
    package func next(within seconds: Double = 5) -> Next {
        let deadline = Date().addingTimeInterval(seconds)
        while events.isEmpty && !isEnded && Date() < deadline { receive(wait: min(0.05, max(0, deadline.timeIntervalSinceNow))) }
        if !events.isEmpty { return .event(events.removeFirst()) }
        return isEnded ? .ended : .timedOut
    }

    /// Waits up to `seconds` for the stream to end; whether it did, and any event it sent first.
    package func end(within seconds: Double) -> (ended: Bool, events: [ServerSentEvent]) {
        var seen: [ServerSentEvent] = []
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            switch next(within: deadline.timeIntervalSinceNow) {
            case .event(let event): seen.append(event)
            case .ended: return (true, seen)
            case .timedOut: return (false, seen)
            }
        }
        return (isEnded, seen)
    }

    package func close() { connection.close() }

    private func receive(wait seconds: Double) {
        var entry = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, Int32(seconds * 1000)) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let count = buffer.withUnsafeMutableBytes { recv(connection.descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            isEnded = true
            return
        }
        var bytes = Array(buffer[..<count])
        if status == 0 {
            pending += bytes
            guard let end = pending.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
            head = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
            status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? -1
            bytes = Array(pending[end.upperBound...])
            pending = []
        }
        pings += String(decoding: bytes, as: UTF8.self).components(separatedBy: ": ping").count - 1
        events += (try? parser.feed(bytes)) ?? []
    }
}

/// A server with a 1 s heartbeat, an imported sheet of ann's shared with bob as viewer.
package struct EventStreamFixture {
    package let fixture: ServerFixture
    package let sheet: String
    package let bobToken: String
    package var server: TestServer { fixture.server }
    package var ann: API { fixture.api }
    package var bob: API { server.api(bobToken) }
    package var port: UInt16 { RawConnection.port(of: server.base) }

    package init(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        fixture = try ServerFixture {
            $0.eventStreams.heartbeat = 1
            configure(&$0)
        }
        let book = try makeStyledWorkbook(in: fixture.folder)
        let job = try fixture.api.importWorkbook(book)
        sheet = try #require((job["result"] as? [String: Any]).flatMap { $0["sheet"] as? [String: Any] }?["id"] as? String)
        bobToken = try fixture.server.token("bob")
        #expect(try fixture.api.call("POST", "/api/sheets/\(sheet)/grants", json: ["subject": "bob", "role": "viewer"]).status == 201)
    }

    package func stream(_ token: String, lastEventID: String? = nil) throws -> EventReader {
        try EventReader(port: port, path: "/api/sheets/\(sheet)/events", token: token, lastEventID: lastEventID.map { Array($0.utf8) })
    }

    package func rename(_ name: String) throws {
        #expect(try ann.call("PATCH", "/api/sheets/\(sheet)", json: ["name": name]).status == 200)
    }

    package func close() { fixture.close() }
}
