import Foundation
import Testing
import SheetPortTestSupport
import SheetPortCore
import SheetPortReader

/// `convert` of text to xlsx lays each sheet out (issue 39): widths fitted to what the header
/// and the first 1,000 data rows show, the header bold, frozen at A2 and under an autofilter;
/// `--plain` writes none of these. Read back with the project's reader and with openpyxl.
@Suite struct ConvertLayoutTests {
    /// What openpyxl sees of each sheet: freeze_panes, the autofilter's ref, whether each header
    /// cell and A2 are bold, and the column widths it reads (letter: width).
    struct Seen: Decodable, Equatable {
        var title: String
        var freeze: String?
        var filter: String?
        var boldHeader: [Bool]
        var boldA2: Bool?
        var widths: [String: Double]
    }

    static func openpyxl(_ path: String) throws -> [Seen] {
        let script = """
        import sys, json, openpyxl
        wb = openpyxl.load_workbook(sys.argv[1])
        out = []
        for ws in wb.worksheets:
            first = next(ws.iter_rows(min_row=1, max_row=1), ())
            out.append({"title": ws.title, "freeze": ws.freeze_panes, "filter": ws.auto_filter.ref,
                        "boldHeader": [bool(c.font.b) for c in first if c.value is not None],
                        "boldA2": bool(ws["A2"].font.b) if ws["A2"].value is not None else None,
                        "widths": {k: v.width for k, v in ws.column_dimensions.items() if v.customWidth}})
        print(json.dumps(out))
        """
        return try JSONDecoder().decode([Seen].self, from: Data(try runPython(script, arguments: [path]).utf8))
    }

    /// The fitted widths the project's reader finds, column by column (1-based).
    static func widths(_ path: String, sheet index: Int = 0) throws -> [Int: Double] {
        let workbook = try Workbook(path: path)
        let reader = try workbook.rows(of: workbook.sheets[index])
        while try reader.nextRow() != nil {}
        var widths: [Int: Double] = [:]
        for column in reader.metadata.columns { for number in column.first...column.last { widths[number] = column.width } }
        return widths
    }

    /// Whether each cell of row `number` is bold, as the project's reader reads the styles.
    static func bold(_ path: String, row number: Int, sheet index: Int = 0) throws -> [Bool] {
        let workbook = try Workbook(path: path)
        let styles = try workbook.styles()
        let reader = try workbook.rows(of: workbook.sheets[index])
        while let row = try reader.nextRow(), row.index <= number {
            if row.index == number { return row.cells.map { styles.format($0.styleIndex).isBold } }
        }
        return []
    }

