#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import SheetPortClient
import SheetPortTestSupport

/// One `text/event-stream` answer read off a raw loopback connection (HTTP/1.0, so the body is
/// not chunked and its end is the connection's), with the moment each event arrived.
final class EventReader {
    enum Next: Equatable {
        case event(ServerSentEvent)
        case ended
        case timedOut
    }

    let connection: RawConnection
    private(set) var status = 0
    private(set) var head = ""
    private(set) var pings = 0
    private var pending: [UInt8] = []
    private var parser = EventStreamParser()
    private var events: [ServerSentEvent] = []
    private var isEnded = false

    /// Opens `path` with `token` and, if given, the raw `Last-Event-ID` bytes; waits (5 s at
    /// most) for the answer's head.
    init(port: UInt16, path: String, token: String, lastEventID: [UInt8]? = nil) throws {
        connection = try RawConnection(port: port, timeout: 5)
        var request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n".utf8)
        if let lastEventID { request += Array("Last-Event-ID: ".utf8) + lastEventID + Array("\r\n".utf8) }
        request += Array("\r\n".utf8)
        connection.send(request)
        let deadline = Date().addingTimeInterval(5)
        while status == 0 && !isEnded && Date() < deadline { receive(wait: 0.1) }
    }

    /// The next event within `seconds`, the stream's end, or nothing in time.
    func next(within seconds: Double = 5) -> Next {
        let deadline = Date().addingTimeInterval(seconds)
        while events.isEmpty && !isEnded && Date() < deadline { receive(wait: min(0.05, max(0, deadline.timeIntervalSinceNow))) }
        if !events.isEmpty { return .event(events.removeFirst()) }
        return isEnded ? .ended : .timedOut
    }

    /// Waits up to `seconds` for the stream to end; whether it did, and any event it sent first.
    func end(within seconds: Double) -> (ended: Bool, events: [ServerSentEvent]) {
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

    func close() { connection.close() }

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

extension ServerSentEvent {
    var object: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any]) ?? [:] }
}

/// `GET /api/sheets/{id}/events` and `GET /api/imports/{id}/events` on the real server.
@Suite(.serialized)
struct EventStreamTests {
    /// A server with a 1 s heartbeat, an imported sheet of ann's shared with bob as viewer.
    struct Setup {
        let fixture: ServerFixture
        let sheet: String
        let bobToken: String
        var server: TestServer { fixture.server }
        var ann: API { fixture.api }
        var bob: API { server.api(bobToken) }
        var port: UInt16 { RawConnection.port(of: server.base) }

        init(_ arguments: [String] = []) throws {
            fixture = try ServerFixture(["--event-heartbeat", "1"] + arguments)
            let book = try makeStyledWorkbook(in: fixture.folder)
            let job = try fixture.api.importWorkbook(book)
            sheet = try #require((job["result"] as? [String: Any]).flatMap { $0["sheet"] as? [String: Any] }?["id"] as? String)
            bobToken = try fixture.server.token("bob")
            #expect(try fixture.api.call("POST", "/api/sheets/\(sheet)/grants", json: ["subject": "bob", "role": "viewer"]).status == 201)
        }

        func stream(_ token: String, lastEventID: String? = nil) throws -> EventReader {
            try EventReader(port: port, path: "/api/sheets/\(sheet)/events", token: token, lastEventID: lastEventID.map { Array($0.utf8) })
        }

        func rename(_ name: String) throws {
            #expect(try ann.call("PATCH", "/api/sheets/\(sheet)", json: ["name": name]).status == 200)
        }

        func close() { fixture.close() }
    }

    static func version(_ next: EventReader.Next) -> (version: Int, change: String, id: String?)? {
        guard case .event(let event) = next, event.name == "version" else { return nil }
        return (event.object["version"] as? Int ?? -1, event.object["change"] as? String ?? "", event.id)
    }

