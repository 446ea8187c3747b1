import Foundation
import Testing
@testable import SheetPort

extension ServerTests {
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
