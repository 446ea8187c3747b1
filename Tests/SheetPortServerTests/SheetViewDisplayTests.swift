import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortClient
import SheetPortTestSupport
@testable import SheetPortServer

extension ServerTests {
    /// The view's cells are the rows window's cells, `display` included: a dated cell shows its
    /// format, a written formula its computed text, hostile text comes back as typed (JSON
    /// escaped, never interpreted), and a row the view leaves empty has no cells.
    @Test func viewCellsCarryTheRowsWindowsDisplay() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let rows: [(Int, [Cell])] = [
            (1, [Cell(column: 1, value: .number(3)), Cell(column: 2, value: .date(serial: 45_000))]),
            (2, [Cell(column: 1, value: .number(1)), Cell(column: 2, value: .string("x"))]),
            (3, [Cell(column: 1, value: .number(2))]),
        ]
        let sheet = try fixture.api.importSheet(try makeWorkbook(in: fixture.folder, rows: rows))
        // Written values live in the overlay until sealed: the view must show them too.
        let hostile = "<img src=x onerror=alert(1)>\"&\u{2028}"
        _ = try EditingClient(fixture.api, sheet).write(["C1": "=A1*2", "C2": hostile, "C3": "=1/0", "D3": "1e308"])
        let stored = try EditingClient(fixture.api, sheet).cells()
        let view = try fixture.api.view(sheet, "sort=A:asc")
        #expect(view.status == 200 && view.rows.map { $0["row"] as? Int } == [2, 3, 1], "\(view.text)")
        var seen = 0
        for row in view.rows {
            for cell in row["cells"] as? [[String: Any]] ?? [] {
                let ref = try #require(cell["ref"] as? String)
                let display = try #require(cell["display"] as? String, "\(ref) has no display: \(view.text)")
                #expect(display == stored[ref]?["display"] as? String, "\(ref)")
                #expect(NSDictionary(dictionary: cell).isEqual(to: stored[ref] ?? [:]), "\(ref): \(cell) vs \(stored[ref] ?? [:])")
                seen += 1
            }
        }
        #expect(seen == stored.count && seen == 9)
        let byRef = Dictionary(uniqueKeysWithValues: view.rows.flatMap { $0["cells"] as? [[String: Any]] ?? [] }.map { ($0["ref"] as? String ?? "", $0) })
        #expect(byRef["B1"]?["display"] as? String == "2023-03-15")
        #expect(byRef["C1"]?["display"] as? String == "6")
        #expect(byRef["C2"]?["display"] as? String == hostile)
        #expect(byRef["C3"]?["display"] as? String == "#DIV/0!")
        // A window past the view's end answers no rows, not an error.
        let past = try fixture.api.view(sheet, "sort=A:asc&start=4&count=10")
        #expect(past.status == 200 && past.rows.isEmpty && past.total == 3, "\(past.text)")
    }
}
