import Foundation
import Testing
@testable import SheetPortReader
@testable import SheetPortClient
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortConvert
@testable import SheetPortServer

extension ServerTests {
    /// `Range: bytes=N-` of the same export answers 206 from byte N with `Content-Range`, and
    /// the bytes are the full download's from N; a stale or foreign `If-Range`, and every range
    /// form but one open-ended `bytes=N-` of plain digits, gets the whole workbook (200); a
    /// start at or past the end answers 416; a comment added changes the tag.
    @Test func exportResumesWithRangeOfTheSameVersion() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let api = fixture.api
        let sheet = try api.importSheet(try makeStyledWorkbook(in: fixture.folder, rows: 400))
        let path = "/api/sheets/\(sheet)/export.xlsx"
        let full = try api.call("GET", path)
        #expect(full.status == 200 && full.header("Accept-Ranges") == "bytes")
        let tag = try #require(full.header("ETag"))
        let length = full.body.count
        #expect(length > 1_000)

        for start in [0, 1, length / 2, length - 1] {
            for condition in [tag, nil] {
                let headers = [("Range", "bytes=\(start)-")] + (condition.map { [("If-Range", $0)] } ?? [])
                let part = try api.call("GET", path, headers: headers)
                #expect(part.status == 206, "from \(start)")
                #expect(part.header("Content-Range") == "bytes \(start)-\(length - 1)/\(length)")
                #expect(part.header("Content-Length") == String(length - start))
                #expect(part.header("X-Sheet-Version") == "1" && part.header("ETag") == tag)
                #expect(part.body == Array(full.body[start...]), "from \(start)")
            }
        }
        // Not a range this server resumes: the whole workbook.
        let hostile = ["bytes=-5", "bytes=5-10", "bytes=1-,3-", "bytes=abc-", "bytes=+5-", "bytes=0x10-", "items=5-",
                       "bytes=99999999999999999999999-", "bytes=-", "bytes=5", "bytes=1e3-", "bytes=" + String(repeating: "9", count: 500) + "-"]
        for range in hostile {
            let answer = try api.call("GET", path, headers: [("Range", range), ("If-Range", tag)])
            #expect(answer.status == 200 && answer.body == full.body, "\(range): \(answer.status)")
        }
        for condition in ["\"other\"", "W/\(tag)", "Tue, 01 Dec 2026 07:00:00 GMT", tag.replacingOccurrences(of: ".1.", with: ".2.")] {
            let answer = try api.call("GET", path, headers: [("Range", "bytes=10-"), ("If-Range", condition)])
            #expect(answer.status == 200 && answer.body == full.body, "If-Range \(condition)")
        }
        for start in [length, length + 1, 1 << 60] {
            let answer = try api.call("GET", path, headers: [("Range", "bytes=\(start)-"), ("If-Range", tag)])
            #expect(answer.status == 416, "from \(start)")
            #expect(answer.header("Content-Range") == "bytes */\(length)")
        }

        // A comment keeps the version but changes the bytes: the old tag no longer resumes.
        #expect(try api.call("POST", "/api/sheets/\(sheet)/comments", json: ["ref": "C3", "text": "later"]).status == 201)
        let commented = try api.call("GET", path, headers: [("Range", "bytes=10-"), ("If-Range", tag)])
        #expect(commented.status == 200 && commented.header("ETag") != tag && commented.body != full.body)
        #expect(try api.call("GET", path, headers: [("Range", "bytes=10-"), ("If-Range", try #require(commented.header("ETag")))]).status == 206)
    }

    /// Exports at once are capped: with `--exports 1`, an export whose client does not read
    /// (a 4 KiB receive window, an answer of several MB) holds the only slot, and a second
    /// answers 503 with `Retry-After`; once the first connection goes, exports run again.
    @Test func exportsPastTheCapAnswer503WithRetryAfter() throws {
        let fixture = try ServerFixture { $0.exportsAtOnce = 1 }
        defer { fixture.close() }
        let api = fixture.api
        let (stalled, path) = try stalledExport(fixture)

        let refused = try api.call("GET", path)
        #expect(refused.status == 503, "\(refused.status) \(refused.text.prefix(200))")
        #expect(refused.header("Retry-After") == "1")
        #expect((refused.object["error"] as? [String: Any])?["code"] as? String == "busy")

        stalled.close()
        var again = 0
        let resumed = try eventually(within: 30) {
            again = try api.call("GET", path).status
            return again == 200
        }
        #expect(resumed, "after the stalled export went: \(again)")
    }

    /// An import job's progress `bytes` is the worksheet part's size once the job ends, also
    /// for a small job read in one buffer (it used to read 0).
    @Test func importProgressBytesStayAfterTheJobEnds() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let book = try makeStyledWorkbook(in: fixture.folder, rows: 5)
        let job = try fixture.api.importWorkbook(book)
        #expect(job["status"] as? String == "succeeded")
        let workbook = try Workbook(path: book)
        let reader = try workbook.rows(of: try #require(workbook.firstWorksheet))
        while try reader.nextRow() != nil {}
        let size = reader.progress.totalBytes
        #expect(size > 0 && reader.progress.bytesRead == size)
        let again = try fixture.api.wait(for: try #require(job["id"] as? String))
        #expect((again["progress"] as? [String: Any])?["bytes"] as? Int == Int(size), "\(again)")
    }
}
