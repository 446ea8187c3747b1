import Foundation
import Testing
@testable import SheetPortClient
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert
@testable import SheetPortServer

/// Exports under one subject's pressure (issue 23): a viewer holding export slots with reads
/// that never come takes at most its share of them, and an export whose access is revoked ends.
extension ServerTests {
    /// Opens an export of `path` for `token` on a connection that reads nothing (a 4 KiB
    /// receive window); returns it once its answer began (or nil: no answer within 60 s).
    private func openStalledExport(_ path: String, token: String, port: UInt16) throws -> RawConnection? {
        let stalled = try RawConnection(port: port, timeout: 60, receiveBuffer: 4_096)
        _ = stalled.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n")
        return eventually(within: 60) { stalled.hasAnswered } ? stalled : nil
    }

    /// The status, error code and Retry-After of an answer's first bytes.
    private func headOf(_ connection: RawConnection) -> (status: Int, code: String?, retryAfter: String?) {
        let answer = RawAnswer(bytes: connection.receiveAll(limit: 2_048))
        return (answer.status, answer.errorCode, answer.header("Retry-After"))
    }

    /// A viewer (a subject with a name no one else's resembles) holds exports of a 13 MB sheet
    /// open without reading: with four slots it gets two; its third and fourth answer 503 `busy`
    /// with `Retry-After` at once, while the owner, another subject, is still served. Once the
    /// viewer's connections go, its slots are free again. (Before: the viewer took all four and
    /// everyone else got 503 for as long as it read.)
    @Test func oneSubjectHoldsAtMostHalfTheExportSlots() throws {
        let fixture = try ServerFixture { $0.exportsAtOnce = 4 }
        defer { fixture.close() }
        let api = fixture.api
        let viewer = "v\u{301}iewer \u{2603} \"q\""
        let viewerToken = try fixture.server.token(viewer)
        let sheet = try api.importSheet(try makeTextWorkbook(rows: 9_000, in: fixture.folder))
        #expect(try api.call("POST", "/api/sheets/\(sheet)/grants", json: ["subject": viewer, "role": "viewer"]).status < 300)
        let path = "/api/sheets/\(sheet)/export.xlsx"
        let port = RawConnection.port(of: api.base)
        var held: [RawConnection] = []
        defer { held.forEach { $0.close() } }
        var statuses: [Int] = []
        for _ in 0..<4 {
            let connection = try #require(try openStalledExport(path, token: viewerToken, port: port), "an export never answered")
            held.append(connection)
            let head = headOf(connection)
            statuses.append(head.status)
            if head.status == 503 {
                #expect(head.code == "busy" && head.retryAfter != nil, "\(head)")
            }
        }
        #expect(statuses == [200, 200, 503, 503], "\(statuses)")
        // The owner is served while the viewer holds its share.
        let owner = try #require(try openStalledExport(path, token: api.token!, port: port), "the owner's export never answered")
        defer { owner.close() }
        #expect(headOf(owner).status == 200)
        owner.close()
        held.forEach { $0.close() }
        // Its slots come back once its connections are gone.
        #expect(try eventually(within: 30) { try fixture.server.api(viewerToken).call("GET", path).status == 200 },
                "the viewer's slots stayed taken")
    }

    /// Reads `connection` at about `rate` bytes a second until it ends, calling `after(bytes)`
    /// once `trigger` bytes are in; the bytes read, and the seconds from the call to the end.
    private func readSlowly(_ connection: RawConnection, rate: Int, trigger: Int, after: () throws -> Void) rethrows
        -> (bytes: [UInt8], secondsAfter: Double?) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var triggered: Date?
        let started = Date()
        while Date().timeIntervalSince(started) < 60 {
            let count = buffer.withUnsafeMutableBytes { recv(connection.descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[..<count]
            if triggered == nil, received.count >= trigger {
                try after()
                triggered = Date()
            }
            usleep(UInt32(Double(count) / Double(rate) * 1e6))
        }
        return (received, triggered.map { Date().timeIntervalSince($0) })
    }

    /// An export being read slowly (about 1 MB/s of a 13 MB workbook, which takes 13 s) whose
    /// access is revoked midway, by the owner revoking the viewer's grant over HTTP or by
    /// `sheetport token revoke` straight in the store, ends within a second or so (what the
    /// kernel buffers already hold still arrives), cut: no chunked end, so no client takes it
    /// for a workbook. A resumed export (`Range`) ends as well. Before, it ran on to its end.
    @Test func aRevokedExportEndsWithinASecond() throws {
        let fixture = try ServerFixture { $0.exportsAtOnce = 4 }
        defer { fixture.close() }
        let api = fixture.api
        let sheet = try api.importSheet(try makeTextWorkbook(rows: 9_000, in: fixture.folder))
        let path = "/api/sheets/\(sheet)/export.xlsx"
        let port = RawConnection.port(of: api.base)
        let cases: [(name: String, range: Bool, revoke: (String, String) throws -> Void)] = [
            ("grant revoked over HTTP", false, { subject, _ in
                let encoded = subject.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? subject
                let status = try api.call("DELETE", "/api/sheets/\(sheet)/grants/\(encoded)").status
                #expect(status < 300)
            }),
            ("token revoked in the store", false, { _, token in
                let revoked = try fixture.server.revoke(token: token)
                #expect(revoked)
            }),
            ("resumed export, grant revoked", true, { subject, _ in
                let encoded = subject.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? subject
                let status = try api.call("DELETE", "/api/sheets/\(sheet)/grants/\(encoded)").status
                #expect(status < 300)
            }),
        ]
        for (index, test) in cases.enumerated() {
            let viewer = "viewer \(index) \u{1F512}/%2F"
            let token = try fixture.server.token(viewer)
            #expect(try api.call("POST", "/api/sheets/\(sheet)/grants", json: ["subject": viewer, "role": "viewer"]).status < 300)
            let connection = try RawConnection(port: port, timeout: 30, receiveBuffer: 64 * 1024)
            defer { connection.close() }
            // A grant moves the sheet to a version of its own: the tag is taken now.
            let tag = try #require(try api.call("GET", path).header("ETag"))
            let range = test.range ? "Range: bytes=1000-\r\nIf-Range: \(tag)\r\n" : ""
            _ = connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\(range)\r\n")
            let (bytes, after) = try readSlowly(connection, rate: 1_000_000, trigger: 1_000_000) { try test.revoke(viewer, token) }
            let answer = RawAnswer(bytes: Array(bytes.prefix(2_048)))
            #expect(answer.status == (test.range ? 206 : 200), "\(test.name): \(answer.text.prefix(200))")
            print("\(test.name): \(bytes.count) bytes, ended \(after.map { String(format: "%.2f s", $0) } ?? "-") after the revocation")
            #expect((after ?? 99) < 3, "\(test.name): the export ran on \(String(describing: after)) s after its revocation")
            #expect(bytes.count < 12_000_000, "\(test.name): \(bytes.count) bytes arrived")
            #expect(!bytes.suffix(5).elementsEqual(Array("0\r\n\r\n".utf8)), "\(test.name): the body ended as if whole")
            // And the revoked viewer is refused from now on.
            #expect(try fixture.server.api(token).call("GET", path).status != 200, "\(test.name)")
        }
        // The owner's exports are untouched.
        #expect(try api.call("GET", path).status == 200)
    }
}
