import Foundation
import Testing
import SheetPortCalc
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport

/// Issue 35, attack 6: a dynamic array's spilled values are cells like any other through the
/// real server: in `changed`, rows windows, views, history and the export, each naming its
/// anchor (`"spill":"G1"`); a spill that shrinks, moves or is blocked clears the cells it left.
@Suite(.serialized) struct SpillCellsTests {
    static func number(_ cell: [String: Any]?) -> Double? { cell?["value"] as? Double }

    @Test func spilledCellsAppearInChangedRowsAndViews() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        _ = try sheet.write(["A1": "1", "A2": "2", "A3": "3", "A4": "4", "A5": "5"])
        let answer = EditingClient.changed(try sheet.write(["G1": "=A1:A5*2", "H1": "=G2"]))
        for row in 1...5 {
            let cell = answer["G\(row)"]
            #expect(Self.number(cell) == Double(row * 2), "G\(row): \(String(describing: cell))")
            #expect(cell?["spill"] as? String == "G1", "G\(row): \(String(describing: cell))")
            #expect(cell?["display"] as? String == String(row * 2))
        }
        #expect(answer["G1"]?["arrayRange"] as? String == "G1:G5" && answer["G1"]?["input"] as? String == "=A1:A5*2")
        #expect(answer["G2"]?["input"] as? String == "" && answer["G2"]?["formula"] == nil)
        #expect(Self.number(answer["H1"]) == 4)
        let cells = try sheet.cells()
        for row in 2...5 {
            #expect(Self.number(cells["G\(row)"]) == Double(row * 2) && cells["G\(row)"]?["spill"] as? String == "G1", "\(String(describing: cells["G\(row)"]))")
        }
        // A changed source moves its spilled value, in `changed` and in the window.
        let moved = EditingClient.changed(try sheet.write(["A3": "30"]))
        #expect(Self.number(moved["G3"]) == 60 && moved["G3"]?["spill"] as? String == "G1", "\(moved)")
        #expect(Self.number(try sheet.cells()["G3"]) == 60)
        // A view sorts spilled cells as any other.
        let view = try fixture.api.object("/api/sheets/\(sheet.sheet)/view?sort=G:desc&count=2")
        let rows = view["rows"] as? [[String: Any]] ?? []
        let top = (rows.first?["cells"] as? [[String: Any]])?.first { $0["ref"] as? String == "G3" }
        #expect(rows.first?["row"] as? Int == 3 && top?["spill"] as? String == "G1" && Self.number(top) == 60, "\(view)")
    }

    @Test func aBlockedSpillIsSpillErrorAndClearsItsCellsThenSpillsAgain() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        _ = try sheet.write(["A1": "1", "A2": "2", "A3": "3", "G1": "=A1:A3*2"])
        // Typing into a spilled cell stores the input and blocks the spill.
        let blocked = EditingClient.changed(try sheet.write(["G3": "x"]))
        #expect(blocked["G1"]?["value"] as? String == "#SPILL!" && blocked["G1"]?["arrayRange"] == nil, "\(blocked)")
        #expect(blocked["G3"]?["value"] as? String == "x" && blocked["G3"]?["input"] as? String == "x" && blocked["G3"]?["spill"] == nil)
        #expect(blocked["G2"]?["type"] as? String == "empty" && blocked["G2"]?["input"] as? String == "" && blocked["G2"]?["spill"] == nil, "\(blocked)")
        var cells = try sheet.cells()
        #expect(cells["G2"] == nil && cells["G3"]?["value"] as? String == "x" && cells["G1"]?["value"] as? String == "#SPILL!")
        // Clearing the blocker spills again.
        let unblocked = EditingClient.changed(try sheet.write(["G3": ""]))
        #expect(Self.number(unblocked["G1"]) == 2 && Self.number(unblocked["G2"]) == 4 && Self.number(unblocked["G3"]) == 6, "\(unblocked)")
        #expect(unblocked["G3"]?["spill"] as? String == "G1")
        cells = try sheet.cells()
        #expect(Self.number(cells["G3"]) == 6 && cells["G3"]?["spill"] as? String == "G1")
        // History: the typed input, then the clear that gave the cell back to the spill.
        let history = try fixture.api.object("/api/sheets/\(sheet.sheet)/cells/G3/history")["history"] as? [[String: Any]] ?? []
        #expect(history.map { $0["input"] as? String } == ["", "x"], "\(history)")
        #expect(history.first?["spill"] as? String == "G1" && history.last?["spill"] == nil, "\(history)")
        // Undo of a write into a spill gives the cell back to it.
        _ = try sheet.write(["G2": "y"])
        #expect(try sheet.cells()["G1"]?["value"] as? String == "#SPILL!")
        let undone = try sheet.post("undo", [:])
        #expect(undone.status == 200, "\(undone.text)")
        let back = EditingClient.changed(try EditingClient.object(undone))
        #expect(Self.number(back["G2"]) == 4 && back["G2"]?["spill"] as? String == "G1" && Self.number(back["G1"]) == 2, "\(back)")
        // A spilled cell copies as its value.
        let copied = EditingClient.changed(try EditingClient.object(try sheet.post("copy", ["source": "G2", "target": "K1"])))
        #expect(Self.number(copied["K1"]) == 4 && copied["K1"]?["input"] as? String == "4" && copied["K1"]?["spill"] == nil, "\(copied)")
    }

    /// The spill as stored survives a restart: the reloaded graph spills the anchor again over
    /// the stored spilled cells (never reading them as constants that would block it).
    @Test func aSpillSurvivesARestart() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        _ = try sheet.write(["A1": "1", "A2": "2", "A3": "3", "C1": "=SEQUENCE(1,3)", "G1": "=A1:A3*2", "H1": "=SUM(G1#)", "J1": "=A1:A2", "J2": "z"])
        try fixture.server.restart()
        let api = fixture.server.api(try fixture.server.token("ann"))
        let again = EditingClient(api, sheet.sheet)
        var cells = try again.cells()
        #expect(Self.number(cells["G3"]) == 6 && cells["G3"]?["spill"] as? String == "G1" && Self.number(cells["H1"]) == 12)
        #expect(cells["J1"]?["value"] as? String == "#SPILL!")
        let changed = EditingClient.changed(try again.write(["A3": "30", "A4": "4"]))
        #expect(Self.number(changed["G3"]) == 60 && Self.number(changed["H1"]) == 66, "\(changed)")
        // The blocked one spills once its blocker goes; the row spill is intact.
        let unblocked = EditingClient.changed(try again.write(["J2": ""]))
        #expect(Self.number(unblocked["J2"]) == 2 && unblocked["J2"]?["spill"] as? String == "J1", "\(unblocked)")
        cells = try again.cells()
        #expect(Self.number(cells["E1"]) == 3 && cells["E1"]?["spill"] as? String == "C1")
    }

    @Test func aShrinkingOrMovingSpillClearsTheCellsItLeft() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        _ = try sheet.write(["B1": "4", "G1": "=SEQUENCE(B1)"])
        #expect(Self.number(try sheet.cells()["G4"]) == 4)
        let shrunk = EditingClient.changed(try sheet.write(["B1": "2"]))
        #expect(shrunk["G3"]?["type"] as? String == "empty" && shrunk["G4"]?["type"] as? String == "empty", "\(shrunk)")
        #expect(shrunk["G1"]?["arrayRange"] as? String == "G1:G2")
        var cells = try sheet.cells()
        #expect(cells["G3"] == nil && cells["G4"] == nil && Self.number(cells["G2"]) == 2)
        // The formula goes: its spill goes with it.
        let moved = EditingClient.changed(try sheet.write(["G1": "", "J1": "=SEQUENCE(1,3)"]))
        #expect(moved["G2"]?["type"] as? String == "empty" && Self.number(moved["L1"]) == 3 && moved["L1"]?["spill"] as? String == "J1", "\(moved)")
        cells = try sheet.cells()
        #expect(cells["G2"] == nil && cells["K1"]?["spill"] as? String == "J1")
    }

    /// The export writes the anchor as Excel 365 writes a dynamic array and the spilled values
    /// as cached values; openpyxl reads them, and a re-import gives the same formula and values.
    @Test func theExportCarriesTheSpillAndReimports() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        _ = try sheet.write(["A1": "1", "A2": "2", "A3": "3", "G1": "=A1:A3*2", "H1": "=SUM(G1#)"])
        let values = try sheet.exportedValues(in: fixture.folder)
        #expect(values["G1"] as? Double == 2 && values["G2"] as? Double == 4 && values["G3"] as? Double == 6, "\(values)")
        #expect(values["H1"] as? Double == 12)
        let response = try fixture.api.call("GET", "/api/sheets/\(sheet.sheet)/export.xlsx")
        let file = fixture.folder.appendingPathComponent("spill.xlsx")
        try Data(response.body).write(to: file)
        let parts = try runPython("""
            import sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            sheet = z.read('xl/worksheets/sheet1.xml').decode()
            print('metadata' if 'xl/metadata.xml' in z.namelist() else 'none')
            print('cm' if '<c r="G1" cm="1"><f t="array" ref="G1:G3">' in sheet else sheet)
            print('XLDAPR' if b'fDynamic="1"' in z.read('xl/metadata.xml') else 'no')
            import openpyxl
            g1 = openpyxl.load_workbook(sys.argv[1]).active['G1'].value
            print(g1.ref + ' ' + g1.text)
            """, arguments: [file.path])
        #expect(parts.split(separator: "\n") == ["metadata", "cm", "XLDAPR", "G1:G3 =A1:A3*2"], "\(parts)")
        // Back in: the anchor keeps its formula and the values come back.
        let reimported = try fixture.api.call("POST", "/api/imports", body: .bytes([UInt8](try Data(contentsOf: file))), headers: [("X-Filename", "spill.xlsx")])
        #expect(reimported.status == 202, "\(reimported.text)")
        let job = try #require((try EditingClient.object(reimported))["job"] as? [String: Any])
        var result: [String: Any] = [:]
        for _ in 0..<200 {
            result = try fixture.api.object("/api/imports/\(job["id"] as! String)")["job"] as? [String: Any] ?? [:]
            if result["status"] as? String == "succeeded" || result["status"] as? String == "failed" { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let id = try #require(((result["result"] as? [String: Any])?["sheet"] as? [String: Any])?["id"] as? String, "\(result)")
        let back = try EditingClient(fixture.api, id).cells()
        #expect(back["G1"]?["formula"] as? String == "A1:A3*2" && Self.number(back["G1"]) == 2 && Self.number(back["G3"]) == 6, "\(back) \(result)")
        #expect(Self.number(back["H1"]) == 12)
    }

    /// The `xl/metadata.xml` of an Excel 365 file whose cells with `cm="1"` are dynamic arrays.
    static let dynamicArrayMetadata = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><metadata xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" "
        + "xmlns:xda=\"http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray\"><metadataTypes count=\"1\">"
        + "<metadataType name=\"XLDAPR\" minSupportedVersion=\"120000\" cellMeta=\"1\"/></metadataTypes>"
        + "<futureMetadata name=\"XLDAPR\" count=\"1\"><bk><extLst><ext uri=\"{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}\">"
        + "<xda:dynamicArrayProperties fDynamic=\"1\" fCollapsed=\"0\"/></ext></extLst></bk></futureMetadata>"
        + "<cellMetadata count=\"1\"><bk><rc t=\"1\" v=\"0\"/></bk></cellMetadata></metadata>"

    /// An imported Excel 365 file's dynamic arrays: their spilled cells (plain values in the
    /// file) are marked with their anchor at import, in rows windows and `cells get`'s reads, a
    /// spill reaching a block without a formula and cells past the file's stale `ref` too (the
    /// sheet's extent takes them in); a legacy array formula's cells are not spilled; a later
    /// write keeps the marks.
    @Test func importedDynamicArraysAreSpilledCells() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheetData = RawWorkbook.row(1, RawWorkbook.number("A1", "1"),
                                        "<c r=\"G1\" cm=\"1\"><f t=\"array\" ref=\"G1:G3\">A1:A3*2</f><v>2</v></c>",
                                        "<c r=\"K1\"><f t=\"array\" ref=\"K1:K3\">A1:A3</f><v>1</v></c>")
            + RawWorkbook.row(2, RawWorkbook.number("A2", "2"), RawWorkbook.number("G2", "4"), RawWorkbook.number("K2", "2"))
            + RawWorkbook.row(3, RawWorkbook.number("A3", "3"), RawWorkbook.number("G3", "6"), RawWorkbook.number("K3", "3"))
            // Rows 63 to 66 cross a row block; the file's ref (J63:J64) is older than the spill.
            + RawWorkbook.row(63, "<c r=\"J63\" cm=\"1\"><f t=\"array\" ref=\"J63:J64\">_xlfn.SEQUENCE(4)</f><v>1</v></c>")
            + RawWorkbook.row(64, RawWorkbook.number("J64", "2"))
        var raw = RawWorkbook(sheets: [.init(name: "S", sheetData: sheetData)])
        raw.otherParts = [("xl/metadata.xml", Self.dynamicArrayMetadata)]
        let path = fixture.folder.appendingPathComponent("dynamic.xlsx").path
        try raw.write(to: path)
        let job = try fixture.api.importWorkbook(path)
        try #require(job["status"] as? String == "succeeded", "\(job)")
        let id = try #require(((job["result"] as? [String: Any])?["sheet"] as? [String: Any])?["id"] as? String)
        let sheet = EditingClient(fixture.api, id)
        var cells = try sheet.cells()
        for (ref, value, anchor) in [("G1", 2.0, "G1"), ("G2", 4, "G1"), ("G3", 6, "G1"), ("J63", 1, "J63"), ("J64", 2, "J63"), ("J65", 3, "J63"), ("J66", 4, "J63")] {
            #expect(Self.number(cells[ref]) == value && cells[ref]?["spill"] as? String == anchor, "\(ref): \(cells[ref] ?? [:])")
        }
        #expect(cells["G2"]?["input"] as? String == "" && cells["G1"]?["formula"] as? String == "A1:A3*2", "\(cells["G2"] ?? [:]) \(cells["G1"] ?? [:])")
        for ref in ["K1", "K2", "K3", "A1"] { #expect(cells[ref]?["spill"] == nil, "\(ref): \(cells[ref] ?? [:])") }
        #expect(try fixture.api.object("/api/sheets/\(id)")["rows"] as? Int == 66)
        // A window of the second block alone reads its spilled cells.
        let window = try fixture.api.object("/api/sheets/\(id)/rows?start=65&count=2")
        let refs = (window["rows"] as? [[String: Any]] ?? []).flatMap { ($0["cells"] as? [[String: Any]] ?? []).map { "\($0["ref"] ?? "") \($0["spill"] ?? "")" } }
        #expect(refs == ["J65 J63", "J66 J63"], "\(refs)")
        // A write the spill reads keeps the marks and moves the values.
        _ = try sheet.write(["A2": "5"])
        cells = try sheet.cells()
        #expect(Self.number(cells["G2"]) == 10 && cells["G2"]?["spill"] as? String == "G1" && cells["G3"]?["spill"] as? String == "G1", "\(cells["G2"] ?? [:])")
    }

    /// Hostile: a spill past `maxArrayCells` is `#NUM!` and spills nothing; the server answers on.
    @Test func aSpillPastTheArrayCapSpillsNothing() throws {
        let fixture = try ServerFixture { $0.calcLimits = .init(maxArrayCells: 1_000, maxEvalBytes: 64 << 20, maxEvalSteps: 10_000_000) }
        defer { fixture.close() }
        let sheet = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        let answer = try sheet.write(["A1": "=SEQUENCE(2000)", "B1": "=SEQUENCE(1000)"])
        let changed = EditingClient.changed(answer)
        #expect(changed["A1"]?["value"] as? String == "#NUM!" && changed["A2"] == nil, "\(changed["A1"] ?? [:])")
        #expect(Self.number(changed["B500"]) == 500 && changed["B500"]?["spill"] as? String == "B1")
        #expect(answer["more"] as? Bool == true)
        let cells = try sheet.cells()
        #expect(cells.count == 1_001 && Self.number(cells["B1000"]) == 1000)
    }
}
