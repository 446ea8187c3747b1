import Foundation
import Testing
@testable import SheetPortClient
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortServer

/// Defined names and tables through the whole path (Docs/Reference/HTTP.md, "Names and
/// tables"), on a real `sheetport serve`: kept at import, listed by `GET /api/sheets/{id}`,
/// evaluated by the engine on every edit (after a restart too), a table grown by a write below
/// it, and written back by the export as openpyxl reads it.
@Suite struct NamesAndTablesTests {
    /// Sheet "Hours": the table Staff (A1:D5, a totals row, the calculated column Pay), the table
    /// Log (H1:I3, no totals row, the calculated column Double); names of both scopes, a
    /// constant, a formula, a LAMBDA, a print area; then hostile names put into xl/workbook.xml.
    static let script = """
        import sys, zipfile, openpyxl
        from openpyxl.worksheet.table import Table, TableFormula
        from openpyxl.workbook.defined_name import DefinedName
        wb = openpyxl.Workbook()
        ws = wb.active
        ws.title = 'Hours'
        ws.append(['Person', 'Hours', 'Rate', 'Pay'])
        for i, (p, h, r) in enumerate([('Ann', 10, 2), ('Bob', 20, 3), ('Cy', 10, 4)], start=2):
            ws.cell(i, 1, p); ws.cell(i, 2, h); ws.cell(i, 3, r)
            ws.cell(i, 4, '=Staff[[#This Row],[Hours]]*Staff[[#This Row],[Rate]]')
        ws['A5'] = 'Total'; ws['B5'] = '=SUBTOTAL(109,Staff[Hours])'; ws['D5'] = '=SUBTOTAL(109,Staff[Pay])'
        staff = Table(displayName='Staff', ref='A1:D5', totalsRowCount=1)
        staff._initialise_columns()
        for column, name in zip(staff.tableColumns, ['Person', 'Hours', 'Rate', 'Pay']): column.name = name
        staff.tableColumns[0].totalsRowLabel = 'Total'
        staff.tableColumns[1].totalsRowFunction = 'sum'
        staff.tableColumns[3].totalsRowFunction = 'sum'
        staff.tableColumns[3].calculatedColumnFormula = TableFormula(attr_text='Staff[[#This Row],[Hours]]*Staff[[#This Row],[Rate]]')
        ws.add_table(staff)
        ws['H1'] = 'Qty'; ws['I1'] = 'Double'
        for i, q in [(2, 1), (3, 2)]:
            ws.cell(i, 8, q); ws.cell(i, 9, '=Log[[#This Row],[Qty]]*2')
        log = Table(displayName='Log', ref='H1:I3')
        log._initialise_columns()
        for column, name in zip(log.tableColumns, ['Qty', 'Double']): column.name = name
        log.tableColumns[1].calculatedColumnFormula = TableFormula(attr_text='Log[[#This Row],[Qty]]*2')
        ws.add_table(log)
        wb.defined_names['calHours'] = DefinedName('calHours', attr_text='Hours!$B$2:$B$4')
        wb.defined_names['Bonus'] = DefinedName('Bonus', attr_text='0.5')
        wb.defined_names['Factor'] = DefinedName('Factor', attr_text='1+0.25')
        wb.defined_names['PayPlus'] = DefinedName('PayPlus', attr_text='SUM(Hours!$D$2:$D$4)*Factor')
        wb.defined_names['Twice'] = DefinedName('Twice', attr_text='LAMBDA(x,x*2)')
        wb.defined_names['OtherCells'] = DefinedName('OtherCells', attr_text='Other!$A$1')
        ws.defined_names['Bonus'] = DefinedName('Bonus', attr_text='0.25')
        ws.defined_names['Span'] = DefinedName('Span', attr_text='Hours!$B$1:$C$1')
        wb.defined_names['Span'] = DefinedName('Span', attr_text='Hours!$A$1')
        ws.print_area = 'A1:D5'
        ws['F1'] = '=SUMPRODUCT(calHours*1)'
        ws['F2'] = '=PayPlus'
        ws['F3'] = '=SUM(Staff[Pay])'
        ws['F4'] = '=SUM(Log[Double])'
        wb.create_sheet('Other')['A1'] = 1
        wb.save(sys.argv[1])
        # Hostile names, as a crafted file has them.
        hostile = ('<definedName name="A1">1</definedName><definedName name="R1C1">1</definedName>'
                   '<definedName name="rc">1</definedName><definedName name="bad\\u0085name">1</definedName>'
                   '<definedName name="' + 'n' * 256 + '">1</definedName><definedName name="' + 'k' * 255 + '">7</definedName>'
                   '<definedName name="Dup">1</definedName><definedName name="DUP">2</definedName>'
                   '<definedName name="Ctl">"a\\u0085b"</definedName>'
                   '<definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">Hours!$A$1:$D$5</definedName>'
                   '<definedName name="Gone" localSheetId="1">Other!$A$1</definedName>')
        with zipfile.ZipFile(sys.argv[1]) as z:
            parts = {n: z.read(n) for n in z.namelist()}
        parts['xl/workbook.xml'] = parts['xl/workbook.xml'].replace(b'</definedNames>', hostile.encode() + b'</definedNames>')
        with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
            for n, b in parts.items(): z.writestr(n, b)
        """

