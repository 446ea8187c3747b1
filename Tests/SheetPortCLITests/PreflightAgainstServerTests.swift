import Foundation
import Testing
@testable import SheetPortClient
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert
@testable import SheetPortServer

/// `check --server` and `import`'s pre-flight use the real server's caps, and `import` stops
/// before uploading what would fail.
@Suite struct PreflightAgainstServerTests {
    @Test func checkAndImportApplyTheServersCapsAndUploadNothingThatWouldFail() throws {
        let server = try ClientFixture { ($0.maxCells, $0.maxUploadBytes) = (500, 2 << 20) }
        defer { server.stop() }
        let tokenFile = try server.tokenFile(subject: "alice")
        let book = try makeLargeWorkbook(rows: 100, in: server.folder) // 1,000 cells
        #expect(try runSheetport(["check", book]).status == 0)
        let check = try runSheetport(["check", book, "--server", server.url, "--token-file", tokenFile, "--json"])
        #expect(check.status == 1, "\(check.stderr)")
        #expect(String(decoding: check.stdout, as: UTF8.self).contains("over the limit of 500"))

        let imported = try runSheetport(["import", book, "--server", server.url, "--token-file", tokenFile, "--wait", "--no-progress"])
        #expect(imported.status == 1)
        #expect(imported.stderr.contains("not importable; nothing was uploaded"), "\(imported.stderr)")
        let notAWorkbook = server.folder.appendingPathComponent("notes.xlsx")
        try Data("just text".utf8).write(to: notAWorkbook)
        let refused = try runSheetport(["import", notAWorkbook.path, "--server", server.url, "--token-file", tokenFile])
        #expect(refused.status == 1)
        #expect(String(decoding: refused.stdout, as: UTF8.self).contains("not-a-zip"))
        let connection = try ServerConnection(url: server.url, token: try ServerConnection.token(file: tokenFile))
        #expect(try connection.jobs(client: HTTPClient()).isEmpty)

        let large = try makeBulkyWorkbook(megabytes: 3, in: server.folder)
        let tooLarge = try runSheetport(["check", large, "--server", server.url, "--token-file", tokenFile])
        #expect(tooLarge.status == 1)
        #expect(String(decoding: tooLarge.stdout, as: UTF8.self).contains("upload limit of 2097152 bytes"))
    }

    @Test func withoutATokenTheClientSaysHowToGiveOne() throws {
        let result = try runSheetport(["export", "--all", "--server", "http://127.0.0.1:9", "--out", "/tmp/unused"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--token-file FILE or set SHEETPORT_TOKEN"), "\(result.stderr)")
    }
}
