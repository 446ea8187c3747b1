import Foundation
import Testing
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert

/// The HTTP layer of `sheetport serve` against hostile clients (issue 12): parked waits,
/// connection storms, oversized chunked uploads, malformed requests. Each test starts the real
/// server on a loopback ephemeral port; every loop and wait is bounded.
@Suite(.serialized) struct AdversarialHTTPTests {
    /// A fixture with one imported sheet of ann's; its id.
    private func sheetFixture(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> (ServerFixture, String) {
        let fixture = try ServerFixture(configure)
        let job = try fixture.api.importWorkbook(try makeStyledWorkbook(in: fixture.folder, rows: 20))
        let sheet = try #require(((job["result"] as? [String: Any])?["sheet"] as? [String: Any])?["id"] as? String, "\(job)")
        return (fixture, sheet)
    }

    /// 20 `minVersion` waits that cannot be met park their connections; meanwhile another user's
    /// request is answered at once (4 HTTP threads: a thread per wait would stall it for
    /// seconds), and each wait still answers 409 `version-not-reached` after its 2 s.
    @Test func parkedWaitsLeaveRequestThreadsFree() throws {
        let (fixture, sheet) = try sheetFixture { $0.threads = 4 }
        defer { fixture.close() }
        let bob = fixture.server.api(try fixture.server.token("bob"))
        let (waits, outcomes) = startExports(20, of: sheet, minVersion: 999, as: fixture.api)
        usleep(500_000) // the waits are parked by now (their 2 s are far from over)
        let asked = Date()
        let other = try bob.call("GET", "/api/sheets", client: HTTPClient(timeout: 10))
        let elapsed = Date().timeIntervalSince(asked)
        print("another user's request while 20 minVersion waits are parked: \(String(format: "%.3f", elapsed)) s")
        #expect(other.status == 200)
        #expect(elapsed < 1, "another user's request took \(elapsed) s while waits were parked")
        #expect(waits.wait(timeout: .now() + 30) == .success)
        #expect(outcomes.items.count == 20)
        for item in outcomes.items {
            let parts = item.split(separator: " ")
            #expect(parts.count == 4 && parts[0] == "409" && parts[1] == "version-not-reached", "\(item)")
            #expect((Double(parts.last ?? "") ?? 0) >= 1.5, "a wait answered before its time: \(item)")
        }
    }

    /// A rename while a `minVersion` wait is parked wakes it: the export of the new version is
    /// answered long before the wait's 2 s.
    @Test func changeWakesParkedWait() throws {
        let (fixture, sheet) = try sheetFixture()
        defer { fixture.close() }
        let (wait, outcomes) = startExports(1, of: sheet, minVersion: 2, as: fixture.api)
        usleep(200_000)
        let renamed = try fixture.api.call("PATCH", "/api/sheets/\(sheet)", json: ["name": "Renamed"])
        #expect(renamed.status == 200)
        #expect(wait.wait(timeout: .now() + 30) == .success)
        let parts = try #require(outcomes.items.first).split(separator: " ")
        #expect(parts.count == 4 && parts[0] == "200" && parts[2] == "2", "\(outcomes.items)")
        #expect((Double(parts.last ?? "") ?? 99) < 1.5, "the wait was not woken by the rename: \(outcomes.items)")
    }

    /// A chunked upload (no Content-Length to refuse it by) over a 1 MiB cap is answered 413
    /// as soon as the cap is passed: the server stops reading, not at the end of 200 MB; no
    /// staged file stays, and the server serves on.
    @Test func chunkedUploadOverCapIsCutOffAtTheCap() throws {
        let fixture = try ServerFixture { $0.maxUploadBytes = 1 << 20 }
        defer { fixture.close() }
        let token = try #require(fixture.api.token)
        let (sent, answer) = try sendChunked("POST /api/imports HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nX-Filename: big.xlsx\r\n",
                                             port: RawConnection.port(of: fixture.server.base))
        print("bytes of a chunked upload sent before the 413 (cap 1 MiB): \(sent)")
        #expect(answer.status == 413, "\(answer.text)")
        #expect(answer.errorCode == "too-large")
        #expect(answer.header("Cache-Control") == "no-store")
        #expect(answer.headCount == 1)
        #expect(sent < 4 << 20, "\(sent) bytes were taken with a 1 MiB cap")
        #expect(filesUnder(fixture.server.data + "/staging").isEmpty)
        #expect(try fixture.api.call("GET", "/api/limits").status == 200)
    }

    /// A chunked JSON body past its 64 KiB cap is cut off the same way.
    @Test func chunkedJSONBodyOverCapIsCutOff() throws {
        let (fixture, sheet) = try sheetFixture()
        defer { fixture.close() }
        let token = try #require(fixture.api.token)
        let (sent, answer) = try sendChunked("POST /api/sheets/\(sheet)/comments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n",
                                             port: RawConnection.port(of: fixture.server.base))
        #expect(answer.status == 413, "\(answer.text)")
        #expect(answer.errorCode == "too-large")
        #expect(sent < 4 << 20, "\(sent) bytes were taken with a 64 KiB cap")
    }

    /// Two bursts of 520 silent connections from one address, held open: another client is
    /// served within 2 s (connections per address are limited, so the storm cannot take them
    /// all), and the storm's own address once its silent connections time out.
    @Test func connectionStormLeavesServiceForOthers() throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = max(limit.rlim_cur, min(limit.rlim_max, 4096))
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        try #require(limit.rlim_cur >= 1200, "the test needs 1200 descriptors")
        let fixture = try ServerFixture { $0.http.idleTimeout = 3 }
        defer { fixture.close() }
        let port = RawConnection.port(of: fixture.server.base)
        var storm: [RawConnection] = []
        for _ in 0..<2 {
            for _ in 0..<520 {
                if let connection = try? RawConnection(port: port, timeout: 2) { storm.append(connection) }
            }
            usleep(500_000)
        }
        defer { storm.forEach { $0.close() } }
        #expect(storm.count > 500)
        let other = secondsToServe(port: port, from: "127.0.0.2", timeout: 30)
        print("fresh request from another client after two bursts of 520 connections: \(other.map { String(format: "%.3f s", $0) } ?? "no answer")")
        #expect(other.map { $0 < 2 } == true, "another client waited \(String(describing: other)) s")
        let same = secondsToServe(port: port, from: "127.0.0.1", timeout: 30)
        print("fresh request from the storm's address: \(same.map { String(format: "%.3f s", $0) } ?? "no answer")")
        #expect(same.map { $0 < 3 + 5 } == true, "the storm's address waited \(String(describing: same)) s")
    }

