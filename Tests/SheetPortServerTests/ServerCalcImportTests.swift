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

    /// The import's engine loads only the constants some formula reads, after the formulas, from
    /// the rows it holds and the blocks it stored (issue 40): formulas reading numbers, a text and
    /// a date in blocks stored early, and a column of constants interleaved with formulas, compute
    /// as before; the values no formula read are stored unchanged, and an edit that makes a
    /// formula read them computes from their stored values.
    @Test func importComputesFromTheConstantsFormulasRead() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let book = fixture.folder.appendingPathComponent("read.xlsx").path
        try writeWithOpenpyxl("""
            import datetime
            for r in range(1, 301):
                ws.cell(r, 1, r)
                ws.cell(r, 2, r * 10)
                ws.cell(r, 3, f't{r}')
                ws.cell(r, 5, r % 2 == 0)
            ws['I100'] = datetime.date(2024, 2, 28)
            ws['F1'] = '=SUM(A:A)'
            ws['G1'] = '=C150&"!"'
            ws['H1'] = '=I100+1'
            ws['D290'] = '=A289*2+B1'
            for r in range(1, 21):
                ws.cell(r, 11, r if r % 2 else f'=K{r - 1}*2')
            ws['L1'] = '=SUM(K1:K20)'
            ws['N1'] = '=ROWS(A:A)-COUNTBLANK(J:J)'
            """, to: book)
        let job = try fixture.api.importWorkbook(book)
        try #require(job["status"] as? String == "succeeded", "\(job)")
        let sheet = try #require(((job["result"] as? [String: Any])?["sheet"] as? [String: Any])?["id"] as? String)
        let client = EditingClient(fixture.api, sheet)
        let cells = try client.cells()
        #expect(cells["F1"]?["value"] as? Double == 45_150)
        #expect(cells["G1"]?["value"] as? String == "t150!")
        #expect(cells["H1"]?["value"] as? Double == 45_351, "\(cells["H1"] ?? [:])")
        #expect(cells["D290"]?["value"] as? Double == 588)
        #expect(cells["K20"]?["value"] as? Double == 38 && cells["K19"]?["value"] as? Double == 19)
        #expect(cells["L1"]?["value"] as? Double == 300)
        #expect(cells["N1"]?["value"] as? Double == 0)
        // What no formula read is stored as it was.
        #expect(cells["B300"]?["value"] as? Double == 3_000 && cells["C7"]?["value"] as? String == "t7")
        #expect(cells["E2"]?["value"] as? Bool == true && cells["E3"]?["value"] as? Bool == false)

        let answer = try client.write([("M1", "=SUM(B:B)"), ("M2", "=COUNTIF(E:E,TRUE)"), ("M3", "=C299"), ("M4", "=I100-A1")])
        let changed = EditingClient.changed(answer)
        #expect(changed["M1"]?["value"] as? Double == 451_500, "\(changed)")
        #expect(changed["M2"]?["value"] as? Double == 150)
        #expect(changed["M3"]?["value"] as? String == "t299")
        #expect(changed["M4"]?["value"] as? Double == 45_349)
        // A write to a value no formula read at import moves the formula now reading it.
        let second = EditingClient.changed(try client.write(["B1": "20"]))
        #expect(second["M1"]?["value"] as? Double == 451_510 && second["D290"]?["value"] as? Double == 598, "\(second)")
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
