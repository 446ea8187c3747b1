import Foundation
import Testing
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortClient
@testable import SheetPortServer

/// `convert --all` counts the rows it writes; CSV/TSV integers past 2^53 print exactly
/// (Docs/Reference/Formats.md, "CSV and TSV").
@Suite struct RowCountAndNumberTests {
    @Test func allCountsRowsWrittenNotRowElements() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        typealias W = RawWorkbook
        let book = folder.appendingPathComponent("book.xlsx").path
        let heightsOnly = (1...9).map { "<row r=\"\($0)\" ht=\"20\" customHeight=\"1\"/>" }.joined()
        try RawWorkbook(sheets: [W.Sheet(name: "Empty", sheetData: heightsOnly),
                                 W.Sheet(name: "Gap", sheetData: W.row(1, W.number("A1", "1")) + W.row(2, W.number("B2", "2"), W.number("B2", "3")) + W.row(4, W.number("A4", "4")))])
            .write(to: book)
        for (format, gapRows) in [("csv", 4), ("tsv", 4), ("ndjson", 2), ("json", 2), ("jsonl", 3)] {
            let out = folder.appendingPathComponent("out-\(format)").path
            let result = try runSheetport(["convert", book, "--all", "-o", out, "--to", format, "--no-progress"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("Empty.\(format): 0 rows"), "\(result.stderr)")
            #expect(result.stderr.contains("Gap.\(format): \(gapRows) rows"), "\(format): \(result.stderr)")
        }
    }

    @Test func integersPastTwoToTheFiftyThreePrintExactly() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        typealias W = RawWorkbook
        let book = folder.appendingPathComponent("big.xlsx").path
        try RawWorkbook(sheets: [W.Sheet(name: "N", sheetData: W.row(1, W.number("A1", "9007199254740992"), W.number("B1", "1.2345678901234568E+17"),
                                                                      W.number("C1", "-1E+20"), W.number("D1", "1E+21"), W.number("E1", "123.5"),
                                                                      W.number("F1", "9.9999999999999992E+20"), W.number("G1", "-0"), W.number("H1", "1E-7")))])
            .write(to: book)
        let csv = try runSheetport(["convert", book])
        #expect(String(decoding: csv.stdout, as: UTF8.self)
                == "9007199254740992,123456789012345680,-100000000000000000000,1e+21,123.5,999999999999999868928,0,1e-07\r\n")
        let tsv = try runSheetport(["convert", book, "--to", "tsv"])
        #expect(String(decoding: tsv.stdout, as: UTF8.self).hasPrefix("9007199254740992\t123456789012345680\t"))
        // JSON outputs keep JSON numbers that read back as the same double.
        let jsonl = String(decoding: try runSheetport(["convert", book, "--to", "jsonl"]).stdout, as: UTF8.self)
        #expect(jsonl.contains(#""ref":"B1","type":"number","value":1.2345678901234568e+17"#), "\(jsonl)")
    }
}