    /// Sends `bytes` on a fresh connection (half-closing it when `finish`); the server's answer.
    private func exchange(_ bytes: [UInt8], port: UInt16, finish: Bool = true) throws -> RawAnswer {
        let connection = try RawConnection(port: port, timeout: 15)
        connection.send(bytes)
        if finish { connection.shutdownWrite() }
        return RawAnswer(bytes: connection.receiveAll())
    }

    /// Requests libmicrohttpd would answer with HTML, without `no-store`, or twice (a
    /// Content-Length past 64 bits), and ones it would let through with NUL or control
    /// characters in them: each gets one JSON error answer with `no-store`, and the server
    /// serves on.
    @Test func malformedRequestsGetOneJSONAnswer() throws {
        let fixture = try ServerFixture { $0.http.idleTimeout = 2 }
        defer { fixture.close() }
        let port = RawConnection.port(of: fixture.server.base)
        let huge = String(repeating: "a", count: 300_000)
        let cases: [(name: String, bytes: [UInt8], status: Int, code: String)] = [
            ("huge header", Array("GET /api/limits HTTP/1.1\r\nHost: x\r\nX-Big: \(huge)\r\n\r\n".utf8), 431, "header-too-large"),
            ("many headers", Array(("GET /api/limits HTTP/1.1\r\n" + String(repeating: "X-A: b\r\n", count: 10_000) + "\r\n").utf8), 431, "header-too-large"),
            ("huge URI", Array("GET /api/limits?\(huge) HTTP/1.1\r\nHost: x\r\n\r\n".utf8), 414, "uri-too-long"),
            ("long URI", Array("GET /api/\(String(repeating: "b", count: 9_000)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8), 414, "uri-too-long"),
            ("Content-Length past 64 bits", Array("POST /api/imports HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n".utf8), 413, "too-large"),
            ("negative Content-Length", Array("POST /api/imports HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n".utf8), 400, "bad-request"),
            ("Content-Length with a sign", Array("POST /api/imports HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\n".utf8), 400, "bad-request"),
            ("two Content-Lengths", Array("POST /api/imports HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef".utf8), 400, "bad-request"),
            ("Content-Length and chunked", Array("POST /api/imports HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n".utf8), 400, "bad-request"),
            ("unknown transfer coding", Array("POST /api/imports HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n".utf8), 501, "not-implemented"),
            ("garbage request line", [0x01, 0x02, 0x20, 0xFF, 0x0D, 0x0A, 0x0D, 0x0A], 400, "bad-request"),
            ("no version", Array("GET /api/limits\r\n\r\n".utf8), 400, "bad-request"),
            ("HTTP/2.0", Array("GET /api/limits HTTP/2.0\r\nHost: x\r\n\r\n".utf8), 400, "bad-request"),
            ("bare LF", Array("GET /api/limits HTTP/1.1\nHost: x\n\n".utf8), 400, "bad-request"),
            ("bare CR", Array("GET /api/limits HTTP/1.1\rHost: x\r\n\r\n".utf8), 400, "bad-request"),
            ("NUL in a header", Array("GET /api/limits HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}b\r\n\r\n".utf8), 400, "bad-request"),
            ("escape in a header", Array("GET /api/limits HTTP/1.1\r\nHost: x\r\nX-A: \u{1B}[31mred\r\n\r\n".utf8), 400, "bad-request"),
            ("NUL in the URI", Array("GET /api/limits\u{0}x HTTP/1.1\r\nHost: x\r\n\r\n".utf8), 400, "bad-request"),
            ("space in a header name", Array("GET /api/limits HTTP/1.1\r\nHost: x\r\nX A: b\r\n\r\n".utf8), 400, "bad-request"),
            ("folded header", Array("GET /api/limits HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n".utf8), 400, "bad-request"),
            ("header without colon", Array("GET /api/limits HTTP/1.1\r\nHost x\r\n\r\n".utf8), 400, "bad-request"),
            ("empty line first", Array("\r\nGET /api/limits HTTP/1.1\r\n\r\n".utf8), 400, "bad-request"),
            ("head that never ends", Array("GET /api/limits HTTP/1.1\r\nHost: x\r\n".utf8), 408, "request-timeout"),
        ]
        for test in cases {
            let answer = try exchange(test.bytes, port: port, finish: test.code != "request-timeout")
            #expect(answer.status == test.status, "\(test.name): \(answer.text.prefix(300))")
            #expect(answer.headCount == 1, "\(test.name): \(answer.text.prefix(600))")
            #expect(answer.errorCode == test.code, "\(test.name): \(answer.text.prefix(300))")
            #expect(answer.header("Cache-Control") == "no-store", "\(test.name)")
            #expect(answer.header("Content-Type") == "application/json", "\(test.name)")
        }
        // A silent connection is closed without an answer once its time is up.
        let silent = try RawConnection(port: port, timeout: 15)
        #expect(silent.receiveAll().isEmpty)
        // A valid request followed by garbage on the same connection: one answer, then the end.
        let pipelined = try exchange(Array("GET /api/limits HTTP/1.1\r\nHost: x\r\n\r\n\u{1}\u{2} junk\r\n\r\n".utf8), port: port)
        #expect(pipelined.status == 200 && pipelined.headCount == 1, "\(pipelined.text)")
        #expect(try fixture.api.call("GET", "/api/limits").status == 200)
    }

    /// Random bytes and random cuts of valid heads never crash the head check, and a head it
    /// finds valid has its end within the bytes.
    @Test func requestHeadCheckTakesAnyBytes() {
        var generator = SystemRandomNumberGenerator()
        let valid = Array("POST /api/imports HTTP/1.1\r\nHost: x\r\nContent-Length: 12\r\nX-Filename: a.xlsx\r\n\r\n".utf8)
        for round in 0..<3_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            } else {
                bytes = Array(valid.prefix(Int.random(in: 0...valid.count, using: &generator)))
                if !bytes.isEmpty, round % 4 == 1 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            }
            let verdict = bytes.withUnsafeBytes { RequestHead.check($0) }
            if verdict == .valid {
                #expect(bytes.count >= 4 && String(decoding: bytes, as: UTF8.self).contains("\r\n\r\n"), "\(bytes)")
            }
        }
        #expect(valid.withUnsafeBytes { RequestHead.check($0) } == .valid)
    }

