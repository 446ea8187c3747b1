import Foundation
import Testing
import SheetPortCore
import SheetPortReader
import SheetPortWriter
import SheetPortConvert
import SheetPortTestSupport

/// CSV and TSV find the used range's width without decoding the sheet twice: one decoding pass
/// (the width comes from a scan of the cells' tags), records as wide as the cells reach.
@Suite struct SinglePassConvertTests {
    @Test(arguments: [TextFormat.csv, .tsv])
    func aDelimitedConversionDecodesTheSheetOnce(format: TextFormat) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        typealias W = RawWorkbook
        let data = W.row(1, W.text("A1", "x")) + W.row(3, W.number("C3", "3"))
        let path = folder.appendingPathComponent("once.xlsx").path
        try RawWorkbook(sheets: [W.Sheet(name: "S", sheetData: data, dimension: "A1:XFD1048576")]).write(to: path)
        let workbook = try Workbook(path: path)
        let output = ByteOutput(collectingAs: "out")
        try SheetConverter.convert(workbook, sheet: try #require(workbook.firstWorksheet), to: format, output: output)
        #expect(workbook.worksheetPasses == 1)
        let separator = format == .csv ? "," : "\t", newline = format == .csv ? "\r\n" : "\n"
        #expect(String(decoding: output.takeBytes(), as: UTF8.self)
                == ["x", "", ""].joined(separator: separator) + newline + separator + separator + newline
                + ["", "", "3"].joined(separator: separator) + newline)
    }
}
