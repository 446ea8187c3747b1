import Foundation
import Testing
@testable import SheetPort

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
        let fixture = try ServerFixture(["--exports", "4"])
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
}
