import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortClient
import SheetPortTestSupport

/// The export after writes through the server (cells, format, sizes) opened by real clients:
/// openpyxl and LibreOffice read the new values (Tests/RealClients/verify.py), and openpyxl,
/// LibreOffice and Gnumeric the new formats and sizes (Tests/RealClients/features.py), each
/// against what the server's own rows windows and sheet metadata say. Runs when
/// `SHEETPORT_REAL_CLIENTS=1` (Scripts/test.sh sets it after installing the clients).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["SHEETPORT_REAL_CLIENTS"] == "1"))
struct ExportRealClientsTests {
    @Test func exportAfterWritesOpensInRealClientsWithTheNewValuesFormatsAndSizes() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let client = EditingClient(fixture.api, try EditingClient.create(fixture.api, name: "Edited"))
        _ = try client.write(["A1": "Quarter", "B1": "1234.5", "C1": "=B1*2", "D1": "12%", "A2": "3/1/2026", "B2": "'0123",
                              "C2": "TRUE", "D2": "=SUM(B1:C1)&\" total\"", "A3": "-1.5e3"])
        let writes: [(String, [String: Any])] = [
            ("format", ["range": "A1:C1", "set": ["bold": true, "align": "center", "fill": "#FFEE00", "color": "#112233"]]),
            ("format", ["range": "B1:C1", "set": ["italic": true, "numberFormat": "#,##0.00"]]),
            ("format", ["range": "D2", "set": ["align": "right", "color": "#C00000"]]),
            ("sizes", ["rows": ["1": 30, "3": 45.75], "columns": ["A": 24, "C": 12.5]]),
            ("cells", ["cells": [["ref": "B1", "input": "2000"], ["ref": "A3", "input": "=C1/4"]]]),
        ]
        for (route, body) in writes {
            let response = try client.post(route, body)
            try #require(response.status == 200, "\(route): \(response.text)")
        }
        let version = try client.version()
        let response = try fixture.api.call("GET", "/api/sheets/\(client.sheet)/export.xlsx?minVersion=\(version)")
        try #require(response.status == 200, "export: \(response.text)")
        let book = fixture.folder.appendingPathComponent("edited.xlsx")
        try Data(response.body).write(to: book)

        // What the server says the sheet holds now: the writes are in it.
        let cells = try client.cells()
        #expect(cells["C1"]?["value"] as? Double == 4000 && cells["D2"]?["value"] as? String == "6000 total" && cells["A3"]?["value"] as? Double == 1000)
        #expect((cells["B1"]?["style"] as? [String: Any])?["numFmt"] as? String == "#,##0.00" && cells["D1"]?["display"] as? String == "12%")
        let jsonl = try cells.values.map { String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self) }
        let expectedCells = fixture.folder.appendingPathComponent("edited.jsonl")
        try (jsonl.joined(separator: "\n") + "\n").write(to: expectedCells, atomically: true, encoding: .utf8)
        var styles: [String: Any] = [:]
        for (ref, cell) in cells { styles[ref] = cell["style"] as? [String: Any] ?? [:] }
        var heights: [String: Any] = [:]
        for row in try client.api.object("/api/sheets/\(client.sheet)/rows?start=1&count=100")["rows"] as? [[String: Any]] ?? [] {
            if let height = row["height"] as? Double { heights[String(row["row"] as? Int ?? 0)] = height }
        }
        var widths: [String: Any] = [:]
        for range in try client.api.object("/api/sheets/\(client.sheet)")["columnWidths"] as? [[String: Any]] ?? [] {
            guard let first = range["first"] as? Int, let last = range["last"] as? Int, let width = range["width"] as? Double else { continue }
            for column in first...last { widths[CellReference.columnName(column)] = width }
        }
        #expect(heights.count == 2 && widths.count == 2, "\(heights) \(widths)")
        let expectedFeatures = fixture.folder.appendingPathComponent("edited.json")
        try JSONSerialization.data(withJSONObject: ["styles": styles, "rowHeights": heights, "columnWidths": widths]).write(to: expectedFeatures)

        let values = try Self.python(["Tests/RealClients/verify.py", "--strict", "--clients", "openpyxl,libreoffice",
                                      "--expected", expectedCells.path, book.path])
        #expect(values.status == 0 && values.output.contains("2 passed"), "\(values.output)")
        let features = try Self.python(["Tests/RealClients/features.py", book.path, expectedFeatures.path])
        #expect(features.status == 0 && features.output.components(separatedBy: " ok").count == 4, "\(features.output)")
    }

    /// Runs the venv's Python on `arguments`, a `Tests/` path taken from the project root.
    static func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try Project.python(arguments.map { $0.hasPrefix("Tests/") ? Project.root.appendingPathComponent($0).path : $0 })
    }
}