    @Test func versionEventsArriveInOrderAndLastEventIDResumesExactly() throws {
        let setup = try Setup()
        defer { setup.close() }
        let start = try #require(try setup.ann.object("/api/sheets/\(setup.sheet)")["version"] as? Int)
        let live = try setup.stream(setup.fixture.api.token!)
        #expect(live.status == 200)
        #expect(live.head.lowercased().contains("content-type: text/event-stream"))
        try setup.rename("Renamed")
        #expect(try setup.ann.call("POST", "/api/sheets/\(setup.sheet)/comments", json: ["ref": "B2", "text": "look"]).status == 201)
        #expect(try setup.ann.call("POST", "/api/sheets/\(setup.sheet)/grants", json: ["subject": "cy", "role": "editor"]).status == 201)
        #expect(try setup.ann.call("DELETE", "/api/sheets/\(setup.sheet)/grants/cy").status == 204)
        let expected = [(start + 1, "rename"), (start + 2, "comment"), (start + 3, "grant"), (start + 4, "grant")]
        for (version, change) in expected {
            let event = try #require(Self.version(live.next()))
            #expect(event.version == version && event.change == change && event.id == String(version))
        }
        #expect(live.next(within: 1.5) == .timedOut) // nothing more, nothing repeated
        #expect(live.pings >= 1)
        live.close()

        // Resuming after the second event gives exactly the third and fourth, then new ones.
        let resumed = try setup.stream(setup.fixture.api.token!, lastEventID: String(start + 2))
        #expect(Self.version(resumed.next())?.version == start + 3)
        #expect(Self.version(resumed.next())?.version == start + 4)
        #expect(resumed.next(within: 1.5) == .timedOut)
        try setup.rename("Again")
        #expect(Self.version(resumed.next())?.version == start + 5)
        resumed.close()

        // From the start of the history: every change, the import first.
        let all = try setup.stream(setup.fixture.api.token!, lastEventID: "0")
        #expect(Self.version(all.next())?.change == "import")
        all.close()
    }

    @Test(arguments: [
        ("huge", Array("99999999999999999999999999".utf8)), ("negative", Array("-1".utf8)), ("text", Array("abc".utf8)),
        ("NUL", [0x31, 0x00, 0x32]), ("control", [0x31, 0x1B, 0x32]), ("empty", []), ("sign", Array("+5".utf8)),
        ("spaces", Array("1 2".utf8)),
    ])
    func hostileLastEventIDIsRefused(_ name: String, _ value: [UInt8]) throws {
        let setup = try Setup()
        defer { setup.close() }
        let reader = try EventReader(port: setup.port, path: "/api/sheets/\(setup.sheet)/events", token: setup.fixture.api.token!,
                                     lastEventID: value)
        #expect(reader.status == 400 || reader.status == 0, "\(name): \(reader.head)")
        reader.close()
        // The server goes on serving, and the largest id it accepts is no trouble either.
        let largest = try setup.stream(setup.fixture.api.token!, lastEventID: "999999999999999999")
        #expect(largest.status == 200)
        #expect(largest.next(within: 1.2) == .timedOut)
        largest.close()
    }

    /// Revokes bob's access with `revoke`, then at once makes a change bob could read before;
    /// his stream must end without delivering it. Returns the seconds from the revocation to the end.
    func revocationEndsTheStream(_ revoke: (Setup) throws -> Void) throws -> Double {
        let setup = try Setup()
        defer { setup.close() }
        let reader = try setup.stream(setup.bobToken)
        #expect(reader.status == 200)
        try setup.rename("Before")
        let before = try #require(Self.version(reader.next()))
        #expect(before.change == "rename")
        let revoked = Date()
        try revoke(setup)
        try setup.rename("After") // never delivered to bob
        let (ended, events) = reader.end(within: 5)
        let delay = Date().timeIntervalSince(revoked)
        #expect(ended)
        #expect(events.isEmpty, "delivered after the revocation: \(events)")
        reader.close()
        return delay
    }

    @Test func tokenRevokedBySubjectEndsTheStream() throws {
        let delay = try revocationEndsTheStream { (setup: Setup) throws in
            #expect(try runSheetport(["token", "revoke"] + setup.server.storeArguments + ["--subject", "bob"]).status == 0)
        }
        print("revocation (token revoke --subject) to stream end: \(String(format: "%.3f", delay)) s")
        #expect(delay < 3)
    }

    @Test func tokenRevokedByTokenFileEndsTheStream() throws {
        let delay = try revocationEndsTheStream { (setup: Setup) throws in
            let file = setup.fixture.folder.appendingPathComponent("bob.token").path
            try setup.bobToken.write(toFile: file, atomically: true, encoding: .utf8)
            #expect(try runSheetport(["token", "revoke"] + setup.server.storeArguments + ["--token-file", file]).status == 0)
        }
        print("revocation (token revoke --token-file) to stream end: \(String(format: "%.3f", delay)) s")
        #expect(delay < 3)
    }

    @Test func grantRevokedEndsTheStream() throws {
        let delay = try revocationEndsTheStream { (setup: Setup) throws in
            #expect(try setup.ann.call("DELETE", "/api/sheets/\(setup.sheet)/grants/bob").status == 204)
        }
        print("revocation (DELETE grant) to stream end: \(String(format: "%.3f", delay)) s")
        #expect(delay < 3)
    }