    /// A head that arrives in pieces, with pauses, is served once complete (within the idle
    /// timeout), with one answer and `Connection: close`.
    @Test func slowHeadIsServedWhenComplete() throws {
        let fixture = try ServerFixture { $0.http.idleTimeout = 5 }
        defer { fixture.close() }
        let port = RawConnection.port(of: fixture.server.base)
        let connection = try RawConnection(port: port, timeout: 10)
        for piece in ["GET /api/li", "mits HTTP/1.1\r\nHo", "st: x\r\n", "\r", "\n"] {
            connection.send(piece)
            usleep(300_000)
        }
        let answer = RawAnswer(bytes: connection.receiveAll())
        #expect(answer.status == 200 && answer.headCount == 1, "\(answer.text)")
        #expect(answer.header("Connection") == "close")
    }

    /// Two `Authorization` fields are refused with 400 whichever they hold (two subjects'
    /// tokens, one token twice, a token beside garbage, names in other cases): no field wins.
    /// One field is still served, and the refusal names no token.
    @Test func twoAuthorizationFieldsAreRefused() throws {
        let (fixture, sheet) = try sheetFixture()
        defer { fixture.close() }
        let ann = try #require(fixture.api.token)
        let bob = try fixture.server.token("bob")
        let port = RawConnection.port(of: fixture.server.base)
        let cases: [(name: String, fields: [String])] = [
            ("two subjects", ["Authorization: Bearer \(bob)", "Authorization: Bearer \(ann)"]),
            ("the same token twice", ["Authorization: Bearer \(ann)", "Authorization: Bearer \(ann)"]),
            ("garbage then a token", ["authorization: Basic Zm9vOmJhcg==", "AUTHORIZATION: Bearer \(ann)"]),
            ("a token then an empty one", ["Authorization: Bearer \(ann)", "Authorization:"]),
            ("apart", ["Authorization: Bearer \(ann)", "X-Filename: a.xlsx", "aUtHoRiZaTiOn: Bearer \(ann)"]),
        ]
        for test in cases {
            let head = "GET /api/sheets/\(sheet) HTTP/1.1\r\nHost: x\r\n" + test.fields.map { $0 + "\r\n" }.joined() + "\r\n"
            let answer = try exchange(Array(head.utf8), port: port)
            #expect(answer.status == 400 && answer.errorCode == "bad-request", "\(test.name): \(answer.text.prefix(300))")
            #expect(answer.headCount == 1, "\(test.name)")
            #expect(!answer.text.contains(ann) && !answer.text.contains(bob), "\(test.name): the answer repeats a token")
            #expect(answer.body.contains("Authorization"), "\(test.name): \(answer.body)")
        }
        let one = try exchange(Array("GET /api/sheets/\(sheet) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ann)\r\n\r\n".utf8), port: port)
        #expect(one.status == 200, "\(one.text.prefix(300))")
    }
}
