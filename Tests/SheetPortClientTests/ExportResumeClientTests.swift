import Foundation
import Testing
@testable import SheetPortClient
import SheetPortTestSupport

/// The client's resume path against the real server's 206.
@Suite(.serialized) struct ExportResumeClientTests {
    /// A download cut off after 300 KB (a real TCP relay) resumes with `Range` and `If-Range`
    /// from what is staged: the staged size never falls back (a start-over truncates it) and
    /// the published workbook is byte for byte the server's whole export.
    @Test func aCutDownloadResumesFromTheStagedBytes() throws {
        let server = try ClientFixture()
        defer { server.stop() }
        let connection = try server.connection(subject: "alice")
        let sheet = try server.importWorkbook(try makeTextWorkbook(rows: 600, in: server.folder), as: connection)
        let relay = try DroppingRelay(targetPort: server.port, cutting: "GET /api/sheets/\(sheet.id)/export.xlsx", afterBytes: 300_000)
        let viaRelay = try ServerConnection(url: "http://127.0.0.1:\(relay.port)",
                                            token: try ServerConnection.token(file: try server.tokenFile(subject: "alice")))
        let destination = server.folder.appendingPathComponent("resumed.xlsx").path
        var sizes: [Int64] = []
        let outcome = try ExportTransfer(sheet: sheet, destination: destination).run(on: viaRelay, client: HTTPClient(timeout: 60)) {
            sizes.append($0)
        }
        #expect(relay.dropped, "the relay never cut the download")
        #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 <= $1 }, "the staged bytes fell back: a start-over, not a resume")
        #expect(sizes.contains { $0 > 0 && $0 < 300_000 } && sizes.contains { $0 > 300_000 })
        let whole = try HTTPClient().send(HTTPRequest(url: server.url + "/api/sheets/\(sheet.id)/export.xlsx",
                                                      headers: [("Authorization", "Bearer \(try server.server.token("alice"))")]))
        #expect(whole.status == 200 && whole.body.count > 300_000)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: destination))) == whole.body)
        #expect(outcome.bytes == Int64(whole.body.count))
    }
}
