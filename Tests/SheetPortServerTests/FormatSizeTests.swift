import Foundation
import Testing
@testable import SheetPortClient
import SheetPortTestSupport

/// What openpyxl reads of an exported sheet's formats and sizes.
private func openpyxlFormats(_ body: [UInt8], in folder: URL) throws -> [String: Any] {
    let file = folder.appendingPathComponent("formats-\(UUID().uuidString).xlsx")
    try Data(body).write(to: file)
    let script = """
        import sys, json, openpyxl
        ws = openpyxl.load_workbook(sys.argv[1]).active
        cells = {}
        for row in ws.iter_rows():
            for c in row:
                if not c.has_style: continue
                cells[c.coordinate] = {"bold": bool(c.font.b), "italic": bool(c.font.i), "align": c.alignment.horizontal,
                    "numberFormat": c.number_format, "fill": c.fill.fgColor.rgb if c.fill.fill_type == "solid" else None,
                    "color": c.font.color.rgb if c.font.color is not None else None, "value": c.value}
        rows = {str(k): d.height for k, d in ws.row_dimensions.items() if d.height is not None}
        columns = {k: d.width for k, d in ws.column_dimensions.items() if d.customWidth}
        print(json.dumps({"cells": cells, "rows": rows, "columns": columns}))
        """
    return try #require(try JSONSerialization.jsonObject(with: Data(try runPython(script, arguments: [file.path]).utf8)) as? [String: Any])
}

/// A JSON object of numbers as doubles.
private func numbers(_ object: Any?) -> [String: Double] {
    (object as? [String: Any] ?? [:]).mapValues { ($0 as? NSNumber)?.doubleValue ?? .nan }
}

extension ServerTests {
    /// Formats and sizes set through the API are new versions with `format` and `sizes`
    /// events, show in rows windows (`style`, `display`, `height`) and in the export as
    /// openpyxl reads it: bold, italic, alignment, number format, fill, font colour, row height
    /// and column width; clearing and null put things back.
    @Test func formatsAndSizesReachTheExport() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = try EditingClient.create(fixture.api, name: "Styled")
        let client = EditingClient(fixture.api, sheet)
        _ = try client.write(["A1": "1234.5", "B2": "text", "C1": "7"])
        let reader = try EventReader(port: RawConnection.port(of: fixture.server.base), path: "/api/sheets/\(sheet)/events", token: fixture.api.token!)
        defer { reader.close() }
        let start = try client.version()

        let format = try client.post("format", ["range": "A1:B2", "set": ["bold": true, "italic": true, "align": "center", "numberFormat": "0.00%",
                                                                         "fill": "#ffee00", "color": "#112233"]])
        #expect(format.status == 200 && format.object["version"] as? Int == start + 1, "\(format.text)")
        #expect(Set(EditingClient.changed(format.object).keys) == ["A1", "A2", "B1", "B2"], "every cell of the range, empty ones too")
        let unbold = try client.post("format", ["range": "B1:B2", "set": ["italic": false, "align": NSNull()]])
        #expect(unbold.status == 200 && unbold.object["version"] as? Int == start + 2, "\(unbold.text)")
        let sizes = try client.post("sizes", ["rows": ["3": 24.5, "70": 30], "columns": ["B": 18.0, "D": 9.25]])
        #expect(sizes.status == 200 && sizes.object["version"] as? Int == start + 3, "\(sizes.text)")
        var events: [String] = []
        while events.count < 3, case .event(let event) = reader.next() {
            if event.name == "version" { events.append(event.object["change"] as? String ?? "") }
        }
        #expect(events == ["format", "format", "sizes"])

        // Rows windows carry the style, the display and the height.
        let cells = try client.cells()
        let a1 = try #require(cells["A1"]), a1Style = a1["style"] as? [String: Any] ?? [:]
        #expect(a1Style["bold"] as? Bool == true && a1Style["horizontal"] as? String == "center" && a1Style["numFmt"] as? String == "0.00%", "\(a1)")
        #expect(a1["display"] as? String == "123450.00%" && a1["value"] as? Double == 1234.5, "\(a1)")
        #expect((cells["B2"]?["style"] as? [String: Any])?["italic"] == nil && (cells["B2"]?["style"] as? [String: Any])?["horizontal"] == nil)
        let window = try fixture.api.object("/api/sheets/\(sheet)/rows?start=1&count=100")["rows"] as? [[String: Any]] ?? []
        #expect(window.first { $0["row"] as? Int == 3 }?["height"] as? Double == 24.5)
        #expect(window.first { $0["row"] as? Int == 70 }?["height"] as? Double == 30)
        let metadata = try fixture.api.object("/api/sheets/\(sheet)")
        #expect((metadata["columnWidths"] as? [[String: Any]] ?? []).map { [$0["first"] as? Int ?? 0, Int(($0["width"] as? Double ?? 0) * 100)] } == [[2, 1800], [4, 925]])