    static func part(_ path: String, _ name: String) throws -> String {
        let archive = try Workbook(path: path).archive
        var bytes: [UInt8] = []
        if let entry = archive.entry(named: name) { try archive.read(entry) { bytes.append(contentsOf: $0) } }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func write(_ text: String, _ name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Writes `text` as `name.csv` in `folder` and converts it (it must succeed) to `name.xlsx`; the workbook's path.
    static func converted(_ text: String, _ name: String, in folder: URL, _ extra: [String] = []) throws -> String {
        let input = try write(text, name + ".csv", in: folder)
        let output = folder.appendingPathComponent(name + ".xlsx").path
        let result = try runSheetport(["convert", input, "-o", output, "--no-progress"] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return output
    }

    /// The files in `folder` besides `kept`: a temporary file left behind shows here.
    static func leftovers(in folder: URL, besides kept: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !kept.contains($0) }.sorted()
    }

    /// Excel's width that shows `count` digits (ECMA-376 §18.3.1.13, Calibri 11).
    static func shows(_ count: Int) -> Double { Double((count * 7 + 5) * 256 / 7) / 256 }

    @Test func widthsFitTheFirstThousandRowsAndTheHeaderIsBoldFrozenAndFiltered() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var text = "id,when,name,long,amount\n"
        let long = String(repeating: "w", count: 300)
        for number in 1...1_500 {
            // Row 1,200's name is far wider than any before it: past the fitted rows, it changes nothing.
            let name = number == 1_200 ? String(repeating: "N", count: 120) : "customer name \(number % 10)"
            text += "\(number),2024-01-\(10 + number % 20),\(name),\(number == 7 ? long : "x"),\(Double(number) / 7)\n"
        }
        let input = try Self.write(text, "data.csv", in: folder)
        let output = folder.appendingPathComponent("data.xlsx").path
        let result = try runSheetport(["convert", input, "-o", output, "--no-progress"])
        #expect(result.status == 0, "\(result.stderr)")

        let widths = try Self.widths(output)
        #expect(widths[1] == nil) // "id" and four digits fit the default width
        #expect((widths[2] ?? 0) >= Self.shows(10), "a date shows 2024-01-31: \(widths)")
        #expect((widths[3] ?? 0) >= Self.shows(15) && (widths[3] ?? 0) < Self.shows(20), "row 1,200 does not widen it: \(widths)")
        #expect(widths[4] == 255, "a 300-character field is capped at Excel's 255")
        // 1500/7 in General: 214.2857143 (11 characters), as Excel shows it.
        #expect((widths[5] ?? 0) >= Self.shows(11) && (widths[5] ?? 0) < Self.shows(14), "\(widths)")
        #expect(try Self.bold(output, row: 1) == [true, true, true, true, true])
        #expect(try Self.bold(output, row: 2) == [false, false, false, false, false])

        let seen = try Self.openpyxl(output)
        #expect(seen.count == 1)
        #expect(seen.first?.freeze == "A2")
        #expect(seen.first?.filter == "A1:E1501") // the header and every row below it
        #expect(seen.first?.boldHeader == [true, true, true, true, true])
        #expect(seen.first?.boldA2 == false)
        #expect(seen.first?.widths["B"] == widths[2] && seen.first?.widths["D"] == 255)
        #expect(try Self.part(output, "xl/workbook.xml").contains("<definedName name=\"_xlnm._FilterDatabase\" localSheetId=\"0\" hidden=\"1\">'data'!$A$1:$E$1501</definedName>"))

        // The values are the same as without a layout.
        let plain = folder.appendingPathComponent("plain.xlsx").path
        #expect(try runSheetport(["convert", input, "-o", plain, "--plain", "--no-progress"]).status == 0)
        let csv = { (path: String) in try runSheetport(["convert", path, "--line-ending", "lf", "--no-recalc"]).stdout }
        #expect(try csv(output) == csv(plain))
        #expect(try Self.leftovers(in: folder, besides: ["data.csv", "data.xlsx", "plain.xlsx"]).isEmpty)
    }

    @Test func plainWritesNoLayout() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try Self.converted("id,when,name\n1,2024-01-31,\(String(repeating: "a", count: 40))\n", "p", in: folder, ["--plain"])
        let sheet = try Self.part(output, "xl/worksheets/sheet1.xml")
        for absent in ["<cols>", "<pane", "<autoFilter", "<selection"] { #expect(!sheet.contains(absent), "\(absent)") }
        #expect(!(try Self.part(output, "xl/workbook.xml")).contains("_FilterDatabase"))
        #expect(!(try Self.part(output, "xl/styles.xml")).contains("<b/>"))
        #expect(try Self.widths(output).isEmpty)
        #expect(try Self.bold(output, row: 1) == [false, false, false])
        let seen = try Self.openpyxl(output)
        #expect(seen == [Seen(title: "p", freeze: nil, filter: nil, boldHeader: [false, false, false], boldA2: false, widths: [:])])
    }

    @Test func withoutAHeaderOnlyWidthsAreFitted() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try Self.converted("1,2024-01-31,short\n2,2024-02-01,\(String(repeating: "z", count: 30))\n", "n", in: folder, ["--no-header"])
        let widths = try Self.widths(output)
        #expect((widths[2] ?? 0) >= Self.shows(10) && (widths[3] ?? 0) >= Self.shows(30), "\(widths)")
        #expect(try Self.bold(output, row: 1) == [false, false, false])
        let sheet = try Self.part(output, "xl/worksheets/sheet1.xml")
        #expect(!sheet.contains("<pane") && !sheet.contains("<autoFilter"))
        let seen = try Self.openpyxl(output)
        #expect(seen.first?.freeze == nil && seen.first?.filter == nil)
    }

