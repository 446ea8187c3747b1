import Foundation
import Testing
import SheetPortClient
import SheetPortTestSupport

/// The round trip of issue 36's calculation authority: a workbook with a table, defined names and
/// dynamic arrays (written by XlsxWriter, as Excel stores them: `cm` metadata, `_xlfn.` and
/// `_xlpm.` prefixes) is imported, a precedent is edited through the server, the sheet is
/// exported, and IronCalc recalculates the export from its formulas alone: every value it computes
/// is the server's. IronCalc, not LibreOffice: Debian's LibreOffice 7.4 lacks SEQUENCE, FILTER,
/// UNIQUE, LET and XLOOKUP.
@Suite struct DynamicArrayRoundTripTests {
    /// Sheet "Data": the table Sales (A1:D5, the calculated column Total), the names Qtys and
    /// Rate (ranges: IronCalc 0.9 reads no constant name), three spilling formulas (F1, G1, H1)
    /// and formulas over them (`F1#` is `ANCHORARRAY(F1)` in the file).
    static let script = """
        import sys, xlsxwriter
        wb = xlsxwriter.Workbook(sys.argv[1])
        ws = wb.add_worksheet('Data')
        ws.write_row('A1', ['Item', 'Qty', 'Price'])
        for i, r in enumerate([('pen', 3, 1.5), ('ink', 10, 4), ('pad', 3, 2.5), ('pen', 7, 1.5)], start=1):
            ws.write_row(i, 0, r)
        ws.add_table('A1:D5', {'name': 'Sales', 'columns': [{'header': 'Item'}, {'header': 'Qty'}, {'header': 'Price'},
                                                            {'header': 'Total', 'formula': '=Sales[[#This Row],[Qty]]*Sales[[#This Row],[Price]]'}]})
        ws.write('K1', 0.1)
        wb.define_name('Qtys', '=Data!$B$2:$B$5')
        wb.define_name('Rate', '=Data!$K$1')
        ws.write_dynamic_array_formula('F1', '=SEQUENCE(B2)')
        ws.write_dynamic_array_formula('G1', '=FILTER(A2:A5,B2:B5>C2)')
        ws.write_dynamic_array_formula('H1', '=UNIQUE(A2:A5)')
        ws.write_formula('I1', '=_xlfn.LET(_xlpm.x,SUM(Qtys),_xlpm.x*Rate)')
        ws.write_formula('I2', '=SUM(Sales[Total])')
        ws.write_formula('I3', '=_xlfn.XLOOKUP("ink",Sales[Item],Sales[Qty])')
        ws.write_formula('I4', '=SUM(_xlfn.ANCHORARRAY(F1))')
        ws.write_formula('I5', '=COUNTA(_xlfn.ANCHORARRAY(G1))')
        wb.close()
        """

    /// Loads `argv[1]` with its formulas' cached values withheld (spilled cells, which hold only
    /// values, go too), lets IronCalc evaluate it, and prints every non-empty cell's value as
    /// the last line (IronCalc writes notes of its own to standard output).
    static let recalculate = """
        import json, os, re, sys, zipfile, ironcalc
        source, folder = sys.argv[1], sys.argv[2]
        with zipfile.ZipFile(source) as z:
            parts = {n: z.read(n) for n in z.namelist()}
        sheet = parts['xl/worksheets/sheet1.xml']
        sheet = re.sub(rb'(<f[^>]*>[^<]*</f>|<f[^>]*/>)<v>[^<]*</v>', rb'\\1', sheet)
        spilled = set(json.loads(sys.argv[3]))
        def unspill(m):
            ref = re.search(rb'r="([A-Z]+[0-9]+)"', m.group(0)).group(1).decode()
            return b'' if ref in spilled else m.group(0)
        parts['xl/worksheets/sheet1.xml'] = re.sub(rb'<c [^>]*?(?:/>|>.*?</c>)', unspill, sheet)
        stripped = os.path.join(folder, 'stripped.xlsx')
        with zipfile.ZipFile(stripped, 'w', zipfile.ZIP_DEFLATED) as z:
            for n, b in parts.items(): z.writestr(n, b)
        model = ironcalc.load_from_xlsx(stripped, 'en', 'UTC')
        model.evaluate()
        values = {}
        for row in range(1, 11):
            for column in range(1, 10):
                ref = ironcalc.column_name_from_number(column) + str(row)
                if model.is_empty_cell(0, row, column): continue
                values[ref] = model.get_cell_value(0, row, column)
        print(json.dumps(values))
        """

