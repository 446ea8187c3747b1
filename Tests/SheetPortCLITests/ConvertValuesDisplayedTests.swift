import Foundation
import Testing
import SheetPortTestSupport

/// `convert --values displayed`: each value as its number format shows it (Core's
/// `NumberFormatRenderer`), with `--date-format`, to JSON, and the flag's refusal.
@Suite struct ConvertValuesDisplayedTests {
    @Test func convertValuesDisplayed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        typealias W = RawWorkbook
        let path = folder.appendingPathComponent("shown.xlsx").path
        try RawWorkbook(sheets: [W.Sheet(name: "S", sheetData: W.row(1, W.text("A1", "p"), W.text("B1", "n"), W.text("C1", "d"), W.text("D1", "g"))
                                         + W.row(2, W.number("A2", "0.9876", style: 1), W.number("B2", "1234.5", style: 2), W.number("C2", "45322", style: 3),
                                                 W.number("D2", "0.30000000000000004")))],
                        numberFormats: [(10, "0.00%"), (4, "#,##0.00"), (165, "dd/mm/yyyy")]).write(to: path)
        let csv = try runSheetport(["convert", path, "--values", "displayed"])
        #expect(String(decoding: csv.stdout, as: UTF8.self) == "p,n,d,g\r\n98.76%,\"1,234.50\",31/01/2024,0.3\r\n", "\(csv.stderr)")
        let dated = try runSheetport(["convert", path, "--values", "displayed", "--date-format", "%Y.%m.%d"])
        #expect(String(decoding: dated.stdout, as: UTF8.self).hasSuffix("98.76%,\"1,234.50\",2024.01.31,0.3\r\n"))
        let json = try runSheetport(["convert", path, "--values", "displayed", "--to", "json"])
        #expect(String(decoding: json.stdout, as: UTF8.self) == "[\n{\"p\":\"98.76%\",\"n\":\"1,234.50\",\"d\":\"31/01/2024\",\"g\":\"0.3\"}\n]\n")
        let raw = try runSheetport(["convert", path, "--values", "raw", "--to", "tsv"])
        #expect(String(decoding: raw.stdout, as: UTF8.self).hasSuffix("0.9876\t1234.5\t2024-01-31\t0.30000000000000004\n"))
        let bad = try runSheetport(["convert", path, "--values", "shown\u{1B}"])
        #expect(bad.status == 2 && bad.stderr.contains("--values") && !bad.stderr.contains("\u{1B}"))
    }

    /// Numbers in Text-format (`@`) cells show as General (issue 39, item 4): built-in 49 and a
    /// custom text section; text in them keeps its section.
    @Test func numbersInTextFormatCellsAreShown() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        typealias W = RawWorkbook
        let path = folder.appendingPathComponent("text-format.xlsx").path
        try RawWorkbook(sheets: [W.Sheet(name: "S", sheetData: W.row(1, W.text("A1", "a"), W.text("B1", "b"), W.text("C1", "c"))
                                         + W.row(2, W.number("A2", "42", style: 1), W.number("B2", "-1.25E-3", style: 2), W.text("C2", "x")))],
                        numberFormats: [(49, "@"), (165, "\"ID \"@")]).write(to: path)
        let csv = try runSheetport(["convert", path, "--values", "displayed"])
        #expect(String(decoding: csv.stdout, as: UTF8.self) == "a,b,c\r\n42,-0.00125,x\r\n", "\(csv.stderr)")
        let ndjson = try runSheetport(["convert", path, "--values", "displayed", "--to", "ndjson"])
        #expect(String(decoding: ndjson.stdout, as: UTF8.self) == "{\"a\":\"42\",\"b\":\"-0.00125\",\"c\":\"x\"}\n", "\(ndjson.stderr)")
    }
}
