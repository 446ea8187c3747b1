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

    /// The scan runs while the rows are read: rows read before it ends are held and written as
    /// wide as the rows after, whatever the two threads' timing (three runs, whole and with
    /// `--limit`); the widest cell is in the last row, so that only the scan's end knows the width.
    @Test func rowsReadWhileTheScanRunsAreAsWideAsTheRest() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        typealias W = RawWorkbook
        let rows = 30_000
        var data = (1..<rows).map { W.row($0, W.number("A\($0)", String($0))) }.joined()
        data += W.row(rows, W.text("A\(rows)", "a,\"b\""), W.number("Z\(rows)", "-1.5E-3"))
        let path = folder.appendingPathComponent("late.xlsx").path
        try RawWorkbook(sheets: [W.Sheet(name: "S", sheetData: data, dimension: "A1")]).write(to: path)
        let padding = String(repeating: ",", count: 25)
        let expected = (1..<rows).map { "\($0)" + padding + "\r\n" }.joined() + "\"a,\"\"b\"\"\"" + padding + "-0.0015\r\n"
        for _ in 0..<3 {
            let workbook = try Workbook(path: path)
            let output = ByteOutput(collectingAs: "out")
            try SheetConverter.convert(workbook, sheet: try #require(workbook.firstWorksheet), to: .csv, output: output)
            #expect(String(decoding: output.takeBytes(), as: UTF8.self) == expected)
            var options = TextOutputOptions()
            options.limit = 2
            try SheetConverter.convert(workbook, sheet: try #require(workbook.firstWorksheet), to: .csv, output: output, options: options)
            #expect(String(decoding: output.takeBytes(), as: UTF8.self) == "1" + padding + "\r\n2" + padding + "\r\n")
        }
    }

    /// Damaged compressed data in the worksheet is reported as the damage, naming the file and
    /// the part, and no record is written: the scan meets it before the width is known, and a
    /// read that meets it first waits for the scan's verdict.
    @Test(arguments: [("crc_damage.xlsx", "CRC-32"), ("inflate_damage.xlsx", "cannot be inflated")])
    func damagedDataWritesNoRecord(_ name: String, _ reason: String) throws {
        let path = Project.root.appendingPathComponent("Fixtures/heldout/\(name)").path
        for format in [TextFormat.csv, .tsv] {
            let workbook = try Workbook(path: path)
            let output = ByteOutput(collectingAs: "out")
            #expect {
                try SheetConverter.convert(workbook, sheet: try #require(workbook.firstWorksheet), to: format, output: output)
            } throws: { error in
                let error = error as? ReaderError
                return error?.code == .corruptZip && error?.file == path && error?.part == "xl/worksheets/sheet1.xml"
                    && error?.message.contains(reason) == true
            }
            #expect(output.takeBytes().isEmpty)
        }
    }
}
