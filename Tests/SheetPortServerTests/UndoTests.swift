import Foundation
import Testing
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortConvert

/// What a client sees of a sheet: every cell as rows windows show it (input, formula, value,
/// type, display, style), each row's height and each column's width.
private struct SheetState: Equatable, CustomStringConvertible {
    var cells: [String: String]
    var heights: [Int: Double]
    var widths: [Int: Double]

    init(_ client: EditingClient) throws {
        cells = try client.cells().mapValues { cell in
            String(decoding: try JSONSerialization.data(withJSONObject: cell, options: [.sortedKeys]), as: UTF8.self)
        }
        heights = [:]
        var start: Int? = 1
        while let first = start {
            let window = try client.api.object("/api/sheets/\(client.sheet)/rows?start=\(first)&count=5000")
            for row in window["rows"] as? [[String: Any]] ?? [] {
                if let height = row["height"] as? Double, let number = row["row"] as? Int { heights[number] = height }
            }
            start = window["next"] as? Int
        }
        widths = [:]
        for range in try client.api.object("/api/sheets/\(client.sheet)")["columnWidths"] as? [[String: Any]] ?? [] {
            guard let width = range["width"] as? Double, let first = range["first"] as? Int, let last = range["last"] as? Int else { continue }
            for column in first...min(last, first + 100) { widths[column] = width }
        }
    }

    /// The members that differ from `other`, for a failure's message.
    func difference(from other: SheetState) -> String {
        let refs = Set(cells.keys).union(other.cells.keys).filter { cells[$0] != other.cells[$0] }.sorted()
        return refs.map { "\($0): \(cells[$0] ?? "none") vs \(other.cells[$0] ?? "none")" }.joined(separator: "; ")
            + (heights == other.heights ? "" : " heights \(heights) vs \(other.heights)")
            + (widths == other.widths ? "" : " widths \(widths) vs \(other.widths)")
    }

    var description: String { "\(cells.count) cells, heights \(heights), widths \(widths)" }
}

