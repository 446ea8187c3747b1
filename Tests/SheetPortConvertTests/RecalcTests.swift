import Foundation
import Testing
@testable import SheetPortConvert
import SheetPortTestSupport

/// `convert --recalc` and `check --recalc` through the library, on workbooks openpyxl writes
/// (formulas without cached values).
@Suite struct RecalcTests {
    /// The issue's example: A1=1, A2=2, A3==SUM(A1:A2), B1==A1*10.
    static let issueExample = """
        ws["A1"] = 1; ws["A2"] = 2; ws["A3"] = "=SUM(A1:A2)"; ws["B1"] = "=A1*10"
        """

    /// Hostile formulas: a cycle, an unknown function, 8,192 characters, another workbook.
    static let hostile = """
        ws["A1"] = "=B1+1"; ws["B1"] = "=A1+1"
        ws["C1"] = "=NOSUCHFUNCTION(1)"
        ws["D1"] = "=" + "+".join(["1"] * 4095) + "+2"
        ws["E1"] = "=[1]Sheet1!A1"
        ws["F1"] = 5
        """

    static func recalc() -> TextOutputOptions {
        var options = TextOutputOptions()
        options.recalc = true
        return options
    }

    /// A dynamic array as Excel 365 saves it (an array formula whose `cm` marks it dynamic, its
    /// spilled results stored as plain values) spills again when recomputed, over the range its new
    /// result needs (here smaller: the cell it left is empty), and `A1#` reads it; the same formula
    /// without the mark is a legacy array held to its stored range, which `A1#` reads.
    @Test func dynamicArraysFromAFileSpillAgain() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func workbook(cm: String) -> RawWorkbook {
            var raw = RawWorkbook(sheets: [.init(name: "S", sheetData:
                RawWorkbook.row(1, "<c r=\"A1\"\(cm)><f t=\"array\" ref=\"A1:A3\">_xlfn.SEQUENCE(C1)</f><v>1</v></c>",
                                "<c r=\"B1\"><f>SUM(_xlfn.ANCHORARRAY(A1))</f><v>6</v></c>", RawWorkbook.number("C1", "2"))
                + RawWorkbook.row(2, RawWorkbook.number("A2", "2")) + RawWorkbook.row(3, RawWorkbook.number("A3", "3")))])
            raw.otherParts = [("xl/metadata.xml", """
                <?xml version="1.0" encoding="UTF-8"?><metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" \
                xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray"><metadataTypes count="1">\
                <metadataType name="XLDAPR" minSupportedVersion="120000" cellMeta="1"/></metadataTypes><futureMetadata name="XLDAPR" count="1">\
                <bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext>\
                </extLst></bk></futureMetadata><cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>
                """)]
            return raw
        }
        let dynamic = folder.appendingPathComponent("dynamic.xlsx").path, legacy = folder.appendingPathComponent("legacy.xlsx").path
        try workbook(cm: " cm=\"1\"").write(to: dynamic)
        try workbook(cm: "").write(to: legacy)
        let spilled = try convert(dynamic, to: .csv, options: Self.recalc())
        #expect(spilled == "1,3,2\r\n2,,\r\n,,\r\n")
        let held = try convert(legacy, to: .csv, options: Self.recalc())
        // `A1#` on a legacy array's anchor reads the array's range, as Excel does (the calculation
        // suite's cached values): its #N/A comes through the SUM.
        #expect(held == "1,#N/A,2\r\n2,,\r\n#N/A,,\r\n")
    }

    /// CHAR computes in the character set of the application that saved the file
    /// (`docProps/app.xml`): Excel for Mac's is the Macintosh one. A damaged or hostile part is
    /// Windows'.
    @Test func charFollowsTheApplicationThatSavedTheFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let properties = "<?xml version=\"1.0\"?><Properties xmlns=\"http://schemas.openxmlformats.org/officeDocument/2006/extended-properties\">"
        let cases: [(String?, String)] = [
            (properties + "<Application>Microsoft Macintosh Excel</Application></Properties>", "Ä"),
            (properties + "<Application>Microsoft Excel</Application></Properties>", "€"),
            (nil, "€"),
            ("<Properties><Application>Microsoft Macintosh Excel", "€"),
            (properties + "<Application>" + String(repeating: "x", count: 1_000_000) + " Macintosh</Application></Properties>", "€"),
        ]
        for (index, (app, expected)) in cases.enumerated() {
            var raw = RawWorkbook(sheets: [.init(name: "S", sheetData: RawWorkbook.row(1, "<c r=\"A1\" t=\"str\"><f>CHAR(128)</f><v>?</v></c>"))])
            if let app { raw.otherParts = [("docProps/app.xml", app)] }
            let path = folder.appendingPathComponent("app\(index).xlsx").path
            try raw.write(to: path)
            let output = try convert(path, to: .csv, options: Self.recalc())
            #expect(output == expected + "\r\n", "case \(index)")
        }
    }

    /// Iterative calculation as the workbook's `calcPr` sets it: a cell counting itself up
    /// (`=A1+1`) repeats `iterateCount` times; a converging pair stops once nothing moves by more
    /// than `iterateDelta`, and the cells reading it follow; without `iterate` both are 0, as in
    /// Excel with iteration off. Hostile settings are held to Excel's range.
    @Test func iterativeCalculationFollowsCalcPr() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sheetData = RawWorkbook.row(1, "<c r=\"A1\"><f>A1+1</f><v>0</v></c>", "<c r=\"B1\"><f>C1/2+1</f><v>0</v></c>",
                                        "<c r=\"C1\"><f>B1</f><v>0</v></c>", "<c r=\"D1\"><f>ROUND(B1*10,2)</f><v>0</v></c>")
        func run(_ calcPr: String) throws -> [String] {
            var raw = RawWorkbook(sheets: [.init(name: "S", sheetData: sheetData)])
            raw.workbookAfterSheets = calcPr
            let path = folder.appendingPathComponent("iterate.xlsx").path
            try raw.write(to: path)
            return try convert(path, to: .csv, options: Self.recalc()).trimmingCharacters(in: .newlines).components(separatedBy: ",")
        }
        let fifty = try run("<calcPr calcId=\"191029\" iterate=\"1\" iterateCount=\"50\" iterateDelta=\"0.0001\"/>")
        #expect(fifty[0] == "50")
        #expect(abs((Double(fifty[1]) ?? 0) - 2) < 0.001, "\(fifty)")
        #expect(fifty[3] == "20", "the cell reading the cycle follows it")
        #expect(try run("<calcPr calcId=\"191029\" iterateCount=\"50\"/>") == ["0", "0", "0", "0"])
        #expect(try run("<calcPr iterate=\"1\"/>")[0] == "100", "Excel's default count")
        #expect(try run("<calcPr iterate=\"1\" iterateCount=\"99999999999\" iterateDelta=\"-1\"/>")[0] == "32767")
        #expect(try run("<calcPr iterate=\"1\" iterateCount=\"-5\" iterateDelta=\"NaN\"/>")[0] == "1")
    }

    @Test func theIssueExampleConvertsToItsComputedValues() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("issue.xlsx").path
        try writeWithOpenpyxl(Self.issueExample, to: path)
        #expect(try convert(path, to: .csv, options: Self.recalc()) == "1,10\r\n2,\r\n3,\r\n")
        // By default the formulas without a cached value (all of openpyxl's) are computed too;
        // --no-recalc leaves them empty.
        #expect(try convert(path, to: .csv) == "1,10\r\n2,\r\n3,\r\n")
        var noRecalc = TextOutputOptions()
        noRecalc.computeMissingValues = false
        #expect(try convert(path, to: .csv, options: noRecalc) == "1,\r\n2,\r\n,\r\n")
        let records = try jsonObjects(convert(path, to: .jsonl, options: Self.recalc()))
        #expect(records.contains { $0["ref"] as? String == "A3" && $0["value"] as? Double == 3 && $0["formula"] as? String == "SUM(A1:A2)" })
        #expect(records.contains { $0["ref"] as? String == "B1" && $0["type"] as? String == "number" && $0["value"] as? Double == 10 })
        for format in [TextFormat.tsv, .ndjson, .json] {
            let text = try convert(path, to: format, options: Self.recalc())
            #expect(text.contains("10") && text.contains("3"), "\(format): \(text)")
        }
    }

    @Test func hostileFormulasAreComputedOrKeptAndReported() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("hostile.xlsx").path
        try writeWithOpenpyxl(Self.hostile, to: path)
        let records = try jsonObjects(convert(path, to: .jsonl, options: Self.recalc()))
        func value(_ ref: String) -> Any? { records.first { $0["ref"] as? String == ref }?["value"] }
        #expect(value("A1") as? Double == 0 && value("B1") as? Double == 0, "a cycle evaluates to 0")
        #expect(value("C1") as? String == "#NAME?", "an unknown function without a cached value")
        #expect(value("D1") as? Double == 4097, "8,192 characters of formula")
        #expect(value("E1") as? String == "#NAME?", "another workbook, no cached value to keep")
        #expect(value("F1") as? Double == 5)

        var options = PreflightOptions()
        options.recalc = true
        let report = try Preflight.check(path: path, options: options)
        let codes = report.findings.map(\.code)
        let circular = try #require(report.findings.first { $0.code == "circular-reference" })
        #expect(circular.severity == .warning && circular.message.contains("A1") && circular.message.contains("B1"))
        let unsupported = report.findings.filter { $0.code == "unsupported-function" }
        #expect(unsupported.count == 1 && unsupported[0].severity == .info && unsupported[0].message.contains("NOSUCHFUNCTION"))
        #expect(report.findings.contains { $0.code == "unsupported-formula" && $0.severity == .info && $0.message.contains("E1") })
        #expect(!codes.contains("stale-cached-value"), "no cached values, nothing stale: \(codes)")
        #expect(report.importable)
        // Without --recalc none of these.
        let plain = try Preflight.check(path: path).findings.map(\.code)
        #expect(!plain.contains("circular-reference") && !plain.contains("unsupported-function"))
    }

    /// Stale caches: a cached value that disagrees with the recomputation is named; one that
    /// agrees to 15 significant digits, a volatile one and a kept one are not.
    @Test func staleCachedValuesAreNamed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("stale.xlsx").path
        // The cached values are written into the sheet XML after openpyxl saves (it writes none).
        try writeWithOpenpyxl("""
            ws["A1"] = 1; ws["A2"] = 2; ws["A3"] = "=SUM(A1:A2)"; ws["A4"] = "=A1/3"; ws["A5"] = "=NOW()"
            ws["A6"] = "=NOSUCHFUNCTION()"
            for r in range(1, 26): ws.cell(row=r, column=3, value="=A1*%d" % r)
            """, to: path)
        let cached: [String: String] = ["A3": "4", "A4": "0.333333333333333", "A5": "1", "A6": "7"]
        var cachedC: [String: String] = [:]
        for r in 1...25 { cachedC["C\(r)"] = "999" }
        try rewriteCachedValues(path, cached.merging(cachedC) { $1 }, in: folder)
        var options = PreflightOptions()
        options.recalc = true
        let report = try Preflight.check(path: path, options: options)
        let stale = try #require(report.findings.first { $0.code == "stale-cached-value" })
        #expect(stale.severity == .warning)
        #expect(stale.count == 26, "A3 and C1:C25: \(stale.message)")
        #expect(stale.message.contains("A3") && stale.message.contains("C1") && !stale.message.contains("A4") && !stale.message.contains("A5"))
        #expect(stale.message.contains("(26 in all)") && !stale.message.contains("C25"), "the first 20 refs and the count: \(stale.message)")
        // Converting keeps the unsupported function's cached value and writes the others computed.
        var text = TextOutputOptions()
        text.recalc = true
        let records = try jsonObjects(convert(path, to: .jsonl, options: text))
        #expect(records.first { $0["ref"] as? String == "A3" }?["value"] as? Double == 3)
        #expect(records.first { $0["ref"] as? String == "A6" }?["value"] as? Double == 7)
    }

    /// A second worksheet that does not read leaves the import's pre-flight as it was: the
    /// recomputation says it did not run.
    @Test func anUnreadableOtherWorksheetStopsOnlyTheRecomputation() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("broken.xlsx").path
        try writeWithOpenpyxl(#"ws["A1"] = "=1+1"; wb.create_sheet("Other")["A1"] = 1"#, to: path)
        let unpacked = folder.appendingPathComponent("unpacked")
        try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: true)
        try shell("cd '\(unpacked.path)' && unzip -q '\(path)' && printf '<worksheet><sheetData><row' > xl/worksheets/sheet2.xml && rm '\(path)' && zip -q -X -r '\(path)' .")
        var options = PreflightOptions()
        options.recalc = true
        let report = try Preflight.check(path: path, options: options)
        #expect(report.importable)
        #expect(report.findings.contains { $0.code == "unsupported-formula" && $0.message.contains("not recomputed") }, "\(report.findings)")
    }

    /// Puts `<v>` cached values into the formula cells of the first sheet of an openpyxl workbook.
    func rewriteCachedValues(_ path: String, _ values: [String: String], in folder: URL) throws {
        let unpacked = folder.appendingPathComponent("unpacked")
        try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: true)
        try shell("cd '\(unpacked.path)' && unzip -q '\(path)'")
        let sheet = unpacked.appendingPathComponent("xl/worksheets/sheet1.xml")
        var xml = try String(contentsOf: sheet, encoding: .utf8)
        for (ref, value) in values {
            // openpyxl writes `<f>...</f><v />`: the empty value becomes the cached one.
            guard let start = xml.range(of: "<c r=\"\(ref)\""),
                  let empty = xml.range(of: "</f><v />", range: start.upperBound..<xml.endIndex) else { continue }
            xml.replaceSubrange(empty, with: "</f><v>\(value)</v>")
        }
        try xml.write(to: sheet, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: path)
        try shell("cd '\(unpacked.path)' && zip -q -X -r '\(path)' '[Content_Types].xml' _rels docProps xl")
    }

    func shell(_ command: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(command)")
    }
}