        // The export, as openpyxl reads it.
        let export = try fixture.api.call("GET", "/api/sheets/\(sheet)/export.xlsx?minVersion=\(start + 3)")
        #expect(export.status == 200)
        let read = try openpyxlFormats(export.body, in: fixture.folder)
        let exported = read["cells"] as? [String: [String: Any]] ?? [:]
        for ref in ["A1", "A2"] {
            let cell = try #require(exported[ref], "\(ref) in \(exported)")
            #expect(cell["bold"] as? Bool == true && cell["italic"] as? Bool == true && cell["align"] as? String == "center", "\(ref): \(cell)")
            #expect(cell["numberFormat"] as? String == "0.00%" && (cell["fill"] as? String)?.hasSuffix("FFEE00") == true
                    && (cell["color"] as? String)?.hasSuffix("112233") == true, "\(ref): \(cell)")
        }
        #expect(exported["A1"]?["value"] as? Double == 1234.5)
        #expect(exported["B2"]?["bold"] as? Bool == true && exported["B2"]?["italic"] as? Bool == false && exported["B2"]?["align"] is NSNull,
                "\(String(describing: exported["B2"]))")
        #expect(exported["C1"] == nil, "outside the range: no style")
        #expect(numbers(read["rows"]) == ["3": 24.5, "70": 30])
        #expect(numbers(read["columns"]) == ["B": 18, "D": 9.25])

        // Clearing formats, and null sizes, put things back.
        #expect(try client.post("format", ["range": "A1:A2", "clear": true]).status == 200)
        #expect(try client.post("sizes", ["rows": ["3": NSNull()], "columns": ["B": NSNull()]]).status == 200)
        let after = try openpyxlFormats(try fixture.api.call("GET", "/api/sheets/\(sheet)/export.xlsx").body, in: fixture.folder)
        let afterCells = after["cells"] as? [String: [String: Any]] ?? [:]
        #expect(afterCells["A1"] == nil && afterCells["A2"] == nil && afterCells["B2"]?["bold"] as? Bool == true, "\(afterCells)")
        #expect(numbers(after["rows"]) == ["70": 30] && numbers(after["columns"]) == ["D": 9.25])
        #expect(try client.cells()["A1"]?["value"] as? Double == 1234.5, "clearing formats keeps the value")
    }

    /// Only editors and owners format and size: commenters, viewers and links (of either role)
    /// get 403, a stranger 404, a deleted link 401; a refused request changes nothing.
    @Test func formatAndSizesRoleMatrix() throws {
        let setup = try AnnexSetup()
        defer { setup.close() }
        let expected: [String: Int] = ["owner": 200, "editor": 200, "commenter": 403, "commenter2": 403, "viewer": 403,
                                       "stranger": 404, "link-viewer": 403, "link-commenter": 403, "link-revoked": 401]
        for party in AnnexSetup.everyone {
            let before = try setup.owner.object("/api/sheets/\(setup.sheet)")["version"] as? Int ?? 0
            let format = try setup.api[party]!.call("POST", "/api/sheets/\(setup.sheet)/format", json: ["range": "A1:B3", "set": ["bold": true]])
            let sizes = try setup.api[party]!.call("POST", "/api/sheets/\(setup.sheet)/sizes", json: ["rows": ["2": 20], "columns": ["A": 30]])
            #expect(format.status == expected[party] && sizes.status == expected[party], "\(party): \(format.status) \(sizes.status) \(format.text)")
            let after = try setup.owner.object("/api/sheets/\(setup.sheet)")["version"] as? Int ?? 0
            #expect(after == before + (expected[party] == 200 ? 2 : 0), "\(party)")
        }
    }

    /// Hostile formats and sizes are refused whole (nothing stored, no new version): a million-
    /// cell range is over `maxBatchCells` (413), refs past the grid, unknown members, values of
    /// the wrong kind, control characters, malformed JSON (400). Clearing a whole-grid range is
    /// bounded by the cells stored there.
    @Test func formatAndSizesRefuseHostileValues() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = try EditingClient.create(fixture.api, name: "Hostile")
        let client = EditingClient(fixture.api, sheet)
        _ = try client.write(["A1": "1", "B2": "two"])
        let version = try client.version()
        let formats: [(Any, Int, String)] = [
            (["range": "A1:XFD1048576", "set": ["bold": true]], 413, "batch-too-large"),
            (["range": "A:A", "set": ["bold": true]], 413, "batch-too-large"),
            (["range": "A1:A1000000", "set": ["fill": "#000000"]], 413, "batch-too-large"),
            (["range": "XFE1", "set": ["bold": true]], 400, "bad-ref"),
            (["range": "A0", "set": ["bold": true]], 400, "bad-ref"),
            (["range": "A1048577", "set": ["bold": true]], 400, "bad-ref"),
            (["range": "A1\u{0}", "set": ["bold": true]], 400, "bad-"),
            (["range": "A1", "set": ["underline": true]], 400, "bad-format"),
            (["range": "A1", "set": ["bold": "yes"]], 400, "bad-format"),
            (["range": "A1", "set": ["bold": 1]], 400, "bad-format"),
            (["range": "A1", "set": ["align": "justify"]], 400, "bad-format"),
            (["range": "A1", "set": ["fill": "red"]], 400, "bad-format"),
            (["range": "A1", "set": ["fill": "#12345"]], 400, "bad-format"),
            (["range": "A1", "set": ["color": "#GGGGGG"]], 400, "bad-format"),
            (["range": "A1", "set": ["numberFormat": "0.00\u{0}"]], 400, "control character"),
            (["range": "A1", "set": ["numberFormat": "\u{1B}[31m0"]], 400, "control character"),
            (["range": "A1", "set": ["numberFormat": String(repeating: "0", count: 256)]], 400, "bad-number-format"),
            (["range": "A1", "set": ["numberFormat": "0 kg"]], 400, "bad-number-format"),
            (["range": "A1", "set": ["numberFormat": 12]], 400, "bad-format"),
            (["range": "A1", "set": [String: Any]()], 400, "bad-request"),
            (["range": "A1", "set": ["bold": true], "clear": true], 400, "bad-request"),
            (["range": "A1", "clear": false], 400, "bad-request"),
            (["set": ["bold": true]], 400, "bad-request"),
            ("{\"range\":\"A1\",\"set\":{\"bold\":tru", 400, "bad-request"),
            ("[]", 400, "bad-request"),
        ]
        for (body, status, code) in formats {
            let response = try body is String
                ? fixture.api.call("POST", "/api/sheets/\(sheet)/format", body: .bytes(Array((body as! String).utf8)))
                : client.post("format", body as! [String: Any])
            #expect(response.status == status && response.text.contains(code), "\(String(describing: body).prefix(90)): \(response.status) \(response.text.prefix(200))")
        }
        let sizes: [(Any, Int, String)] = [
            (["rows": ["0": 10]], 400, "bad-ref"), (["rows": ["1048577": 10]], 400, "bad-ref"), (["rows": ["-1": 10]], 400, "bad-ref"),
            (["rows": ["1e3": 10]], 400, "bad-ref"), (["rows": ["3\u{0}": 10]], 400, "bad-ref"),
            (["rows": ["3": -1]], 400, "bad-size"), (["rows": ["3": 410]], 400, "bad-size"), (["rows": ["3": "24"]], 400, "bad-size"),
            (["rows": ["3": true]], 400, "bad-size"), (["rows": ["3": 1e308]], 400, "bad-size"),
            (["columns": ["XFE": 10]], 400, "bad-ref"), (["columns": ["B1": 10]], 400, "bad-ref"), (["columns": ["": 10]], 400, "bad-ref"),
            (["columns": ["B": 256]], 400, "bad-size"), (["columns": ["B": [1]]], 400, "bad-size"),
            ([String: Any](), 400, "bad-request"), (["heights": ["3": 10]], 400, "bad-request"), (["rows": [10]], 400, "bad-request"),
            ("{\"rows\":", 400, "bad-request"),
        ]
        for (body, status, code) in sizes {
            let response = try body is String
                ? fixture.api.call("POST", "/api/sheets/\(sheet)/sizes", body: .bytes(Array((body as! String).utf8)))
                : client.post("sizes", body as! [String: Any])
            #expect(response.status == status && response.text.contains(code), "\(String(describing: body).prefix(90)): \(response.status) \(response.text.prefix(200))")
        }
        #expect(try client.version() == version, "nothing was stored")
        // Clearing the whole grid's formats reads only what is stored.
        let started = Date()
        let clear = try client.post("format", ["range": "A1:XFD1048576", "clear": true])
        #expect(clear.status == 200 && Date().timeIntervalSince(started) < 10, "\(clear.text)")
        #expect(try client.cells()["B2"]?["value"] as? String == "two")
    }
}
