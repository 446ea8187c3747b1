import Foundation
import Testing
@testable import SheetPortCore
import SheetPortTestSupport

/// `--to ndjson`, `--skip-empty-rows`, `--skip-empty-columns`, `--line-ending`, `--date-format`,
/// and times at midnight.
@Suite struct TextOutputOptionsTests {
    /// Runs `convert BOOK args` and returns standard output (expecting success).
    private func converted(_ book: String, _ arguments: [String]) throws -> String {
        let result = try runSheetport(["convert", book] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return String(decoding: result.stdout, as: UTF8.self)
    }

    private func workbook(_ sheetData: String, dimension: String? = nil, formats: [(Int, String)] = [],
                          in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("book-\(UUID().uuidString).xlsx").path
        try RawWorkbook(sheets: [RawWorkbook.Sheet(name: "Data", sheetData: sheetData, dimension: dimension)],
                        numberFormats: formats).write(to: path)
        return path
    }

    @Test func recordsAreKeyedByTheHeaderRow() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        typealias W = RawWorkbook
        let book = try workbook(
            W.row(2, W.text("A2", "id"), W.text("B2", "name"), W.text("D2", "name"), W.text("E2", "when"), W.text("F2", "ok"), W.text("G2", "e"), W.text("H2", "q\"_x0001_"))
            + W.row(3, W.number("A3", "1"), W.text("B3", "Ann\n\"x\""), W.number("E3", "45322.5", style: 1),
                    "<c r=\"F3\" t=\"b\"><v>1</v></c>", "<c r=\"G3\" t=\"e\"><v>#DIV/0!</v></c>", W.number("I3", "0.1"))
            + W.row(5, W.number("A5", "2"), W.text("C5", "")),
            formats: [(22, "m/d/yy h:mm")], in: folder)
        let text = try converted(book, ["--to", "ndjson", "--keep-empty-rows"])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines.count == 4 && lines[3].isEmpty, "\(text)")
        #expect(lines[0] == ##"{"id":1,"name":"Ann\n\"x\"","col_C":null,"name_2":null,"when":"2024-01-31T12:00:00.000","ok":true,"e":{"error":"#DIV/0!"},"q\"\u0001":null,"col_I":0.1}"##)
        #expect(lines[1] == ##"{"id":null,"name":null,"col_C":null,"name_2":null,"when":null,"ok":null,"e":null,"q\"\u0001":null}"##)
        #expect(lines[2] == ##"{"id":2,"name":null,"col_C":null,"name_2":null,"when":null,"ok":null,"e":null,"q\"\u0001":null}"##)
        for line in lines.dropLast() { #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any]) }
        // By default a row with no value is no record (issue 22).
        #expect(try converted(book, ["--to", "ndjson"]) == lines[0] + "\n" + lines[2] + "\n")
        // Empty rows skipped; a chosen header row; columns with no value dropped (C: only empty text).
        let skipped = try converted(book, ["--to", "ndjson", "--skip-empty-rows", "--skip-empty-columns"])
        #expect(skipped.split(separator: "\n").count == 2)
        #expect(skipped.hasSuffix(#"{"id":2,"name":null,"name_2":null,"when":null,"ok":null,"e":null,"q\"\u0001":null,"col_I":null}"# + "\n"), "\(skipped)")
        let third = try converted(book, ["--to", "ndjson", "--header-row", "3", "--keep-empty-rows"])
        #expect(third.hasPrefix(#"{"1":null,"Ann\n\"x\"":null,"col_C":null,"#), "\(third)")
    }