    @Test func idleRevocationEndsTheStreamWithoutAnyChange() throws {
        let setup = try Setup()
        defer { setup.close() }
        let reader = try setup.stream(setup.bobToken)
        #expect(reader.status == 200)
        let revoked = Date()
        #expect(try runSheetport(["token", "revoke"] + setup.server.storeArguments + ["--subject", "bob"]).status == 0)
        let (ended, events) = reader.end(within: 5)
        #expect(ended && events.isEmpty)
        print("idle revocation to stream end: \(String(format: "%.3f", Date().timeIntervalSince(revoked))) s")
        reader.close()
    }

    @Test func manyIdleStreamsDelayNoOtherRequestAndAllGetTheChange() throws {
        let setup = try Setup(["--event-streams", "512", "--event-streams-per-subject", "256"])
        defer { setup.close() }
        var readers: [EventReader] = []
        defer { readers.forEach { $0.close() } }
        for _ in 0..<200 {
            let reader = try setup.stream(setup.bobToken)
            try #require(reader.status == 200)
            readers.append(reader)
        }
        // Another user's request is answered at once (bounded by the client's own timeout).
        let client = HTTPClient(connectTimeout: 5, timeout: 5)
        let started = Date()
        #expect(try setup.ann.call("GET", "/api/sheets", client: client).status == 200)
        let answered = Date().timeIntervalSince(started)
        print("GET /api/sheets with 200 idle streams open: \(String(format: "%.3f", answered)) s")
        #expect(answered < 2)

        let changed = Date()
        try setup.rename("Seen by all")
        var latencies: [Double] = []
        for reader in readers {
            #expect(Self.version(reader.next())?.change == "rename")
            latencies.append(Date().timeIntervalSince(changed))
        }
        #expect(latencies.count == 200)
        print("change to its event on 200 streams: first \(String(format: "%.3f", latencies.min() ?? 0)) s, last \(String(format: "%.3f", latencies.max() ?? 0)) s")
    }

    @Test func changeToEventLatency() throws {
        let setup = try Setup()
        defer { setup.close() }
        let reader = try setup.stream(setup.fixture.api.token!)
        var latencies: [Double] = []
        for round in 0..<10 {
            let changed = Date()
            try setup.rename("Round \(round)")
            #expect(Self.version(reader.next())?.change == "rename")
            latencies.append(Date().timeIntervalSince(changed))
        }
        latencies.sort()
        print("change (PATCH answered) to event: median \(String(format: "%.4f", latencies[5])) s, max \(String(format: "%.4f", latencies[9])) s")
        reader.close()
    }

    @Test func streamsAreCappedPerSubjectAndInTotal() throws {
        let setup = try Setup(["--event-streams", "3", "--event-streams-per-subject", "2"])
        defer { setup.close() }
        let bob1 = try setup.stream(setup.bobToken), bob2 = try setup.stream(setup.bobToken)
        #expect(bob1.status == 200 && bob2.status == 200)
        let bob3 = try setup.stream(setup.bobToken)
        #expect(bob3.status == 429)
        #expect(bob3.head.contains("Retry-After"))
        let ann1 = try setup.stream(setup.fixture.api.token!)
        #expect(ann1.status == 200)
        let ann2 = try setup.stream(setup.fixture.api.token!)
        #expect(ann2.status == 503)
        #expect(ann2.head.contains("Retry-After"))
        // A closed stream gives its place back (once the server notices, at its next look).
        bob1.close()
        var reopened = 0
        for _ in 0..<40 where reopened != 200 {
            usleep(100_000)
            let again = try setup.stream(setup.bobToken)
            reopened = again.status
            if reopened != 200 { again.close() }
        }
        #expect(reopened == 200)
    }

