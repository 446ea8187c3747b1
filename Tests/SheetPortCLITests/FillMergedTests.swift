import Foundation
import Testing
import SheetPortTestSupport

/// `convert --fill-merged`: a merged range's value in every cell of it (as xlsx2csv -m).
@Suite struct FillMergedTests {
    @Test func mergedValuesFillTheirRanges() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        typealias W = RawWorkbook
        // A1:B1 across, C1:C3 down (rows 2 and 3 have no row element), A2 alone; a range below the last row.
        var sheet = W.Sheet(name: "M", sheetData: W.row(1, W.text("A1", "head,er"), W.number("C1", "7")) + W.row(4, W.text("A4", "x")))
        sheet.afterSheetData = #"<mergeCells count="3"><mergeCell ref="A1:B1"/><mergeCell ref="C1:C3"/><mergeCell ref="A4:A5"/></mergeCells>"#
        let path = folder.appendingPathComponent("merged.xlsx").path
        try RawWorkbook(sheets: [sheet]).write(to: path)
        let plain = try runSheetport(["convert", path])
        #expect(String(decoding: plain.stdout, as: UTF8.self) == "\"head,er\",,7\r\n,,\r\n,,\r\nx,,\r\n")
        let filled = try runSheetport(["convert", path, "--fill-merged"])
        #expect(String(decoding: filled.stdout, as: UTF8.self) == "\"head,er\",\"head,er\",7\r\n,,7\r\n,,7\r\nx,,\r\nx,,\r\n", "\(filled.stderr)")
        let records = try runSheetport(["convert", path, "--fill-merged", "--to", "ndjson"])
        #expect(String(decoding: records.stdout, as: UTF8.self).split(separator: "\n").count == 4)
    }
}
