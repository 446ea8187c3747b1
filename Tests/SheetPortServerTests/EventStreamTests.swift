#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import SheetPortClient
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert
@testable import SheetPortServer

extension ServerSentEvent {
    var object: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any]) ?? [:] }
}

/// `GET /api/sheets/{id}/events` and `GET /api/imports/{id}/events` on the real server.
@Suite(.serialized)
struct EventStreamTests {
    /// A server with a 1 s heartbeat, an imported sheet of ann's shared with bob as viewer.
    typealias Setup = EventStreamFixture

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
            #expect(try setup.server.revoke(subject: "bob") == 1)
        }
        print("revocation (token revoke --subject) to stream end: \(String(format: "%.3f", delay)) s")
        #expect(delay < 3)
    }

    @Test func tokenRevokedByTokenFileEndsTheStream() throws {
        let delay = try revocationEndsTheStream { (setup: Setup) throws in
            #expect(try setup.server.revoke(token: setup.bobToken))
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
        #expect(try setup.server.revoke(subject: "bob") == 1)
        let (ended, events) = reader.end(within: 5)
        #expect(ended && events.isEmpty)
        print("idle revocation to stream end: \(String(format: "%.3f", Date().timeIntervalSince(revoked))) s")
        reader.close()
    }

    @Test func manyIdleStreamsDelayNoOtherRequestAndAllGetTheChange() throws {
        let setup = try Setup { ($0.eventStreams.total, $0.eventStreams.perSubject) = (512, 256) }
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
        let setup = try Setup { ($0.eventStreams.total, $0.eventStreams.perSubject) = (3, 2) }
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
        #expect((try? RawConnection(port: setup.port, timeout: 1)) == nil, "the server still listens")
    }
}