    @Test func jobStreamSendsProgressThenDoneAndHidesOtherSubjectsJobs() throws {
        let setup = try Setup()
        defer { setup.close() }
        let book = try makeLargeWorkbook(rows: 30_000, in: setup.fixture.folder)
        let response = try setup.ann.upload(book)
        let job = try #require(API.job(response.body)?["id"] as? String)
        // Bob's view of ann's job: not found, as a job that does not exist.
        let foreign = try EventReader(port: setup.port, path: "/api/imports/\(job)/events", token: setup.bobToken)
        #expect(foreign.status == 404)
        let missing = try EventReader(port: setup.port, path: "/api/imports/\(String(repeating: "0", count: 32))/events", token: setup.bobToken)
        #expect(missing.status == 404)

        let reader = try EventReader(port: setup.port, path: "/api/imports/\(job)/events", token: setup.fixture.api.token!)
        #expect(reader.status == 200)
        var ids: [Int] = [], names: [String] = [], final: [String: Any] = [:]
        for _ in 0..<10_000 {
            guard case .event(let event) = reader.next(within: 60) else { break }
            ids.append(Int(event.id ?? "") ?? -1)
            names.append(event.name)
            if event.name == "done" { final = event.object["job"] as? [String: Any] ?? [:] }
        }
        #expect(reader.next(within: 2) == .ended)
        #expect(names.last == "done" && names.dropLast().allSatisfy { $0 == "progress" } && names.count >= 2)
        #expect(ids == ids.sorted() && Set(ids).count == ids.count)
        #expect(final["status"] as? String == "succeeded")

        // Resuming after the last progress gives exactly the done; after the done, nothing.
        let last = try #require(ids.dropLast().last)
        let resumed = try EventReader(port: setup.port, path: "/api/imports/\(job)/events", token: setup.fixture.api.token!,
                                      lastEventID: Array(String(last).utf8))
        guard case .event(let done) = resumed.next() else { Issue.record("no done on resume"); return }
        #expect(done.name == "done")
        #expect(resumed.next(within: 2) == .ended)
        let after = try EventReader(port: setup.port, path: "/api/imports/\(job)/events", token: setup.fixture.api.token!,
                                    lastEventID: Array(String(ids.last!).utf8))
        #expect(after.next(within: 2) == .ended)
    }

    @Test func serverStopEndsOpenStreams() throws {
        let setup = try Setup()
        defer { setup.close() }
        let readers = try (0..<5).map { _ in try setup.stream(setup.bobToken) }
        let stopped = Date()
        setup.server.stop()
        #expect(Date().timeIntervalSince(stopped) < 5)
        for reader in readers { #expect(reader.end(within: 2).ended) }
        #expect(setup.server.process.terminationReason == .exit)
    }

    @Test func importWaitFollowsTheStream() throws {
        let setup = try Setup(["--event-streams-per-subject", "1"])
        defer { setup.close() }
        let book = try makeLargeWorkbook(rows: 40_000, in: setup.fixture.folder)
        let tokenFile = setup.fixture.folder.appendingPathComponent("ann.token").path
        try setup.fixture.api.token!.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = Project.executable
        process.arguments = ["import", book, "--server", setup.server.base, "--token-file", tokenFile, "--wait", "--json"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // While it waits, ann's one stream is taken: the client follows the job's stream.
        var sawTaken = false
        for _ in 0..<300 where process.isRunning && !sawTaken {
            usleep(50_000)
            let probe = try setup.stream(setup.fixture.api.token!)
            sawTaken = probe.status == 429
            probe.close()
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(sawTaken)
        #expect(process.terminationStatus == 0)
        #expect(text.contains("\"succeeded\""))
    }

    @Test func importWaitFallsBackToPollingWhenTheStreamBreaks() throws {
        let setup = try Setup()
        defer { setup.close() }
        // The job's stream is cut a few bytes into its answer; polling takes the job to its end.
        let relay = try DroppingRelay(targetPort: Int(setup.port), cutting: "GET /api/imports/", afterBytes: 300)
        let book = try makeLargeWorkbook(rows: 20_000, in: setup.fixture.folder)
        let tokenFile = setup.fixture.folder.appendingPathComponent("ann.token").path
        try setup.fixture.api.token!.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let result = try runSheetport(["import", book, "--server", "http://127.0.0.1:\(relay.port)", "--token-file", tokenFile,
                                       "--wait", "--json"])
        #expect(relay.dropped)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("\"succeeded\""))
    }

    @Test func importWaitFallsBackToPollingWhenTheStreamIsRefused() throws {
        let setup = try Setup(["--event-streams", "1"])
        defer { setup.close() }
        let holder = try setup.stream(setup.bobToken) // takes the only place: ann's stream gets 503
        #expect(holder.status == 200)
        let book = try makeStyledWorkbook(in: setup.fixture.folder, name: "again.xlsx")
        let tokenFile = setup.fixture.folder.appendingPathComponent("ann.token").path
        try setup.fixture.api.token!.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let result = try runSheetport(["import", book, "--server", setup.server.base, "--token-file", tokenFile, "--wait", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("\"succeeded\""))
        holder.close()
    }
}
