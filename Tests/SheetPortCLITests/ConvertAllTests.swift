import SheetPortCore
import SheetPortTestSupport
import Foundation
import Testing

/// `convert --all -o DIR`: every worksheet to its own file, safe unique names, all or nothing.
@Suite struct ConvertAllTests {
    private func files(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func everyWorksheetGetsASafeUniqueFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try SheetsCommandTests.hostileWorkbook(in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try runSheetport(["convert", book, "--all", "-o", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        let names = try files(out)
        // The chartsheet is not a worksheet; the ten worksheets, hidden ones included, each have a file.
        #expect(names.count == SheetsCommandTests.hostileNames.count, "\(names)")
        #expect(Set(names.map { $0.lowercased() }).count == names.count) // unique ignoring case: Data and DATA
        for name in names {
            #expect(name.hasSuffix(".csv") && !name.hasPrefix("."))
            #expect(!name.unicodeScalars.contains { "/\\:*?\"<>|".unicodeScalars.contains($0) || $0.isUnsafeControl }, "\(name)")
        }
        #expect(names.contains("CON_.csv") && !names.contains("CON.csv") && names.contains("Data.csv") && names.contains("DATA (2).csv"))
        #expect(names.contains("sheet.csv")) // the empty name
        #expect(try String(contentsOf: out.appendingPathComponent("Data.csv"), encoding: .utf8) == "sheet 7\r\n")
        // Nothing escaped the folder (`../x`).
        #expect(try files(folder) == ["hostile.xlsx", "out"])
        #expect(!result.stderr.unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\u{85}" })
    }

    @Test func excludeHiddenSkipsHiddenAndVeryHidden() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try SheetsCommandTests.hostileWorkbook(in: folder)
        let out = folder.appendingPathComponent("out")
        let result = try runSheetport(["convert", book, "--all", "--exclude-hidden", "-o", out.path, "--to", "tsv"])
        #expect(result.status == 0, "\(result.stderr)")
        let names = try files(out)
        #expect(names.count == SheetsCommandTests.hostileNames.count - 2)
        #expect(!names.contains("CON_.tsv") && !names.contains("tab_here.tsv"))
        // Alone, --exclude-hidden picks the first visible worksheet.
        let single = try runSheetport(["convert", book, "--exclude-hidden", "--skip-empty-columns"])
        #expect(String(decoding: single.stdout, as: UTF8.self) == "sheet 1,\r\n,\r\n,\r\n,\r\n,7\r\n")
    }

    @Test func threeHundredSheets() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("many.xlsx").path
        try RawWorkbook(sheets: (1...300).map { RawWorkbook.Sheet(name: $0 % 2 == 0 ? "s\($0 / 2)" : "S\($0 / 2 + 1)",
                                                                  sheetData: RawWorkbook.row(1, RawWorkbook.number("A1", "\($0)"))) },
                        sharedStrings: ["shared"]).write(to: book)
        let out = folder.appendingPathComponent("out")
        let result = try runSheetport(["convert", book, "--all", "-o", out.path, "--to", "jsonl", "--no-progress"])
        #expect(result.status == 0, "\(result.stderr)")
        let names = try files(out)
        #expect(names.count == 300)
        #expect(names.contains("S1.jsonl") && names.contains("s1 (2).jsonl"))
        #expect(try String(contentsOf: out.appendingPathComponent("s1 (2).jsonl"), encoding: .utf8)
            == "{\"ref\":\"A1\",\"type\":\"number\",\"value\":2}\n")
    }

    @Test func anErrorLeavesNoNewFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("bad.xlsx").path
        // The third sheet is not well-formed XML: the two before it must not appear.
        try RawWorkbook(sheets: [
            RawWorkbook.Sheet(name: "One", sheetData: RawWorkbook.row(1, RawWorkbook.number("A1", "1"))),
            RawWorkbook.Sheet(name: "Two", sheetData: RawWorkbook.row(1, RawWorkbook.number("A1", "2"))),
            RawWorkbook.Sheet(name: "Three", sheetData: "<row r=\"1\"><c r=\"A1\"><v>3</v></row>"),
        ]).write(to: book)
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data("old\n".utf8).write(to: out.appendingPathComponent("One.csv"))
        let result = try runSheetport(["convert", book, "--all", "-o", out.path])
        #expect(result.status == 3)
        #expect(result.stderr.contains("malformed-xml") && result.stderr.contains("sheet3.xml"), "\(result.stderr)")
        #expect(try files(out) == ["One.csv"])
        #expect(try String(contentsOf: out.appendingPathComponent("One.csv"), encoding: .utf8) == "old\n")
    }

    @Test(arguments: [
        (["--all"], "-o DIR"),
        (["--all", "-o", "-"], "-o DIR"),
        (["--all", "-o", "DIR", "--sheet", "Data"], "leave out --sheet"),
    ])
    func usageErrors(_ extra: [String], _ message: String) throws {
        let result = try runSheetport(["convert", Project.fixture("multi_sheet.xlsx")] + extra)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "DIR"))
    }

    @Test func outputThatIsAFileIsRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        let result = try runSheetport(["convert", Project.fixture("multi_sheet.xlsx"), "--all", "-o", file.path])
        #expect(result.status == 2 && result.stderr.contains("not one"))
        #expect(try String(contentsOf: file, encoding: .utf8) == "x")
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalLeavesNoNewFile(_ signal: Int32, _ status: Int32) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try makeLargeWorkbook(rows: 150_000, in: folder)
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        // Interrupt once the sheet's temporary file in DIR has grown.
        let result = try interruptSheetport(["convert", book, "--all", "-o", out.path, "--to", "ndjson"], with: signal) {
            try files(out).contains { name in
                name.hasPrefix(".Data.ndjson.sheetport-")
                    && (try? FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(name).path)[.size] as? Int) ?? 0 > 0
            }
        }
        #expect(result.wasReady, "the conversion ended before it could be interrupted")
        #expect(result.status == status)
        #expect(try files(out).isEmpty)
    }
}