/// `POST .../undo` and `.../restore` (Docs/Reference/HTTP.md, "History, restore and undo") through a real server on loopback, on
/// the store the run tests (SQLite, or PostgreSQL with SHEETPORT_TEST_STORE=postgres): an undo
/// puts back exactly the state before the caller's last write of every kind, leaves what another
/// subject wrote since, needs the editor role, and keeps its data sealed.
@Suite struct UndoTests {
    /// On an imported sheet with styles, row heights and column width ranges: a write of every
    /// kind (cells, copy, each clear, format set and clear, sizes), each taken back by an undo,
    /// newest first, leaves the sheet exactly as it was before that write; then 409.
    @Test func undoPutsBackTheStateBeforeEachWriteKind() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let id = try fixture.api.importSheet(try makeStyledWorkbook(in: fixture.folder, rows: 8))
        let client = EditingClient(fixture.api, id)
        let writes: [(String, [String: Any])] = [
            ("cells", ["cells": [["ref": "A2", "input": "1234.5"], ["ref": "G1", "input": "=B2*2"], ["ref": "G2", "input": "12%"],
                                 ["ref": "G3", "input": "'0123"], ["ref": "G4", "input": "3/1/2026"], ["ref": "B3", "input": "$1,234.50"]]]),
            ("format", ["range": "A1:C3", "set": ["bold": true, "fill": "#ABCDEF", "numberFormat": "0.00", "align": "right"]]),
            ("sizes", ["rows": ["1": 40, "5": 18.5], "columns": ["B": 30, "H": 9.5, "A": NSNull()]]),
            ("copy", ["source": "A1:D3", "target": "F2"]),
            ("copy", ["source": "B2:D2", "target": "B5:D7"]),
            ("clear", ["range": "A1:B2", "what": "contents"]),
            ("clear", ["range": "B3:C4", "what": "formats"]),
            ("clear", ["range": "C5:E6", "what": "all"]),
            ("cells", ["cells": [["ref": "C3", "input": "2026-03-01"], ["ref": "A1", "input": ""], ["ref": "D8", "input": "=SUM(D2:D7)"]]]),
            ("format", ["range": "A1:D4", "clear": true]),
            ("format", ["range": "J1:J2", "set": ["italic": true, "color": "#112233"]]),
            ("sizes", ["rows": ["1": NSNull()], "columns": ["B": 12]]),
            ("cells", ["cells": [["ref": "F9", "input": "same"]]]),
            ("cells", ["cells": [["ref": "F9", "input": "same"]]]), // changes nothing: still a write to take back
        ]
        var before: [SheetState] = []
        for (route, body) in writes {
            before.append(try SheetState(client))
            let response = try client.post(route, body)
            try #require(response.status == 200, "\(route) \(body): \(response.text)")
        }
        #expect(try SheetState(client) != before[0], "the writes changed the sheet")
        for (index, (route, body)) in writes.enumerated().reversed() {
            let version = try client.version()
            let undo = try client.post("undo", [:])
            try #require(undo.status == 200, "undo of \(route): \(undo.text)")
            #expect(undo.object["version"] as? Int == version + 1 && undo.object["skipped"] as? [String] == [], "\(undo.text)")
            let now = try SheetState(client)
            #expect(now == before[index], "undo of \(route) \(body): \(now.difference(from: before[index]))")
        }
        let nothing = try client.post("undo", [:])
        #expect(nothing.status == 409 && EditingClient.code(nothing) == "nothing-to-undo", "\(nothing.text)")
        // The export of the undone sheet carries the imported formats and sizes again.
        let exported = try client.exported(in: fixture.folder)
        #expect(exported.formats["B2"] == "#,##0.00" && exported.formats["C2"] == "yyyy-mm-dd" && exported.values["A2"] as? String == "item 2",
                "\(exported.formats) \(exported.values)")
    }

    /// Another subject's later write to the same cell's input, the same cell's style or the same
    /// size stays through an undo (answered in `skipped`), the rest of the write is taken back;
    /// another subject's write that was itself undone does not hold anything; and each
    /// subject's undo puts back what that subject's write replaced.
    @Test func undoLeavesWhatOthersWroteSince() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let id = try EditingClient.create(fixture.api)
        #expect(try fixture.api.call("POST", "/api/sheets/\(id)/grants", json: ["subject": "bob", "role": "editor"]).status < 300)
        let ann = EditingClient(fixture.api, id), bob = EditingClient(fixture.server.api(try fixture.server.token("bob")), id)
        func ok(_ response: HTTPResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
            try #require(response.status == 200, "\(response.text)", sourceLocation: sourceLocation)
            return response.object
        }
        _ = try ann.write(["A1": "1", "B1": "2", "C1": "3", "D1": "=A1+B1+C1"])
        _ = try ok(try ann.post("sizes", ["rows": ["3": 20], "columns": ["E": 15]]))
        _ = try ok(try bob.post("sizes", ["rows": ["3": 40]]))
        _ = try ok(try ann.post("format", ["range": "A1:C1", "set": ["bold": true]]))
        _ = try bob.write(["A1": "100"])
        _ = try ok(try bob.post("format", ["range": "B1", "set": ["italic": true]]))

        // Ann's format: A1 and C1 lose her bold; B1's style is bob's since (his italic over her bold) and stays.
        var undo = try ok(try ann.post("undo", [:]))
        #expect(undo["skipped"] as? [String] == ["B1"], "\(undo)")
        var cells = try ann.cells()
        #expect(cells["A1"]?["style"] == nil && cells["C1"]?["style"] == nil, "\(cells)")
        #expect(cells["B1"]?["style"] as? [String: Bool] == ["bold": true, "italic": true], "\(cells["B1"] ?? [:])")
        // Ann's sizes: row 3 is bob's since; column E goes back to the default.
        undo = try ok(try ann.post("undo", [:]))
        #expect(undo["skipped"] as? [String] == ["3"], "\(undo)")
        var state = try SheetState(ann)
        #expect(state.heights == [3: 40] && state.widths == [:], "\(state)")
        // Ann's cells: A1 is bob's since and stays; B1 and C1 empty (B1 keeps bob's and her style), D1 follows.
        undo = try ok(try ann.post("undo", [:]))
        #expect(undo["skipped"] as? [String] == ["A1"], "\(undo)")
        cells = try ann.cells()
        #expect(cells["A1"]?["value"] as? Double == 100 && cells["C1"] == nil && cells["B1"]?["input"] as? String == "", "\(cells)")
        #expect(cells["D1"]?["formula"] == nil && cells["D1"] == nil, "D1 was ann's and is gone: \(cells["D1"] ?? [:])")
        #expect(try ann.post("undo", [:]).status == 409)
        // Bob's undos put back what his writes replaced: B1's bold without italic, A1's 1, row 3's 20.
        _ = try ok(try bob.post("undo", [:]))
        #expect(try ann.cells()["B1"]?["style"] as? [String: Bool] == ["bold": true])
        undo = try ok(try bob.post("undo", [:]))
        #expect(try undo["skipped"] as? [String] == [] && ann.cells()["A1"]?["value"] as? Double == 1, "\(undo)")
        _ = try ok(try bob.post("undo", [:]))
        state = try SheetState(ann)
        #expect(state.heights == [3: 20], "\(state)")

        // A write of bob's that bob undid holds nothing: ann's undo takes hers back whole.
        _ = try ann.write(["F1": "ann"])
        _ = try bob.write(["F1": "bob"])
        _ = try ok(try bob.post("undo", [:]))
        #expect(try ann.cells()["F1"]?["input"] as? String == "ann")
        undo = try ok(try ann.post("undo", [:]))
        #expect(try undo["skipped"] as? [String] == [] && ann.cells()["F1"] == nil, "\(undo)")
        // The history lists inputs only (no format entries), with who wrote each.
        let history = try #require(try ann.api.object("/api/sheets/\(id)/cells/B1/history")["history"] as? [[String: Any]])
        #expect(history.map { $0["change"] as? String } == ["undo", "undone"] && history.map { $0["input"] as? String } == ["", "2"], "\(history)")
    }

    /// Only editors and owners undo: a viewer, a commenter and a share link (which carries one of
    /// those roles) get 403, a stranger 404, a deleted link 401, and the sheet does not change;
    /// an editor's undo never takes back the owner's write.
    @Test func undoRoleMatrix() throws {
        let setup = try AnnexSetup(rows: 4)
        defer { setup.close() }
        let owner = EditingClient(setup.owner, setup.sheet)
        _ = try owner.write(["H1": "owner's"])
        let expected: [String: Int] = ["owner": 200, "editor": 409, "commenter": 403, "commenter2": 403, "viewer": 403,
                                       "stranger": 404, "link-viewer": 403, "link-commenter": 403, "link-revoked": 401]
        for party in AnnexSetup.everyone where party != "owner" {
            let before = try SheetState(owner), version = try owner.version()
            let response = try setup.api[party]!.call("POST", "/api/sheets/\(setup.sheet)/undo")
            #expect(response.status == expected[party], "\(party): \(response.status) \(response.text)")
            #expect(try owner.version() == version && SheetState(owner) == before, "\(party) changed the sheet")
        }
        // The editor's own write is theirs to take back; the owner's stays.
        let editor = EditingClient(setup.api["editor"]!, setup.sheet)
        _ = try editor.write(["H2": "editor's"])
        #expect(try editor.post("undo", [:]).status == 200)
        #expect(try editor.post("undo", [:]).status == 409)
        let cells = try owner.cells()
        #expect(cells["H1"]?["input"] as? String == "owner's" && cells["H2"] == nil)
        #expect(try owner.post("undo", [:]).status == 200)
        #expect(try owner.cells()["H1"] == nil)
    }

    /// Restore brings back a cell's input and format at a version (after a clear of both, or a
    /// copy over it); versions that are not the sheet's, or not integers, and refs past the grid
    /// are refused with nothing stored; an undo with nothing to undo is 409, of an unknown sheet 404.
    @Test func restoreBringsBackFormatsAndRefusesHostileValues() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let client = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        #expect(try client.post("undo", [:]).status == 409)
        _ = try client.write(["A1": "0.5", "B1": "=A1*2", "C1": "x"])
        _ = try client.post("format", ["range": "A1", "set": ["numberFormat": "0.0%", "bold": true]])
        let formatted = try client.version()
        let wanted = try client.cells()["A1"]
        _ = try client.post("clear", ["range": "A1", "what": "all"])
        #expect(try client.cells()["A1"] == nil)
        let restored = try client.post("cells/A1/restore", ["version": formatted])
        #expect(restored.status == 200, "\(restored.text)")
        let cells = try client.cells()
        #expect(NSDictionary(dictionary: cells["A1"] ?? [:]) == NSDictionary(dictionary: wanted ?? ["none": true]), "\(cells["A1"] ?? [:]) vs \(wanted ?? [:])")
        #expect(cells["B1"]?["value"] as? Double == 1)
        // A copy over it, then a restore to before the copy: C1's text and plain style come back.
        _ = try client.post("copy", ["source": "A1", "target": "C1"])
        #expect(try client.cells()["C1"]?["display"] as? String == "50.0%")
        #expect(try client.post("cells/C1/restore", ["version": formatted]).status == 200)
        let c1 = try client.cells()["C1"]
        #expect(c1?["input"] as? String == "x" && c1?["style"] == nil, "\(c1 ?? [:])")
        // Restoring a cell to a version before it had anything empties it.
        #expect(try client.post("cells/C1/restore", ["version": 1]).status == 200)
        #expect(try client.cells()["C1"] == nil)

        let version = try client.version()
        let bodies: [String] = ["{\"version\":0}", "{\"version\":-1}", "{\"version\":\(version + 1)}", "{\"version\":99999999}",
                                "{\"version\":9223372036854775807}", "{\"version\":9223372036854775808}", "{\"version\":-9223372036854775809}",
                                "{\"version\":1e300}", "{\"version\":1.5}", "{\"version\":true}", "{\"version\":\"2\"}", "{\"version\":null}",
                                "{}", "[]", "{\"version\":", ""]
        for body in bodies {
            let response = try fixture.api.call("POST", "/api/sheets/\(client.sheet)/cells/A1/restore", body: .bytes(Array(body.utf8)))
            #expect(response.status == 400, "\(body): \(response.status) \(response.text)")
        }
        for ref in ["XFE1", "A0", "A1048577", "A1:B2", "%00", String(repeating: "Z", count: 300) + "1"] {
            let response = try client.post("cells/\(ref)/restore", ["version": 2])
            #expect([400, 404].contains(response.status), "\(ref.prefix(20)): \(response.status) \(response.text)")
            // A NUL in the path is refused before the route reads it (bad-request).
            if response.status == 400 { #expect(EditingClient.code(response) == (ref == "%00" ? "bad-request" : "bad-ref"), "\(ref.prefix(20)): \(response.text)") }
        }
        #expect(try client.version() == version, "nothing refused was stored")
        #expect(try fixture.api.call("POST", "/api/sheets/nosuchsheet/undo").status == 404)
    }

    /// The history's inputs and formats, and the cells an undo puts back, are sealed at rest:
    /// no stored history record holds them in the clear.
    @Test func historyAndUndoDataAreSealedAtRest() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let client = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        let secret = "Zebra-\(UUID().uuidString.prefix(8))"
        _ = try client.write(["A1": secret, "B1": "=\"\(secret)\""])
        _ = try client.post("format", ["range": "A1", "set": ["fill": "#ABCDEF", "numberFormat": "\"\(secret)\"0"]])
        _ = try client.post("sizes", ["rows": ["1": 33.25]])
        _ = try client.post("clear", ["range": "A1:B1", "what": "all"])
        #expect(try client.post("undo", [:]).status == 200)
        #expect(try client.cells()["A1"]?["input"] as? String == secret)
        let rows = try fixture.server.store().query("SELECT data FROM cell_history WHERE sheet_id = ?", [.text(client.sheet)])
        #expect(rows.count >= 8, "\(rows.count) history records")
        for row in rows {
            let data = Data(row[0].bytes ?? [])
            for plain in [secret, "ABCDEF", "33.25", "input", "style"] {
                #expect(data.range(of: Data(plain.utf8)) == nil, "a history record holds \(plain) in the clear")
            }
        }
    }
}