    @Test func repeatedHeaderNamesGetSuffixesThatDoNotCollide() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        typealias W = RawWorkbook
        let book = try workbook(W.row(1, W.text("A1", "a"), W.text("B1", "a"), W.text("C1", "a_2"), W.text("D1", "a"), W.text("F1", "col_E"))
                                + W.row(2, W.number("A2", "1")), in: folder)
        let keys = try #require(try JSONSerialization.jsonObject(with: Data(try converted(book, ["--to", "ndjson"]).utf8)) as? [String: Any]).keys
        #expect(Set(keys) == ["a", "a_2", "a_2_2", "a_3", "col_E", "col_E_2"])
    }

    @Test(arguments: [["--header-row", "0"], ["--header-row", "-1"], ["--header-row", "1048577"], ["--header-row", "x\u{1B}"],
                      ["--header-row", "99999999999999999999"]])
    func badHeaderRowsAreRefused(_ arguments: [String]) throws {
        let result = try runSheetport(["convert", Project.fixture("multi_sheet.xlsx"), "--to", "ndjson"] + arguments)
        #expect(result.status == 2 && result.stderr.contains("--header-row"))
        #expect(!result.stderr.contains("\u{1B}"))
    }

    @Test func headerRowPastTheEndWritesNothing() throws {
        #expect(try converted(Project.fixture("multi_sheet.xlsx"), ["--sheet", "Data", "--to", "ndjson", "--header-row", "1048576"]).isEmpty)
    }

    @Test func emptyColumnsAcrossTheWholeSheetAreDropped() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        typealias W = RawWorkbook
        // The dimension reaches XFD, as some producers write it; only B and E hold values.
        let book = try workbook(W.row(1, W.text("B1", "b")) + W.row(3, W.text("A3", ""), W.number("E3", "5")) + W.row(4, W.text("C4", "")),
                                dimension: "A1:XFD4", in: folder)
        let plain = try converted(book, [])
        #expect(plain == ",b,,,\r\n,,,,\r\n,,,,5\r\n") // as wide as the used range, not the dimension
        #expect(try converted(book, ["--skip-empty-columns"]) == "b,\r\n,\r\n,5\r\n")
        #expect(try converted(book, ["--skip-empty-columns", "--skip-empty-rows"]) == "b,\r\n,5\r\n")
        #expect(try converted(book, ["--skip-empty-rows", "--line-ending", "lf"]).split(separator: "\n").count == 2)
        #expect(try converted(book, ["--skip-empty-columns", "--to", "tsv"]) == "b\t\n\t\n\t5\n")
    }

    @Test func lineEndings() throws {
        let book = Project.fixture("multi_sheet.xlsx")
        let crlf = try converted(book, ["--sheet", "Data"])
        #expect(crlf.contains("\r\n"))
        #expect(try converted(book, ["--sheet", "Data", "--line-ending", "crlf"]) == crlf)
        #expect(try converted(book, ["--sheet", "Data", "--line-ending", "LF"]) == crlf.replacing("\r\n", with: "\n"))
        for bad in [["--line-ending", "cr"], ["--line-ending", ""], ["--line-ending", "lf", "--to", "tsv"]] {
            let result = try runSheetport(["convert", book] + bad)
            #expect(result.status == 2 && result.stderr.contains("--line-ending"), "\(bad)")
        }
    }

    @Test func timesShowAtMidnightWhenTheFormatShowsThem() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        typealias W = RawWorkbook
        let book = try workbook(W.row(1, W.number("A1", "45292", style: 1), W.number("B1", "45292.5729166667", style: 1),
                                      W.number("C1", "45292", style: 2), W.number("D1", "45292", style: 3),
                                      W.number("E1", "45292.25", style: 2), W.number("F1", "0.5", style: 1)),
                                formats: [(164, "yyyy-mm-dd hh:mm:ss"), (14, ""), (165, "d/m/yyyy h:mm AM/PM")], in: folder)
        #expect(try converted(book, []) == "2024-01-01 00:00:00,2024-01-01 13:45:00,2024-01-01,2024-01-01 00:00:00,2024-01-01 06:00:00,12:00:00\r\n")
        #expect(try converted(book, ["--date-format", "%d.%m.%Y %H:%M:%S.%f %%"])
            == "01.01.2024 00:00:00.000 %,01.01.2024 13:45:00.000 %,01.01.2024 00:00:00.000 %,01.01.2024 00:00:00.000 %,01.01.2024 06:00:00.000 %,12:00:00\r\n")
        #expect(try converted(book, ["--date-format", "%Y"]) == "2024,2024,2024,2024,2024,12:00:00\r\n")
    }

    @Test(arguments: ["%Q", "%", "plain", "", "%Y\u{1B}%", "%\u{0}"])
    func badDateFormatsAreRefused(_ format: String) throws {
        let result = try runSheetport(["convert", Project.fixture("dates_1900.xlsx"), "--date-format", format])
        #expect(result.status == 2 && result.stderr.contains("--date-format"), "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{0}"))
        let json = try runSheetport(["convert", Project.fixture("dates_1900.xlsx"), "--to", "jsonl", "--date-format", "%Y"])
        #expect(json.status == 2)
    }

    @Test func showsTimeReadsOnlyTokens() {
        for code in ["hh:mm", "yyyy-mm-dd hh:mm:ss", "[h]:mm:ss", "m/d/yy h:mm AM/PM", "mm:ss", "h"] {
            #expect(NumberFormat.showsTime(code), "\(code)")
        }
        for code in ["yyyy-mm-dd", "d\"h\"mmm", "dd\\hmm", "mmm-yy;hh:mm", "General", "[Red]yyyy", "dddd"] {
            #expect(!NumberFormat.showsTime(code), "\(code)")
        }
    }
}
