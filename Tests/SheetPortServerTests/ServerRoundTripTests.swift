import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert
@testable import SheetPortClient
import SheetPortTestSupport

extension ServerTests {
    /// xlsx and xlsm imports: the exported workbook's first worksheet has the same values,
    /// formulas and kept formatting (cell JSONL with `style`), row heights, column widths and
    /// comments as the uploaded one's.
    @Test func importThenExportKeepsTheFirstWorksheet() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let (folder, api) = (fixture.folder, fixture.api)
        let workbooks = [try makeStyledWorkbook(in: folder)] + ["roo__datetime.xlsm", "calamine__issue221.xlsm", "roo__numbers1.xlsm", "calamine__date.xlsx"]
            .map { Project.corpus.appendingPathComponent($0).path }
        for (index, path) in workbooks.enumerated() {
            let job = try api.importWorkbook(path)
            #expect(job["status"] as? String == "succeeded", "\(path): \(job)")
            let sheet = try #require(((job["result"] as? [String: Any])?["sheet"] as? [String: Any])?["id"] as? String)
            let exported = folder.appendingPathComponent("export-\(index).xlsx").path
            // Streamed to a file through HTTPClient's sink, chunk by chunk.
            FileManager.default.createFile(atPath: exported, contents: nil)
            let output = try FileHandle(forWritingTo: URL(fileURLWithPath: exported))
            var received = 0
            let head = try HTTPClient().send(HTTPRequest(url: api.base + "/api/sheets/\(sheet)/export.xlsx",
                                                         headers: [("Authorization", "Bearer \(api.token!)")])) { head, chunk in
                #expect(head.status == 200)
                output.write(Data(chunk))
                received += chunk.count
            }
            try output.close()
            #expect(head.status == 200 && head.header("X-Sheet-Version") == "1")
            // Sent as it is written: chunked, with no length announced.
            #expect(head.header("Content-Length") == nil && head.header("Transfer-Encoding")?.lowercased() == "chunked")
            #expect(received > 0)

            let original = try jsonObjects(try convert(path, to: .jsonl))
            let roundTripped = try jsonObjects(try convert(exported, to: .jsonl))
            #expect(original == roundTripped, "\(path)")
            #expect(!original.isEmpty)
            let (originalBook, exportedBook) = (try Workbook(path: path), try Workbook(path: exported))
            let (first, second) = (try originalBook.rows(of: originalBook.firstWorksheet!), try exportedBook.rows(of: exportedBook.firstWorksheet!))
            var heights: [Int: Double] = [:], exportedHeights: [Int: Double] = [:]
            while let row = try first.nextRow() { if let height = row.height { heights[row.index] = height } }
            while let row = try second.nextRow() { if let height = row.height { exportedHeights[row.index] = height } }
            #expect(heights == exportedHeights, "\(path)")
            let widths = first.metadata.columns.filter { $0.width != nil }.map { [$0.first, $0.last, Int($0.width! * 100)] }
            let exportedWidths = second.metadata.columns.filter { $0.width != nil }.map { [$0.first, $0.last, Int($0.width! * 100)] }
            #expect(widths == exportedWidths, "\(path)")
            let comments = try originalBook.comments(of: originalBook.firstWorksheet!).map { [$0.reference, $0.text] }
            #expect(try exportedBook.comments(of: exportedBook.firstWorksheet!).map { [$0.reference, $0.text] } == comments, "\(path)")
            // The row window API shows the same cells.
            let rows = try api.object("/api/sheets/\(sheet)/rows?start=1&count=5000")
            let cells = (rows["rows"] as? [[String: Any]] ?? []).flatMap { $0["cells"] as? [[String: Any]] ?? [] }
            #expect(cells.count == original.count)
            #expect(rows["version"] as? Int == 1)
        }
    }
}