    /// Imports the workbook of `script`; the sheet's id.
    static func importBook(_ fixture: ServerFixture) throws -> String {
        let book = fixture.folder.appendingPathComponent("names.xlsx").path
        _ = try runPython(script, arguments: [book])
        let job = try fixture.api.importWorkbook(book)
        try #require(job["status"] as? String == "succeeded", "\(job)")
        return try #require(((job["result"] as? [String: Any])?["sheet"] as? [String: Any])?["id"] as? String)
    }

    @Test func namesAndTablesThroughImportEditsAndExport() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = try Self.importBook(fixture)
        var client = EditingClient(fixture.api, sheet)
        var api = fixture.api

        // Listed as CONTRACTS says: ranges by ref, others by formula, each with its scope; the
        // print area, hidden, cell-reference-shaped, control-character, 256-character and
        // other sheets' names are not (nor one whose formula holds a control character); of two
        // names equal ignoring case, the first.
        let metadata = try fixture.api.object("/api/sheets/\(sheet)")
        let names = try #require(metadata["names"] as? [[String: String]], "\(metadata)")
        let listed = Set(names.map { [$0["name"]!, $0["ref"] ?? $0["formula"]!, $0["scope"]!].joined(separator: "|") })
        #expect(listed == ["calHours|B2:B4|workbook", "Bonus|=0.5|workbook", "PayPlus|=SUM(Hours!$D$2:$D$4)*Factor|workbook", "Factor|=1+0.25|workbook",
                           "Twice|=LAMBDA(x,x*2)|workbook", "Bonus|=0.25|sheet", String(repeating: "k", count: 255) + "|=7|workbook",
                           "Dup|=1|workbook", "Span|B1:C1|sheet", "Span|A1|workbook"], "\(names)")
        // The address field's names: ranges only, the sheet's name hiding the workbook's.
        let transport = HTTPEditingTransport(connection: try ServerConnection(url: fixture.server.base, token: fixture.api.token!))
        #expect(try transport.names(sheet: sheet) == ["calHours": CellRange("B2:B4")!, "Span": CellRange("B1:C1")!])
        let tables = try #require(metadata["tables"] as? [[String: Any]])
        #expect(tables.count == 2)
        #expect(tables[0]["name"] as? String == "Staff" && tables[0]["ref"] as? String == "A1:D5" && tables[0]["totalsRow"] as? Bool == true)
        #expect(tables[0]["columns"] as? [String] == ["Person", "Hours", "Rate", "Pay"])
        #expect(tables[1]["name"] as? String == "Log" && tables[1]["ref"] as? String == "H1:I3" && tables[1]["totalsRow"] as? Bool == false)

        // Computed at import (a name using a name, Factor, in PayPlus).
        let cells = try client.cells()
        #expect(cells["F1"]?["value"] as? Double == 40 && cells["F2"]?["value"] as? Double == 150)
        #expect(cells["F3"]?["value"] as? Double == 120 && cells["F4"]?["value"] as? Double == 6 && cells["D5"]?["value"] as? Double == 120)

        // A precedent edited: every dependent through a name or a structured reference moves.
        var changed = EditingClient.changed(try client.write(["B2": "30"]))
        #expect(changed["F1"]?["value"] as? Double == 60, "\(changed)")
        #expect(changed["D2"]?["value"] as? Double == 60 && changed["B5"]?["value"] as? Double == 60)
        #expect(changed["F2"]?["value"] as? Double == 200 && changed["F3"]?["value"] as? Double == 160 && changed["D5"]?["value"] as? Double == 160)

        // New formulas using a name, a structured reference, a LAMBDA name; a table formula entered again.
        changed = EditingClient.changed(try client.write(["G1": "=SUM(calHours)", "G2": "=SUM(Staff[Hours])", "G3": "=Bonus",
                                                           "G4": "=Twice(21)", "D3": "=Staff[[#This Row],[Hours]]*Staff[[#This Row],[Rate]]"]))
        #expect(changed["G1"]?["value"] as? Double == 60 && changed["G2"]?["value"] as? Double == 60, "\(changed)")
        // The local Bonus (0.25) hides the workbook's (0.5), as in Excel.
        #expect(changed["G3"]?["value"] as? Double == 0.25 && changed["D3"]?["value"] as? Double == 60)
        // A name holding a LAMBDA is called like a function.
        #expect(changed["G4"]?["value"] as? Double == 42, "\(String(describing: changed["G4"]))")

        // A write right below Log (no totals row) grows it: its ref, its calculated column, its readers.
        changed = EditingClient.changed(try client.write(["H4": "5"]))
        #expect(changed["I4"]?["value"] as? Double == 10 && changed["I4"]?["input"] as? String == "=Log[[#This Row],[Qty]]*2", "\(changed)")
        #expect(changed["F4"]?["value"] as? Double == 16)
        // Below Staff's totals row nothing grows; two rows below Log neither.
        _ = try client.write(["B6": "100", "H6": "1"])
        var grown = try #require(try fixture.api.object("/api/sheets/\(sheet)")["tables"] as? [[String: Any]])
        #expect(grown.map { $0["ref"] as? String } == ["A1:D5", "H1:I4"])
        // Rows from the one below at once (a paste) grow it over all of them; a written cell of a
        // calculated column keeps what was written.
        changed = EditingClient.changed(try client.write(["H5": "2", "H6": "3", "I6": "100"]))
        #expect(changed["I5"]?["value"] as? Double == 4 && changed["I6"]?["value"] as? Double == 100, "\(changed)")
        #expect(changed["F4"]?["value"] as? Double == 120)
        grown = try #require(try fixture.api.object("/api/sheets/\(sheet)")["tables"] as? [[String: Any]])
        #expect(grown.map { $0["ref"] as? String } == ["A1:D5", "H1:I6"])
        #expect(try client.cells()["G2"]?["value"] as? Double == 60)

        // The graph rebuilt from the store (a restart) still evaluates names and the grown table.
        try fixture.server.restart()
        api = fixture.server.api(api.token)
        client = EditingClient(api, sheet)
        changed = EditingClient.changed(try client.write(["H2": "11"]))
        #expect(changed["I2"]?["value"] as? Double == 22 && changed["F4"]?["value"] as? Double == 140, "\(changed)")
        changed = EditingClient.changed(try client.write(["B3": "0"]))
        #expect(changed["G1"]?["value"] as? Double == 40 && changed["F1"]?["value"] as? Double == 40)

        // Renamed, then exported: names and tables written back, references under the new name.
        let rename = try api.call("PATCH", "/api/sheets/\(sheet)", json: ["name": "Pay 2026"])
        #expect(rename.status == 200, "\(rename.text)")
        let response = try api.call("GET", "/api/sheets/\(sheet)/export.xlsx")
        try #require(response.status == 200)
        let file = fixture.folder.appendingPathComponent("export.xlsx")
        try Data(response.body).write(to: file)
        let read = """
            import sys, json, openpyxl
            wb = openpyxl.load_workbook(sys.argv[1])
            ws = wb.active
            values = {c.coordinate: c.value for r in openpyxl.load_workbook(sys.argv[1], data_only=True).active.iter_rows() for c in r if c.value is not None}
            print(json.dumps({"names": sorted(n + "=" + d.attr_text for n, d in wb.defined_names.items()),
                              "local": sorted(n + "=" + d.attr_text for n, d in ws.defined_names.items()),
                              "printArea": ws.print_area, "title": ws.title,
                              "tables": sorted([t.displayName, t.ref, t.totalsRowCount or 0] for t in ws.tables.values()),
                              "values": values}))
            """
        let exported = try #require(try JSONSerialization.jsonObject(with: Data(try runPython(read, arguments: [file.path]).utf8)) as? [String: Any])
        let exportedNames = exported["names"] as? [String] ?? []
        #expect(exportedNames.contains("calHours='Pay 2026'!$B$2:$B$4") && exportedNames.contains("PayPlus=SUM('Pay 2026'!$D$2:$D$4)*Factor"), "\(exportedNames)")
        #expect(exportedNames.contains("Twice=LAMBDA(x,x*2)") && exportedNames.contains("Bonus=0.5") && !exportedNames.contains { $0.hasPrefix("OtherCells") })
        #expect(exported["local"] as? [String] == ["Bonus=0.25", "Span='Pay 2026'!$B$1:$C$1"])
        #expect((exported["printArea"] as? String)?.contains("$A$1:$D$5") == true)
        let exportedTables = exported["tables"] as? [[Any]] ?? []
        #expect(exportedTables.map { "\($0[0])|\($0[1])|\($0[2])" } == ["Log|H1:I6|0", "Staff|A1:D5|1"])
        // The values the export carries are the server's.
        let values = exported["values"] as? [String: Any] ?? [:]
        let now = try client.cells()
        for ref in ["F1", "F2", "F3", "F4", "G1", "G2", "I2", "I4", "I5", "I6", "D5"] {
            #expect(values[ref] as? Double == now[ref]?["value"] as? Double, "\(ref): \(values[ref] ?? "nil") \(now[ref] ?? [:])")
        }
    }

    /// The export computes the same in LibreOffice: its cached values withheld, LibreOffice
    /// recalculates it through the written names and tables (the grown one too) and gets the
    /// server's values. Runs when `SHEETPORT_REAL_CLIENTS=1` (LibreOffice installed).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SHEETPORT_REAL_CLIENTS"] == "1"))
    func exportComputesTheSameInLibreOffice() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = try Self.importBook(fixture)
        let client = EditingClient(fixture.api, sheet)
        _ = try client.write(["B2": "30", "H4": "5", "G1": "=SUM(calHours)+Bonus", "G2": "=SUM(Staff[Pay])"])
        let response = try fixture.api.call("GET", "/api/sheets/\(sheet)/export.xlsx")
        try #require(response.status == 200)
        let file = fixture.folder.appendingPathComponent("export.xlsx")
        try Data(response.body).write(to: file)
        let recalculate = """
            import os, re, subprocess, sys, json, zipfile, openpyxl
            source, folder = sys.argv[1], sys.argv[2]
            with zipfile.ZipFile(source) as z:
                parts = {n: z.read(n) for n in z.namelist()}
            # The formulas' cached values withheld: LibreOffice has to compute every one.
            parts['xl/worksheets/sheet1.xml'] = re.sub(rb'(<f>[^<]*</f>)<v>[^<]*</v>', rb'\\1', parts['xl/worksheets/sheet1.xml'])
            stripped = os.path.join(folder, 'stripped.xlsx')
            with zipfile.ZipFile(stripped, 'w', zipfile.ZIP_DEFLATED) as z:
                for n, b in parts.items(): z.writestr(n, b)
            out = os.path.join(folder, 'out')
            subprocess.run(['soffice', '-env:UserInstallation=file://' + os.path.join(folder, 'profile'), '--headless',
                            '--convert-to', 'xlsx', '--outdir', out, stripped], check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=150)
            ws = openpyxl.load_workbook(os.path.join(out, 'stripped.xlsx'), data_only=True).active
            print(json.dumps({c.coordinate: c.value for r in ws.iter_rows() for c in r if c.value is not None}))
            """
        let computed = try #require(try JSONSerialization.jsonObject(with: Data(try runPython(recalculate, arguments: [file.path, fixture.folder.path]).utf8)) as? [String: Any])
        let cells = try client.cells()
        for ref in ["D2", "D3", "D4", "B5", "D5", "F1", "F2", "F3", "F4", "G1", "G2", "I2", "I3", "I4"] {
            let server = try #require(cells[ref]?["value"] as? Double, "\(ref): \(cells[ref] ?? [:])")
            #expect(computed[ref] as? Double == server, "\(ref): LibreOffice \(computed[ref] ?? "nil"), the server \(server)")
        }
    }
}