    @Test func severalInputsEachGetTheirOwnLayout() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = try Self.write("id,when\n1,2024-01-31 13:45:00\n", "a.csv", in: folder)
        let b = try Self.write("p\tq\tr\ts\tlong header of b\n1\t2\t3\t4\t5\n", "b.tsv", in: folder)
        // Cell JSONL has no header row: widths alone.
        let c = try Self.write("{\"ref\":\"A1\",\"type\":\"string\",\"value\":\"\(String(repeating: "c", count: 25))\"}\n", "c.jsonl", in: folder)
        // A header after blank records: frozen below it, filtered on its row.
        let d = try Self.write("\n\nk,v\n1,2\n", "d.csv", in: folder)
        let book = folder.appendingPathComponent("book.xlsx").path
        let result = try runSheetport(["convert", a, b, c, d, "-o", book, "--no-progress"])
        #expect(result.status == 0, "\(result.stderr)")
        let seen = try Self.openpyxl(book)
        #expect(seen.map(\.title) == ["a", "b", "c", "d"])
        #expect(seen.map(\.freeze) == ["A2", "A2", nil, "A4"])
        #expect(seen.map(\.filter) == ["A1:B2", "A1:E2", nil, "A3:B4"])
        #expect(seen[0].boldHeader == [true, true] && seen[1].boldHeader == [true, true, true, true, true] && seen[2].boldHeader == [false])
        #expect((seen[0].widths["B"] ?? 0) >= Self.shows(19), "a date and time shows 2024-01-31 13:45:00: \(seen[0].widths)")
        #expect((seen[1].widths["E"] ?? 0) >= Self.shows(16) && seen[1].widths["A"] == nil, "\(seen[1].widths)")
        #expect((seen[2].widths["A"] ?? 0) >= Self.shows(25))
        #expect(try Self.widths(book, sheet: 2)[1] == seen[2].widths["A"])
        #expect(try Self.bold(book, row: 3, sheet: 3) == [true, true])
        let names = try Workbook(path: book).definedNames.filter { $0.name == "_xlnm._FilterDatabase" }
        #expect(names.count == 3)
    }

    @Test func hostileInputsWriteAValidFileOrAClearError() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var kept: Set<String> = []
        func convert(_ text: String, _ name: String, _ extra: [String] = []) throws -> (status: Int32, stderr: String, output: String) {
            let input = try Self.write(text, name + ".csv", in: folder)
            let output = folder.appendingPathComponent(name + ".xlsx").path
            kept.insert(name + ".csv")
            let result = try runSheetport(["convert", input, "-o", output, "--no-progress"] + extra)
            if result.status == 0 { kept.insert(name + ".xlsx") }
            return (result.status, result.stderr, output)
        }

        // A 40,000-character field is over Excel's cell limit: exit 3 naming the line, held row or not.
        let field = String(repeating: "f", count: 40_000)
        for (name, text) in [("long", "a,b\nx,\(field)\n"), ("longLater", "a,b\n" + String(repeating: "1,2\n", count: 1_500) + "x,\(field)\n")] {
            let refused = try convert(text, name)
            #expect(refused.status == 3, "\(name): \(refused.stderr)")
            #expect(refused.stderr.contains("line \(name == "long" ? 2 : 1_502)") && refused.stderr.contains("32,767"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: refused.output))
        }
        // 32,767 characters are allowed and capped at 255 wide.
        let widest = try convert("a\n\(String(repeating: "g", count: 32_767))\n", "widest")
        #expect(widest.status == 0, "\(widest.stderr)")
        #expect(try Self.widths(widest.output)[1] == 255)

        // A header of control characters: written (escaped), bold, frozen, filtered; none counts toward a width.
        let controls = try convert("\u{1}\u{2}\u{1B},\u{7}b\u{7F}\n1,2\n", "controls")
        #expect(controls.status == 0, "\(controls.stderr)")
        #expect(try Self.widths(controls.output).isEmpty)
        var seen = try Self.openpyxl(controls.output)
        #expect(seen.first?.freeze == "A2" && seen.first?.filter == "A1:B2" && seen.first?.boldHeader == [true, true])

        // A header of 16,384 columns (Excel's last, XFD) and data below it: one <col> run per width.
        let header = (1...16_384).map { "column \($0)" }.joined(separator: ",")
        let wide = try convert(header + "\n" + (1...16_384).map { String($0) }.joined(separator: ",") + "\n", "wide")
        #expect(wide.status == 0, "\(wide.stderr)")
        seen = try Self.openpyxl(wide.output)
        #expect(seen.first?.filter == "A1:XFD2" && seen.first?.freeze == "A2" && seen.first?.boldHeader.count == 16_384)
        let wideWidths = try Self.widths(wide.output)
        #expect(wideWidths.count == 16_384 && wideWidths[16_384] == wideWidths[10_000], "\(wideWidths.count)")
        #expect(try Self.part(wide.output, "xl/worksheets/sheet1.xml").components(separatedBy: "<col ").count - 1 < 10)
        // One column more is outside the grid: exit 3, no file.
        let wider = try convert(header + ",one more\n", "wider")
        #expect(wider.status == 3 && wider.stderr.contains("16,384"), "\(wider.stderr)")
        #expect(!FileManager.default.fileExists(atPath: wider.output))

        // An empty input: an empty sheet, no layout to give.
        let empty = try convert("", "empty")
        #expect(empty.status == 0, "\(empty.stderr)")
        seen = try Self.openpyxl(empty.output)
        #expect(seen.first?.freeze == nil && seen.first?.filter == nil && seen.first?.widths == [:])
        // A header alone: bold, frozen and filtered, its widths fitted with room for the filter button.
        let headerOnly = try convert("name,\(String(repeating: "h", count: 20))\n", "headerOnly")
        #expect(headerOnly.status == 0, "\(headerOnly.stderr)")
        seen = try Self.openpyxl(headerOnly.output)
        #expect(seen.first?.freeze == "A2" && seen.first?.filter == "A1:B1" && seen.first?.boldHeader == [true, true])
        #expect((seen.first?.widths["B"] ?? 0) >= Self.shows(22))

        #expect(try Self.leftovers(in: folder, besides: kept).isEmpty)
    }

    /// LibreOffice opens a laid-out workbook and finds the same values (its CSV export against
    /// ours of the same file). Needs `soffice`; runs with `SHEETPORT_REAL_CLIENTS=1`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SHEETPORT_REAL_CLIENTS"] == "1"))
    func libreOfficeReadsTheSameValues() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try Self.converted("id,when,name,amount\n1,2024-01-31,\"Ann, B\",3.5\n2,2024-02-29,Bo,-1\n", "lo", in: folder)
        let office = Process()
        office.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        office.arguments = ["soffice", "-env:UserInstallation=file://" + folder.appendingPathComponent("profile").path, "--headless",
                            "--convert-to", "csv", "--outdir", folder.appendingPathComponent("office").path, output]
        office.standardOutput = FileHandle.nullDevice
        office.standardError = FileHandle.nullDevice
        try office.run()
        office.waitUntilExit()
        #expect(office.terminationStatus == 0)
        let theirs = try String(contentsOfFile: folder.appendingPathComponent("office/lo.csv").path, encoding: .utf8)
        #expect(theirs == "id,when,name,amount\n1,2024-01-31,\"Ann, B\",3.5\n2,2024-02-29,Bo,-1\n")
        let ours = String(decoding: try runSheetport(["convert", output, "--line-ending", "lf"]).stdout, as: UTF8.self)
        #expect(ours == theirs)
    }
}
