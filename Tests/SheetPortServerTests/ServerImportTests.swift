import Foundation
import Testing
@testable import SheetPortClient
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert
@testable import SheetPortServer

extension ServerTests {
    /// After importing (and exporting) a workbook with distinctive strings and a comment, no
    /// file in the data directory (database, WAL, shared memory, staging, key) holds them.
    @Test func nothingIsStoredInPlaintext() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let (folder, server, api) = (fixture.folder, fixture.server, fixture.api)
        let workbook = try makeStyledWorkbook(in: folder, rows: 300)
        let job = try api.importWorkbook(workbook)
        #expect(job["status"] as? String == "succeeded", "\(job)")
        let sheet = try #require(((job["result"] as? [String: Any])?["sheet"] as? [String: Any])?["id"] as? String)
        // The strings are there to be found through the API ...
        let rows = try api.call("GET", "/api/sheets/\(sheet)/rows?start=1&count=5").text
        #expect(rows.contains(Distinctive.cell) && rows.contains(Distinctive.formulaText))
        #expect(try api.call("GET", "/api/sheets/\(sheet)/comments").text.contains(Distinctive.comment))
        let export = try api.call("GET", "/api/sheets/\(sheet)/export.xlsx")
        #expect(export.status == 200 && export.body.count > 1000)
        // ... and nowhere on disk, while the server runs (WAL not checkpointed) and after it stops.
        for moment in ["running", "stopped"] {
            if moment == "stopped" { server.stop() }
            let files = filesUnder(server.data)
            #expect(files.contains { $0.hasSuffix("sheetport.db") } || server.databaseURL != nil)
            var scanned = 0
            for file in files {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
                scanned += bytes.count
                for secret in Distinctive.all {
                    #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) in plaintext in \(file) (\(moment))")
                    #expect(bytes.range(of: Data(secret.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })) == nil)
                }
            }
            print("plaintext scan (\(moment)): \(files.count) files, \(scanned) bytes under the data dir, 0 hits for \(Distinctive.all.count) distinctive strings")
        }
        // The staging folder is empty once the job ended.
        #expect(isEmptySoon(server.data + "/staging"))
        // The data directory and the key are private.
        var status = stat()
        stat(server.data, &status)
        #expect(status.st_mode & 0o777 == 0o700)
        // With a shared database the key is the --key-file, beside the scratch folder.
        stat(server.databaseURL == nil ? server.data + "/seal.key" : folder.appendingPathComponent("seal.key").path, &status)
        #expect(status.st_mode & 0o777 == 0o600)
    }

    /// Caps: an upload over `maxUploadBytes` gets 413 and stores nothing (by Content-Length and
    /// while streaming); a workbook over `maxCells` fails its job with `exceeds-limit`; a
    /// filename that is not xlsx/xlsm gets 415; hostile corpus files fail with their codes.
    @Test func capsAndHostileFiles() throws {
        let fixture = try ServerFixture { ($0.maxUploadBytes, $0.maxCells) = (128 << 10, 1000) }
        defer { fixture.close() }
        let (folder, server, api) = (fixture.folder, fixture.server, fixture.api)
        let limits = try server.api(nil).object("/api/limits")
        #expect(limits["maxUploadBytes"] as? Int == 131_072 && limits["maxCells"] as? Int == 1000)
        #expect(limits["maxRows"] as? Int == 1_048_576 && limits["maxColumns"] as? Int == 16_384 && limits["maxCellTextLength"] as? Int == 32_767)

        let big = folder.appendingPathComponent("big.xlsx").path
        FileManager.default.createFile(atPath: big, contents: Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }))
        let refused = try api.upload(big)
        #expect(refused.status == 413 && refused.text.contains("too-large") && refused.header("Cache-Control") == "no-store")
        // Streamed with no Content-Length (chunked): refused once past the cap.
        let chunked = try api.call("POST", "/api/imports", body: .file(big),
                                   headers: [("X-Filename", "big.xlsx"), ("Transfer-Encoding", "chunked")])
        #expect(chunked.status == 413, "\(chunked.status) \(chunked.text)")
        #expect((try api.object("/api/imports")["jobs"] as? [Any])?.isEmpty == true)
        #expect(isEmptySoon(server.data + "/staging"))

        let csv = try api.upload(try makeStyledWorkbook(in: folder), filename: "data.csv")
        #expect(csv.status == 415)

        // 170 rows x 6 columns = 1,020 cells in the used range: over 1,000.
        let tooMany = try makeStyledWorkbook(in: folder, name: "many.xlsx", rows: 170)
        let failed = try api.importWorkbook(tooMany)
        #expect(failed["status"] as? String == "failed")
        #expect((failed["error"] as? [String: Any])?["code"] as? String == "exceeds-limit", "\(failed)")
        #expect((try api.object("/api/sheets")["sheets"] as? [Any])?.isEmpty == true)

        let hostile: [(String, String)] = [
            ("poi__protect.xlsx", "encrypted-workbook"), ("roo__type_excel.xlsx", "legacy-xls"),
            ("roo__type_openoffice.xlsx", "ods-workbook"), ("poi__poc-xmlbomb.xlsx", "forbidden-dtd"),
            ("poi__clusterfuzz-testcase-minimized-POIFuzzer-5040805309710336.xlsx", "corrupt-zip"),
            ("exceljs__invalid-xml.xlsx", "malformed-xml"),
        ]
        for (name, code) in hostile {
            let path = Project.corpus.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path) else { Issue.record("missing corpus file \(name)"); continue }
            let job = try api.importWorkbook(path)
            #expect(job["status"] as? String == "failed", "\(name)")
            #expect((job["error"] as? [String: Any])?["code"] as? String == code, "\(name): \(job)")
        }
        // A zip bomb is past this 128 KiB upload cap: see zipBombUploadIsRefused.
        #expect((try api.object("/api/sheets")["sheets"] as? [Any])?.isEmpty == true)
        #expect(isEmptySoon(server.data + "/staging"))
    }

    /// Cancelling a job leaves no sheet; the job says cancelled.
    @Test func cancelLeavesNothing() throws {
        let fixture = try ServerFixture { $0.workers = 1 }
        defer { fixture.close() }
        let (folder, server, api) = (fixture.folder, fixture.server, fixture.api)
        let big = try makeLargeWorkbook(rows: 20_000, in: folder)
        let first = try #require(API.job(try api.upload(big).body)?["id"] as? String)
        let second = try #require(API.job(try api.upload(big).body)?["id"] as? String)
        usleep(300_000)
        for id in [first, second] {
            let response = try api.call("DELETE", "/api/imports/\(id)")
            #expect(response.status == 200 || response.status == 409, "\(response.text)")
        }
        for id in [first, second] {
            let job = try api.wait(for: id)
            #expect(["cancelled", "succeeded"].contains(job["status"] as? String ?? ""))
        }
        usleep(500_000)
        let sheets = try api.object("/api/sheets")["sheets"] as? [[String: Any]] ?? []
        let succeeded = try [first, second].filter { try api.wait(for: $0)["status"] as? String == "succeeded" }
        #expect(sheets.count == succeeded.count)
        #expect(isEmptySoon(server.data + "/staging"))
    }
}
