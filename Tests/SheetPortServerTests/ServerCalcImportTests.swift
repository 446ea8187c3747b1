import Foundation
import Testing
@testable import SheetPortClient
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortConvert
@testable import SheetPortServer

/// The import computes its sheet (Docs/Reference/HTTP.md, "Imports"), through a real `sheetport
/// serve` on loopback (SQLite, or PostgreSQL with SHEETPORT_TEST_STORE=postgres): formulas
/// openpyxl wrote without cached values carry computed values in rows windows and exports.
@Suite struct ServerCalcImportTests {
    /// The issue's example: A1=1, A2=2, A3==SUM(A1:A2), B1==A1*10.
    @Test func importedFormulasCarryComputedValues() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let book = fixture.folder.appendingPathComponent("calc.xlsx").path
        try writeWithOpenpyxl("ws['A1'] = 1\nws['A2'] = 2\nws['A3'] = '=SUM(A1:A2)'\nws['B1'] = '=A1*10'", to: book)
        let job = try fixture.api.importWorkbook(book)
        try #require(job["status"] as? String == "succeeded", "\(job)")
        let sheet = try #require(((job["result"] as? [String: Any])?["sheet"] as? [String: Any])?["id"] as? String)
        let cells = try EditingClient(fixture.api, sheet).cells()
        #expect(cells["A3"]?["value"] as? Double == 3 && cells["A3"]?["formula"] as? String == "SUM(A1:A2)")
        #expect(cells["B1"]?["value"] as? Double == 10 && cells["B1"]?["display"] as? String == "10")
        #expect(cells["A1"]?["display"] as? String == "1")
        // No cross-sheet finding where no formula refers to another sheet.
        let warnings = (job["result"] as? [String: Any])?["warnings"] as? [[String: Any]] ?? []
        #expect(!warnings.contains { $0["code"] as? String == "cross-sheet-reference" })

        let values = try EditingClient(fixture.api, sheet).exportedValues(in: fixture.folder)
        #expect(values["A3"] as? Double == 3)
        #expect(values["B1"] as? Double == 10)
    }

    /// A reference to another sheet of the workbook is evaluated at import and kept as its value
    /// (the server holds the first worksheet only), named in `cross-sheet-reference`; a formula
    /// of the sheet itself stays a formula, and one calling an unknown function keeps its cached value.
    @Test func crossSheetReferencesBecomeValues() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let book = fixture.folder.appendingPathComponent("cross.xlsx").path
        try writeWithOpenpyxl("""
            ws['A1'] = 4
            ws['B1'] = "='Other Data'!A1*2"
            ws['C1'] = '=SUM(Rates!A1:A3)+A1'
            ws['D1'] = '=A1+1'
            ws['E1'] = '="Other Data!A1"'
            other = wb.create_sheet('Other Data')
            other['A1'] = 21
            rates = wb.create_sheet('Rates')
            rates['A1'] = 1; rates['A2'] = 2; rates['A3'] = 3
            wb.create_sheet('Unused')['A1'] = 99
            """, to: book)
        let job = try fixture.api.importWorkbook(book)
        try #require(job["status"] as? String == "succeeded", "\(job)")
        let sheet = try #require(((job["result"] as? [String: Any])?["sheet"] as? [String: Any])?["id"] as? String)
        let warnings = (job["result"] as? [String: Any])?["warnings"] as? [[String: Any]] ?? []
        let finding = try #require(warnings.first { $0["code"] as? String == "cross-sheet-reference" }, "\(warnings)")
        #expect(finding["severity"] as? String == "info")
        let message = finding["message"] as? String ?? ""
        #expect(message.contains("Other Data") && message.contains("Rates") && !message.contains("Unused"), "\(message)")

        let cells = try EditingClient(fixture.api, sheet).cells()
        #expect(cells["B1"]?["value"] as? Double == 42 && cells["B1"]?["formula"] == nil, "\(cells["B1"] ?? [:])")
        #expect(cells["C1"]?["value"] as? Double == 10 && cells["C1"]?["formula"] == nil)
        #expect(cells["D1"]?["value"] as? Double == 5 && cells["D1"]?["formula"] as? String == "A1+1")
        #expect(cells["E1"]?["value"] as? String == "Other Data!A1" && cells["E1"]?["formula"] != nil)
        // The sheet's graph holds no other sheet: a write to A1 moves D1, and B1 stays a value.
        let answer = try EditingClient(fixture.api, sheet).write(["A1": "10"])
        let changed = EditingClient.changed(answer)
        #expect(changed["D1"]?["value"] as? Double == 11)
        #expect(changed["B1"] == nil)
    }

    /// NOW and TODAY read UTC on the server unless `serve --time-zone` says otherwise: NOW through
    /// a server in Pacific/Kiritimati (UTC+14, no daylight saving) is 14 hours ahead of NOW through
    /// one in UTC, which is the system clock's (an unknown zone: SheetPortCLITests' `ServeOptionsTests`).
    @Test func nowFollowsTheServersTimeZone() throws {
        let utc = try ServerFixture()
        defer { utc.close() }
        let kiritimati = try ServerFixture { $0.timeZone = TimeZone(identifier: "Pacific/Kiritimati")! }
        defer { kiritimati.close() }
        var now: [Double] = []
        for fixture in [utc, kiritimati] {
            let created = try fixture.api.call("POST", "/api/sheets", json: ["name": "Clock"])
            try #require(created.status == 201, "\(created.text)")
            let sheet = try #require(try JSONSerialization.jsonObject(with: Data(created.body)) as? [String: Any])["id"] as! String
            let answer = try EditingClient(fixture.api, sheet).write(["A1": "=NOW()", "A2": "=TODAY()"])
            let changed = EditingClient.changed(answer)
            // General cells: the serials themselves.
            let serial = try #require(changed["A1"]?["value"] as? Double, "\(answer)")
            #expect(changed["A2"]?["value"] as? Double == serial.rounded(.down))
            now.append(serial)
        }
        let system = Date().timeIntervalSince1970 / 86_400 + 25_569
        #expect(abs(now[0] - system) < 0.01, "UTC NOW \(now[0]) against the system's \(system)")
        #expect(abs(now[1] - now[0] - 14.0 / 24) < 0.01, "\(now)")
    }
}
