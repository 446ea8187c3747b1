import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport

/// Copy with formula translation (checked against openpyxl's `Translator`), concurrent writers,
/// history, restore and undo, and the export after a write, through a real `sheetport serve`.
@Suite struct ServerEditingFlowTests {
    /// Paste and fill translate formulas as Excel does: every pasted formula equals what
    /// openpyxl's `openpyxl.formula.translate.Translator` makes of the source formula for the
    /// target cell; where Translator finds the reference off the grid the paste holds `#REF!`.
    /// Styles come along; empty source cells empty their targets.
    @Test func copyTranslatesFormulasAsOpenpyxlDoes() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        let sources: [(String, String)] = [
            ("A1", "1"), ("A2", "2"), ("A3", "12%"),
            ("B2", "=A1*2"), ("C2", "=$A1+A$1+$A$1"), ("D2", "=SUM(A1:A3)"), ("E2", "=SUM(A:A)"), ("F2", "=SUM(1:1)"),
            ("B3", "=SUM($A$1:A2)"), ("C3", "=IF(A2>1,\"big\",A1)"), ("D3", "=A1:A2 A2:A3"), ("E3", "=B2+C2-D$2"), ("F3", "=$A2*A$3"),
        ]
        _ = try sheet.write(sources)
        // Paste a block down and right, fill a row downwards, and move one up past row 1.
        let copies: [(source: String, target: String, pairs: [(String, String)])] = [
            ("B2:F3", "H10", Self.pairs(source: "B2:F3", target: "H10:L11")),
            ("B2:F2", "B5:F8", Self.pairs(source: "B2:F2", target: "B5:F8")),
            ("B2:C2", "B1", [("B2", "B1"), ("C2", "C1")]),
            ("A3", "G1", [("A3", "G1")]),
        ]
        var checked = 0
        for copy in copies {
            let response = try sheet.post("copy", ["source": copy.source, "target": copy.target])
            try #require(response.status == 200, "\(copy.source) -> \(copy.target): \(response.text)")
            let cells = try sheet.cells()
            var items: [(source: String, target: String, formula: String)] = []
            for (from, to) in copy.pairs {
                guard let input = sources.first(where: { $0.0 == from })?.1 else { continue }
                if input.hasPrefix("=") {
                    items.append((from, to, input))
                } else if from == "A3" {
                    // A constant: the same value with its style (12% keeps its percent format).
                    #expect(cells[to]?["display"] as? String == "12%", "\(to): \(cells[to] ?? [:])")
                }
            }
            for (item, translated) in zip(items, try Self.translate(items)) {
                let pasted = cells[item.target]?["formula"] as? String
                if let translated {
                    #expect(pasted.map { "=" + $0 } == translated, "\(item.source) -> \(item.target): \(pasted ?? "nil") against Translator's \(translated)")
                } else {
                    #expect(pasted?.contains("#REF!") == true, "\(item.source) -> \(item.target): \(pasted ?? "nil") should be off the grid")
                }
                checked += 1
            }
        }
        #expect(checked == 32)
        // An empty source cell empties its target.
        _ = try sheet.write(["Z1": "x"])
        #expect(try sheet.post("copy", ["source": "Y1", "target": "Z1"]).status == 200)
        #expect(try sheet.cells()["Z1"] == nil)
    }

    /// The (source, target) cell pairs of pasting `source` over `target` (same shape or a multiple).
    static func pairs(source: String, target: String) -> [(String, String)] {
        let s = CellRange(source)!, t = CellRange(target)!
        var pairs: [(String, String)] = []
        for row in t.start.row...t.end.row {
            for column in t.start.column...t.end.column {
                let from = CellReference(row: s.start.row + (row - t.start.row) % s.rowCount, column: s.start.column + (column - t.start.column) % s.columnCount)
                pairs.append((from.description, CellReference(row: row, column: column).description))
            }
        }
        return pairs
    }

    /// openpyxl's Translator of each formula from its source to its target cell; nil where it
    /// raises `TranslatorError` (a reference moved off the grid).
    static func translate(_ items: [(source: String, target: String, formula: String)]) throws -> [String?] {
        let script = """
            import sys, json
            from openpyxl.formula.translate import Translator, TranslatorError
            out = []
            for source, target, formula in json.load(sys.stdin):
                try: out.append(Translator(formula, origin=source).translate_formula(target))
                except TranslatorError: out.append(None)
            print(json.dumps(out))
            """
        let input = String(decoding: try JSONSerialization.data(withJSONObject: items.map { [$0.source, $0.target, $0.formula] }), as: UTF8.self)
        let output = try runPython(script, input: input)
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [Any]).map { $0 as? String }
    }

    /// Two writers on one sheet at once: no update is lost, each answer's version is new and
    /// each writer's grow strictly, the sheet's events come in version order naming each
    /// write's cells, and a formula over every written cell sums them all.
    @Test func concurrentWritersLoseNothing() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let id = try EditingClient.create(fixture.api)
        #expect(try fixture.api.call("POST", "/api/sheets/\(id)/grants", json: ["subject": "bob", "role": "editor"]).status < 300)
        let bob = fixture.server.api(try fixture.server.token("bob"))
        let base = try #require(try EditingClient(fixture.api, id).write(["C1": "=SUM(A1:B40)"])["version"] as? Int)
        let writes = 40
        let (versions, failures) = EditingClient.twoWriters([fixture.api, bob], sheet: id, writes: writes)
        #expect(failures.isEmpty, "\(failures)")
        for list in versions { #expect(list == list.sorted() && Set(list).count == list.count, "\(list)") }
        let all = versions.flatMap { $0 }
        #expect(Set(all) == Set((base + 1)...(base + 2 * writes)), "\(all.sorted())")
        let client = EditingClient(fixture.api, id)
        let cells = try client.cells()
        #expect((1...writes).allSatisfy { cells["A\($0)"]?["value"] as? Double == Double($0) && cells["B\($0)"]?["value"] as? Double == Double($0) })
        #expect(cells["C1"]?["value"] as? Double == Double(writes * (writes + 1)))
        let events = try fixture.server.store().sheetEvents(of: id, after: base, limit: 1_000)
        #expect(events.map(\.version) == Array((base + 1)...(base + 2 * writes)))
        // Each write names its input and C1.
        #expect(events.allSatisfy { $0.change == .cells && $0.refs?.count == 2 && $0.refs?.contains(CellReference("C1")!) == true }, "\(events.prefix(3))")
    }

    /// A cell's history newest first, with who wrote each input and the import's one entry;
    /// restore brings back an earlier input as a new version; undo takes back only the caller's
    /// own last write, and 409 when there is none.
    @Test func historyRestoreAndUndo() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let book = fixture.folder.appendingPathComponent("history.xlsx").path
        try writeWithOpenpyxl("for r in range(1, 201):\n    ws.cell(row=r, column=1, value=r)\nws['B1'] = '=A1*2'", to: book)
        let id = try fixture.api.importSheet(book)
        // The import wrote one history entry for the whole sheet, not one per cell.
        let entries = try fixture.server.store().query("SELECT COUNT(*), MIN(change) FROM cell_history WHERE sheet_id = ?", [.text(id)])
        #expect(entries.first?[0].int == 1 && entries.first?[1].string == "imported")
        #expect(try fixture.api.call("POST", "/api/sheets/\(id)/grants", json: ["subject": "bob", "role": "editor"]).status < 300)
        #expect(try fixture.api.call("POST", "/api/sheets/\(id)/grants", json: ["subject": "vic", "role": "viewer"]).status < 300)
        let bob = fixture.server.api(try fixture.server.token("bob"))
        let vic = fixture.server.api(try fixture.server.token("vic"))
        let ann = EditingClient(fixture.api, id), bobs = EditingClient(bob, id)
        // The grants moved the sheet to version 3.
        let annsVersion = try #require(try ann.write(["A1": "10"])["version"] as? Int)
        let bobsVersion = try #require(try bobs.write(["A1": "=5*5"])["version"] as? Int)
        #expect(annsVersion == 4 && bobsVersion == 5)

        let history = try #require(try vic.object("/api/sheets/\(id)/cells/A1/history")["history"] as? [[String: Any]])
        #expect(history.map { $0["version"] as? Int } == [bobsVersion, annsVersion, 1])
        #expect(history.map { $0["subject"] as? String } == ["bob", "ann", "ann"])
        #expect(history.map { $0["input"] as? String } == ["=5*5", "10", "1"])
        #expect(history.allSatisfy { ($0["at"] as? String)?.hasSuffix("Z") == true })

        // Restore the input of ann's version: a new version, B1 follows.
        let restored = try ann.post("cells/A1/restore", ["version": annsVersion])
        #expect(restored.status == 200, "\(restored.text)")
        let changed = EditingClient.changed(try EditingClient.object(restored))
        #expect(changed["A1"]?["value"] as? Double == 10 && changed["B1"]?["value"] as? Double == 20)
        #expect(try ann.post("cells/A1/restore", ["version": 99]).status == 400)
        #expect(try ann.post("cells/A1/restore", ["version": "2"]).status == 400)

        // Ann's undo takes back her restore (her last write), not bob's formula; then her first write.
        let undo = try ann.post("undo", [:])
        #expect(undo.status == 200, "\(undo.text)")
        #expect(try ann.cells()["A1"]?["formula"] as? String == "5*5")
        // Her first write's A1 is bob's since: it stays his formula (undo never takes back another's write).
        let skipping = try ann.post("undo", [:])
        #expect(skipping.status == 200 && skipping.object["skipped"] as? [String] == ["A1"], "\(skipping.text)")
        #expect(try ann.cells()["A1"]?["value"] as? Double == 25)
        let nothing = try ann.post("undo", [:])
        #expect(nothing.status == 409 && EditingClient.code(nothing) == "nothing-to-undo")
        // Bob's undo takes back his formula: A1 gets the 10 it replaced.
        #expect(try bobs.post("undo", [:]).status == 200)
        let afterBob = try ann.cells()
        #expect(afterBob["A1"]?["value"] as? Double == 10 && afterBob["B1"]?["value"] as? Double == 20)
        #expect(try vic.call("POST", "/api/sheets/\(id)/undo").status == 403)
        #expect(try ann.api.call("GET", "/api/sheets/\(id)/cells/XFE1/history").status == 400)
    }

    /// An export after a write carries the new values, formulas and typed formats, as openpyxl
    /// reads the exported file.
    @Test func exportAfterAWriteCarriesTheNewValues() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let book = fixture.folder.appendingPathComponent("export.xlsx").path
        try writeWithOpenpyxl("ws['A1'] = 1\nws['A2'] = 2\nws['A3'] = '=SUM(A1:A2)'\nws['B1'] = '=A1*10'", to: book)
        let id = try fixture.api.importSheet(book)
        let sheet = EditingClient(fixture.api, id)
        _ = try sheet.write(["A1": "5", "C1": "=A3&\" total\"", "D1": "12%", "D2": "3/1/2026"])
        let exported = try sheet.exported(in: fixture.folder)
        #expect(exported.values["A1"] as? Int == 5)
        #expect(exported.values["A3"] as? Int == 7)
        #expect(exported.values["B1"] as? Int == 50)
        #expect(exported.values["C1"] as? String == "7 total")
        #expect(exported.values["D1"] as? Double == 0.12 && exported.formats["D1"] == "0%")
        #expect((exported.values["D2"] as? String)?.hasPrefix("2026-03-01") == true)
        #expect(exported.formulas["A3"] == "SUM(A1:A2)" && exported.formulas["C1"] == "A3&\" total\"")
    }
}
