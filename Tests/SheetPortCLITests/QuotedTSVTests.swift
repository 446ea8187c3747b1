import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortWriter
@testable import SheetPortConvert
import SheetPortTestSupport

/// TSV input with quoted fields as Excel and pandas write them (Docs/Reference/Formats.md, "CSV and TSV";
/// round), for `.tsv`, `.txt` and sniffed tab-separated input; SheetPort's own TSV reads back.
@Suite struct QuotedTSVTests {
    /// What Excel's "Text (Tab delimited)" and pandas' `to_csv(sep="\t")` write for a tab, a
    /// line break and quotes inside a field.
    static let excelTSV = "name\tnote\tn\n\"Smith\tJo\"\t\"line 1\nline 2\"\t1\n\"say \"\"hi\"\"\"\tC:\\temp\t2\n\"\"\t\"a\r\nb\"\t3\n"

    @Test(arguments: ["data.tsv", "data.txt", "data"])
    func quotedFieldsHoldTabsLineBreaksAndQuotes(_ name: String) throws {
        let result = try convertText(Array(Self.excelTSV.utf8), name: name, name == "data" ? ["--from", "tsv"] : [])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.rows.count == 4)
        #expect(result.rows.map { $0.cells.map(\.value) } == [
            [.string("name"), .string("note"), .string("n")],
            [.string("Smith\tJo"), .string("line 1\nline 2"), .number(1)],
            [.string("say \"hi\""), .string("C:\temp"), .number(2)], // unquoted: SheetPort's backslash escapes
            [.string("a\r\nb"), .number(3)],
        ])
        #expect(result.rows[3].cells.first?.column == 2)
    }

    @Test func sniffedTabSeparatedStandardInputIsQuotedToo() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.xlsx").path
        let result = try runSheetport(["convert", "-", "-o", output], input: Data(Self.excelTSV.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let book = try Workbook(path: output)
        let reader = try book.rows(of: #require(book.firstWorksheet))
        var count = 0
        while try reader.nextRow() != nil { count += 1 }
        #expect(count == 4)
    }

    @Test(arguments: ["\"open\tfield\n", "\"a\"b\tc\n", "\"a\"\u{0}\n"])
    func aBrokenQuotedFieldNamesTheFileAndLine(_ text: String) throws {
        let result = try convertText(Array(("h\n" + text).utf8), name: "bad.tsv")
        #expect(result.status != 0)
        #expect(result.stderr.contains("bad.tsv") && result.stderr.contains("line"), "\(result.stderr)")
        #expect(!result.stderr.dropLast().containsControlCharacters, "\(result.stderr)")
        #expect(result.files.isEmpty)
    }

    @Test func sheetPortsOwnTSVReadsBack() throws {
        let texts = ["\"quoted\"", "\"", "a\tb", "x\ny\rz", "back\\slash", "\"lead\ttab", "trail\"", String(repeating: "\"", count: 40)]
        let output = ByteOutput(collectingAs: "own")
        var writer = DelimitedWriter(output: output, dialect: .tsv, dateSystem: .excel1900)
        try writer.write(Row(index: 1, cells: texts.enumerated().map { Cell(column: $0.offset + 1, value: .string($0.element)) }), dimension: nil)
        let read = try convertText(output.takeBytes(), name: "own.tsv", ["--no-infer"])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.rows.first?.cells.map(\.value) == texts.map { .string($0) })
    }
}