    @Test func editedExportRecomputesTheSameInIronCalc() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let book = fixture.folder.appendingPathComponent("arrays.xlsx").path
        _ = try runPython(Self.script, arguments: [book])
        let job = try fixture.api.importWorkbook(book)
        try #require(job["status"] as? String == "succeeded", "\(job)")
        let sheet = try #require(((job["result"] as? [String: Any])?["sheet"] as? [String: Any])?["id"] as? String)
        let client = EditingClient(fixture.api, sheet)

        // Computed at import: the table's column, the spills, LET over a name, XLOOKUP, F1#.
        var cells = try client.cells()
        func number(_ ref: String) -> Double? { cells[ref]?["value"] as? Double }
        func text(_ ref: String) -> String? { cells[ref]?["value"] as? String }
        #expect(number("D2") == 4.5 && number("I2") == 62.5, "\(cells["D2"] ?? [:]) \(cells["I2"] ?? [:])")
        let sequence: [Double?] = (1...4).map { number("F\($0)") }
        #expect(sequence == [1, 2, 3, nil])
        let filtered: [String?] = (1...4).map { text("G\($0)") }
        #expect(filtered == ["pen", "ink", "pad", "pen"])
        let unique: [String?] = (1...3).map { text("H\($0)") }
        #expect(unique == ["pen", "ink", "pad"])
        #expect(abs((number("I1") ?? 0) - 2.3) < 1e-12 && number("I3") == 10 && number("I4") == 6 && number("I5") == 4)

        // Precedents edited: SEQUENCE grows, FILTER shrinks, the table and the names follow.
        let changed = EditingClient.changed(try client.write(["B2": "5", "C2": "6"]))
        #expect(changed["F5"]?["value"] as? Double == 5 && changed["G3"] != nil, "\(changed.keys.sorted())")
        cells = try client.cells()
        let grown: [Double?] = (1...5).map { number("F\($0)") }
        #expect(grown == [1, 2, 3, 4, 5])
        #expect(text("G1") == "ink" && text("G2") == "pen" && text("G3") == nil, "\(cells.filter { $0.key.hasPrefix("G") })")
        #expect(number("D2") == 30 && number("I1") == 2.5 && number("I4") == 15 && number("I5") == 2)

        // Exported, recomputed by IronCalc from the formulas alone: the server's values.
        let response = try fixture.api.call("GET", "/api/sheets/\(sheet)/export.xlsx")
        // The log's writer thread may still hold the incident's line: a moment for it.
        let log = { Thread.sleep(forTimeInterval: 0.5); return (try? String(contentsOf: fixture.folder.appendingPathComponent("server.log"), encoding: .utf8)) ?? "" }
        try #require(response.status == 200, "\(response.text)\n\(log())")
        let file = fixture.folder.appendingPathComponent("export.xlsx")
        try Data(response.body).write(to: file)
        let spilled = cells.filter { $0.value["spill"] as? String != nil && $0.value["spill"] as? String != $0.key }.map(\.key)
        #expect(spilled.count == 7, "\(spilled.sorted())")
        let arguments = [file.path, fixture.folder.path, String(decoding: try JSONSerialization.data(withJSONObject: spilled), as: UTF8.self)]
        let output = try runPython(Self.recalculate, arguments: arguments).split(separator: "\n").last ?? ""
        let computed = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let formulas = cells.filter { ($0.value["input"] as? String)?.hasPrefix("=") == true || $0.value["spill"] != nil }
        // D2:D5, F1:F5, G1:G2, H1:H3, I1:I5; spilled (not anchors): F2:F5, G2, H2:H3.
        #expect(formulas.count == 19, "\(formulas.keys.sorted())")
        for (ref, cell) in formulas {
            if let server = cell["value"] as? Double {
                let peer = computed[ref] as? Double
                #expect(peer.map { abs($0 - server) <= 1e-12 * max(1, abs(server)) } == true, "\(ref): IronCalc \(computed[ref] ?? "nil"), the server \(server)")
            } else {
                #expect(computed[ref] as? String == cell["value"] as? String, "\(ref): IronCalc \(computed[ref] ?? "nil"), the server \(cell)")
            }
        }
    }
}
