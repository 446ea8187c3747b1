import Foundation
import Testing
import SheetPortTestSupport

/// `convert --range` and `--limit` (xlsx input), and CSV records as wide as the used range
/// when the sheet's `<dimension>` lies.
@Suite struct ConvertRangeLimitTests {
    typealias W = RawWorkbook

    /// Rows 1-4 of A..D with a gap at row 3, under a `<dimension>` that says A1; a lone cell in F6.
    static func workbook(in folder: URL) throws -> String {
        var data = ""
        for row in [1, 2, 4] {
            data += W.row(row, W.text("A\(row)", "a\(row)"), W.number("B\(row)", "\(row)"), W.text("D\(row)", "d,\(row)"))
        }
        data += W.row(6, W.number("F6", "6"))
        let path = folder.appendingPathComponent("ranged.xlsx").path
        try RawWorkbook(sheets: [W.Sheet(name: "S", sheetData: data, dimension: "A1")]).write(to: path)
        return path
    }

    static func text(_ result: (status: Int32, stdout: Data, stderr: String)) -> String {
        String(decoding: result.stdout, as: UTF8.self)
    }

    @Test func recordsAreAsWideAsTheCellsNotTheDimension() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.workbook(in: folder)
        let result = try runSheetport(["convert", path, "--no-progress"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.text(result) == "a1,1,,\"d,1\",,\r\na2,2,,\"d,2\",,\r\n,,,,,\r\na4,4,,\"d,4\",,\r\n,,,,,\r\n,,,,,6\r\n")
    }

    @Test func aRangeIsWrittenFromItsCorner() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.workbook(in: folder)
        let csv = try runSheetport(["convert", path, "--range", "B2:D4", "--to", "tsv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(Self.text(csv) == "2\t\td,2\n\t\t\n4\t\td,4\n")
        // Columns past the used range are not padded out; rows below the range are not read.
        let wide = try runSheetport(["convert", path, "--range", "D1:XFD2"])
        #expect(Self.text(wide) == "\"d,1\",,\r\n\"d,2\",,\r\n")
        // Cell JSONL keeps the sheet's references.
        let cells = try runSheetport(["convert", path, "--range", "D4", "--to", "jsonl"])
        let objects = try jsonObjects(Self.text(cells))
        #expect(objects.count == 1 && objects.first?["ref"] as? String == "D4", "\(Self.text(cells))")
        // Records: the range's first row is the header.
        let records = try runSheetport(["convert", path, "--range", "A2:B4", "--to", "ndjson"])
        #expect(Self.text(records) == "{\"a2\":\"a4\",\"2\":4}\n")
    }

    @Test func aRangeOutsideTheSheetWritesNothing() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.workbook(in: folder)
        for range in ["Z1:Z5", "A100:D200", "XFD1048576"] {
            let result = try runSheetport(["convert", path, "--range", range])
            #expect(result.status == 0, "\(range): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(range): \(Self.text(result))")
        }
        let json = try runSheetport(["convert", path, "--range", "Z1:Z5", "--to", "json"])
        #expect(Self.text(json) == "[]\n")
    }

    @Test func badRangesAndLimitsAreUsageErrors() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.workbook(in: folder)
        for arguments in [["--range", "A0:B2"], ["--range", "XFE1"], ["--range", ""], ["--range", "A1:B2:C3"], ["--range", "B:D"],
                          ["--range", "A1:A1048577"], ["--limit", "-1"], ["--limit", "1.5"], ["--limit", ""], ["--limit", "ten"],
                          ["--limit", "99999999999999999999"], ["--range", "A1:B2", "--skip-empty-columns"]] {
            let result = try runSheetport(["convert", path] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains(arguments[0]) || arguments.count > 2, "\(arguments): \(result.stderr)")
        }
        // Text input has no sheet to cut.
        let csv = folder.appendingPathComponent("in.csv").path
        try Data("a,b\n1,2\n".utf8).write(to: URL(fileURLWithPath: csv))
        let text = try runSheetport(["convert", csv, "-o", folder.appendingPathComponent("o.xlsx").path, "--limit", "1"])
        #expect(text.status == 2, "\(text.stderr)")
    }

    @Test func aLimitStopsAfterNRecords() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.workbook(in: folder)
        // Record 3 is the empty row 3: it counts.
        #expect(Self.text(try runSheetport(["convert", path, "--limit", "3"])) == "a1,1,,\"d,1\",,\r\na2,2,,\"d,2\",,\r\n,,,,,\r\n")
        #expect(Self.text(try runSheetport(["convert", path, "--limit", "0"])).isEmpty)
        #expect(Self.text(try runSheetport(["convert", path, "--limit", "9223372036854775807"])).utf8.count { $0 == 0x0A } == 6)
        // Records after the header; skipped empty rows are not records.
        #expect(Self.text(try runSheetport(["convert", path, "--limit", "2", "--skip-empty-rows"])).utf8.count { $0 == 0x0A } == 2)
        #expect(Self.text(try runSheetport(["convert", path, "--limit", "1", "--to", "ndjson"])) == "{\"a1\":\"a2\",\"1\":2,\"col_C\":null,\"d,1\":\"d,2\"}\n")
        #expect(Self.text(try runSheetport(["convert", path, "--limit", "0", "--to", "json"])) == "[]\n")
        let cells = try jsonObjects(Self.text(try runSheetport(["convert", path, "--limit", "1", "--to", "jsonl"])))
        #expect(cells.count == 3)
        // With a range, the limit counts the range's records.
        #expect(Self.text(try runSheetport(["convert", path, "--range", "B2:B9", "--limit", "2"])) == "2\r\n\r\n")
    }
}
