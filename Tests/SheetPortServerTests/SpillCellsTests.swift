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
