import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert
import SheetPortTestSupport

/// `check`: hostile files give their codes in bounded time, every corpus file gives a report,
/// multi-sheet files name the sheets not imported, and the JSON is the contract's.
@Suite struct CheckTests {
    /// The codes of Docs/Reference/Formats.md, "Findings".
    static let contractCodes: Set<String> = [
        "not-a-zip", "legacy-xls", "encrypted-workbook", "corrupt-zip", "unsafe-zip-entry", "zip-bomb",
        "forbidden-dtd", "malformed-xml", "missing-part", "exceeds-limit", "extra-worksheets", "macros-dropped",
        "unsupported-feature", "formatting-dropped", "authored-colours", "formula-no-cached-value", "date-1904",
        "strict-ooxml", "ods-workbook", "xlsb-workbook", "first-worksheet-hidden",
    ]

    /// The hostile files, made once for the suite by Fixtures/hostile/make_hostile.py, with their codes.
    static let hostile: (folder: URL, expected: [String: String?])? = {
        guard let folder = try? temporaryFolder() else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Project.root.appendingPathComponent("Fixtures/hostile/make_hostile.py").path,
                             folder.path, "--expected"]
        let output = Pipe()
        process.standardOutput = output
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return (folder, object.mapValues { $0 as? String })
    }()

    static let hostileNames = hostile.map { $0.expected.keys.sorted() } ?? []

    @Test func hostileFilesAreMade() {
        #expect(Self.hostileNames.count >= 18)
    }

    @Test(arguments: hostileNames)
    func hostileFileGivesItsCode(_ name: String) throws {
        let hostile = try #require(Self.hostile)
        let started = Date()
        let report = try Preflight.check(path: hostile.folder.appendingPathComponent(name).path)
        #expect(Date().timeIntervalSince(started) < 20, "\(name) took too long")
        let errors = report.findings.filter { $0.severity == .error }.map(\.code)
        let expected = hostile.expected[name] ?? nil
        if let expected {
            #expect(errors.first == expected, "\(name): \(report.json)")
            #expect(!report.importable)
        } else {
            #expect(errors.isEmpty, "\(name): \(report.json)")
        }
    }

    @Test func mergedRangesAreCounted() throws {
        let hostile = try #require(Self.hostile)
        let report = try Preflight.check(path: hostile.folder.appendingPathComponent("merged_20000.xlsx").path)
        #expect(report.findings.contains { $0.code == "unsupported-feature" && $0.count == 20_000 && $0.message.contains("merged") })
    }

    @Test func limitsAreSettable() throws {
        let hostile = try #require(Self.hostile)
        var options = PreflightOptions()
        options.limits.maxEntries = 30_000
        let report = try Preflight.check(path: hostile.folder.appendingPathComponent("many_entries.xlsx").path, options: options)
        #expect(!report.findings.contains { $0.code == "zip-bomb" })
        options = PreflightOptions()
        options.maxCells = Int.max
        let grid = try Preflight.check(path: hostile.folder.appendingPathComponent("xfd_whole_grid.xlsx").path, options: options)
        #expect(grid.importable)
        #expect(grid.worksheets.first?.rows == 1_048_576)
        #expect(grid.worksheets.first?.columns == 16_384)
        #expect(grid.worksheets.first?.cells == 1)
    }

    @Test(arguments: Project.corpusFiles())
    func corpusFileGivesAReport(_ name: String) throws {
        let report = try Preflight.check(path: Project.corpus.appendingPathComponent(name).path)
        #expect(report.worksheets.filter(\.imported).count <= 1)
        for finding in report.findings { #expect(Self.contractCodes.contains(finding.code), "\(finding.code)") }
        if let code = Project.expectedCorpusErrors[name] {
            #expect(report.findings.first?.code == code.rawValue, "\(name): \(report.json)")
            #expect(!report.importable)
        }
    }

    @Test func multiSheetCorpusFilesNameTheSheetsNotImported() throws {
        var multiSheet = 0
        for name in Project.corpusFiles() {
            let report = try Preflight.check(path: Project.corpus.appendingPathComponent(name).path)
            let others = report.worksheets.filter { !$0.imported }
            guard report.worksheets.count > 1, report.importable else { continue }
            multiSheet += 1
            let warning = try #require(report.findings.first { $0.code == "extra-worksheets" }, "\(name)")
            #expect(warning.severity == .warning)
            #expect(warning.count == others.count)
            for sheet in others { #expect(warning.message.contains("\"\(sheet.name)\""), "\(name): \(sheet.name)") }
            #expect(report.worksheets.filter(\.imported).count == 1)
        }
        #expect(multiSheet >= 20)
    }

    @Test func reportJSONHasTheContractShape() throws {
        let report = try Preflight.check(path: Project.corpus.appendingPathComponent("calamine__any_sheets.xlsx").path)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["file", "format", "importable", "worksheets", "findings"])
        #expect(object["format"] as? String == "xlsx")
        #expect(object["importable"] as? Bool == true)
        let sheets = try #require(object["worksheets"] as? [[String: Any]])
        #expect(sheets.first?["name"] as? String == "Visible")
        #expect(sheets.first?["imported"] as? Bool == true)
        #expect(sheets.map { $0["state"] as? String } == ["visible", "hidden", "veryHidden", "visible"])
        #expect(sheets.first?["rows"] is Int && sheets.first?["columns"] is Int && sheets.first?["cells"] is Int)
        for sheet in sheets.dropFirst() {
            #expect(Set(sheet.keys) == ["name", "state", "imported"])
            #expect(sheet["imported"] as? Bool == false)
        }
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(!findings.isEmpty)
        for finding in findings {
            #expect(Self.contractCodes.contains(finding["code"] as? String ?? ""))
            #expect(["error", "warning", "info"].contains(finding["severity"] as? String ?? ""))
            #expect(!(finding["message"] as? String ?? "").isEmpty)
        }
    }

    @Test func infoFindings() throws {
        let dates = try Preflight.check(path: Project.corpus.appendingPathComponent("calamine__date_1904.xlsx").path)
        #expect(dates.findings.contains { $0.code == "date-1904" && $0.severity == .info })
        let strict = try Preflight.check(path: Project.fixture("strict_ooxml.xlsx"))
        #expect(strict.findings.contains { $0.code == "strict-ooxml" && $0.severity == .info })
        let macros = try Preflight.check(path: Project.corpus.appendingPathComponent("calamine__vba.xlsm").path)
        #expect(macros.format == "xlsm")
        #expect(macros.findings.contains { $0.code == "macros-dropped" })
    }

    @Test func droppedFormattingIsCountedOverTheCellsThatUseIt() throws {
        let rich = try Preflight.check(path: Project.fixture("shared_strings_rich.xlsx"))
        #expect(rich.findings.contains { $0.code == "formatting-dropped" && $0.count == 4 && $0.message.contains("rich text") })
        let census = try Preflight.check(path: Project.corpus.appendingPathComponent("corexlsx__jewelershealthcare.com-census.1.xlsx").path)
        #expect(census.findings.contains { $0.code == "formatting-dropped" && $0.message.contains("borders") })
        #expect(census.findings.contains { $0.code == "authored-colours" && $0.message.contains("#FFFFFF on no fill") })
        #expect(census.findings.contains { $0.code == "unsupported-feature" && $0.message.contains("data validation") })
        // The census has a table: tables are kept by an import, not reported as lost.
        #expect(!census.findings.contains { $0.code == "unsupported-feature" && $0.message.contains("xl/tables/") })
    }

    @Test func fuzzRegressionsGiveAReport() throws {
        let folder = Project.root.appendingPathComponent("Fixtures/fuzz-regressions")
        // Workbooks and worksheet parts; the folders (a fuzz target's own inputs) are not packages.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder) && !isFolder.boolValue
        }
        #expect(!names.isEmpty)
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            _ = try Preflight.check(bytes: bytes, name: name)
            _ = try Preflight.check(path: folder.appendingPathComponent(name).path)
        }
    }

    @Test func damagedCompoundFilesAreRefusedWithoutACrash() throws {
        var bytes = CompoundFile.signature + [UInt8](repeating: 0xFF, count: 600)
        #expect(throws: CompoundFile.ReadError.self) { try CompoundFile(bytes: bytes) }
        bytes = CompoundFile.signature
        let report = try Preflight.check(bytes: bytes, name: "short.xlsx")
        #expect(report.findings.first?.code == "not-a-zip")
        let encrypted = try Data(contentsOf: Project.root.appendingPathComponent("Fixtures/hostile/encrypted.xlsx"))
        for length in stride(from: 0, to: encrypted.count, by: 97) {
            _ = try Preflight.check(bytes: [UInt8](encrypted.prefix(length)), name: "cut.xlsx")
        }
        #expect(try CompoundFile(bytes: [UInt8](encrypted)).kind == .encryptedWorkbook)
        let legacy = try Data(contentsOf: Project.root.appendingPathComponent("Fixtures/hostile/legacy_xls.xlsx"))
        #expect(try CompoundFile(bytes: [UInt8](legacy)).kind == .legacyWorkbook)
    }

    @Test func unsafeNamesAndFeatureParts() {
        #expect(UnsafeEntryName.reason("/etc/passwd") != nil)
        #expect(UnsafeEntryName.reason("xl/../../evil") != nil)
        #expect(UnsafeEntryName.reason("..\\evil") != nil)
        #expect(UnsafeEntryName.reason("C:/evil") != nil)
        #expect(UnsafeEntryName.reason("xl/worksheets/sheet1.xml") == nil)
        #expect(UnsafeEntryName.reason("xl/..data/x.xml") == nil)
        func features(_ name: String) -> [String] { PackageFeature.all.filter { $0.matches(name) }.map(\.name) }
        #expect(features("xl/charts/chart1.xml") == ["charts"])
        #expect(features("xl/charts/style1.xml").isEmpty)
        #expect(features("xl/vbaproject.bin") == ["VBA projects"])
        #expect(features("xl/pivottables/pivottable1.xml") == ["pivot tables"])
        #expect(features("xl/tables/table1.xml").isEmpty)
        #expect(features("xl/worksheets/sheet1.xml").isEmpty)
    }

    @Test func contrastRatios() {
        #expect(abs(Contrast.ratio(0x000000, 0xFFFFFF) - 21) < 0.001)
        #expect(Contrast.ratio(0x777777, 0x777777) == 1)
        #expect(Contrast.poorModes(text: "#FFFF00", fill: "#FFFFFF").map(\.mode) == [.light, .dark])
        #expect(Contrast.poorModes(text: "#FFFFFF", fill: nil).map(\.mode) == [.light])
        #expect(Contrast.poorModes(text: "#000080", fill: nil).map(\.mode) == [.dark])
        #expect(Contrast.poorModes(text: "#000000", fill: "#FFFFFF").isEmpty)
        #expect(Contrast.poorModes(text: nil, fill: nil).isEmpty)
    }

    /// A comments relationship to a missing part is one `missing-part` finding, and the
    /// imported sheet is still measured.
    @Test func danglingCommentsAreOneFindingAndTheSheetIsStillMeasured() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sheet = #"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#
            + #"<row r="1"><c r="A1"><v>1</v></c><c r="B1"><v>2</v></c></row></sheetData></worksheet>"#
        let relationships = #"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#
            + #"<Relationship Id="rId1" Target="../comments1.xml" "#
            + #"Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments"/></Relationships>"#
        let path = try minimalWorkbook(sheetXML: sheet, extraParts: ["xl/worksheets/_rels/sheet1.xml.rels": relationships], in: folder)
        let report = try Preflight.check(path: path)
        #expect(!report.importable)
        #expect(report.findings.filter { $0.code == "missing-part" }.count == 1, "\(report.findings)")
        let imported = report.worksheets.first { $0.imported }
        #expect(imported?.cells == 2)
        #expect(imported?.columns == 2)
    }

    /// The upload cap is held against the bytes checked, also when they came from standard
    /// input (named `-`, which is no file to measure).
    @Test func uploadCapAppliesToBytesFromStandardInput() throws {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: Project.fixture("cell_types.xlsx"))))
        var options = PreflightOptions()
        options.maxUploadBytes = Int64(bytes.count - 1)
        let report = try Preflight.check(bytes: bytes, name: "-", options: options)
        #expect(report.findings.contains { $0.code == "exceeds-limit" && $0.message.contains("upload limit") })
        options.maxUploadBytes = Int64(bytes.count)
        #expect(!(try Preflight.check(bytes: bytes, name: "-", options: options)).findings.contains { $0.code == "exceeds-limit" })
    }
}
