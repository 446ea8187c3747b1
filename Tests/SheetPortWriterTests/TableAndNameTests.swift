import Foundation
import Testing
import SheetPortCore
import SheetPortReader
@testable import SheetPortWriter
@testable import SheetPortConvert
import SheetPortTestSupport

/// Defined names (`<definedNames>` in xl/workbook.xml) and tables (xl/tables/tableN.xml, the
/// sheet's `tableParts`, relationships and content types): what the writer writes, read back by
/// SheetPort's reader and by openpyxl, and what it refuses.
struct TableAndNameTests {
    static let sales = WorksheetTable(name: "Sales", range: CellRange("A1:C4")!, hasTotalsRow: true, columns: [
        .init(name: "Item", totalsRowLabel: "Total"),
        .init(name: "Qty", totalsRowFunction: "sum"),
        .init(name: "Amount", totalsRowFunction: "custom", totalsRowFormula: "SUBTOTAL(109,Sales[Amount])*1",
              calculatedColumnFormula: "Sales[[#This Row],[Qty]]*2"),
    ], styleName: "TableStyleLight9")

    /// A workbook with names of both scopes, a hidden built-in, a constant, a formula and a
    /// LAMBDA, and two tables on two sheets (one beside comments), written to `path`.
    static func write(to path: String, streamed: Bool) throws {
        let collected = ByteCollector()
        let writer = streamed ? try WorkbookWriter(streamingTo: collected.append, name: path) : try WorkbookWriter(path: path)
        let data = try writer.addWorksheet(named: "Data sheet")
        try data.append(Row(index: 1, cells: [Cell(column: 1, value: .string("Item")), Cell(column: 2, value: .string("Qty")),
                                              Cell(column: 3, value: .string("Amount"))]))
        for row in 2...3 {
            try data.append(Row(index: row, cells: [Cell(column: 1, value: .string("i\(row)")), Cell(column: 2, value: .number(Double(row))),
                                                    Cell(column: 3, value: .number(Double(row * 2)), formula: "Sales[[#This Row],[Qty]]*2")]))
        }
        try data.append(Row(index: 4, cells: [Cell(column: 1, value: .string("Total")), Cell(column: 2, value: .number(5), formula: "SUBTOTAL(109,Sales[Qty])"),
                                              Cell(column: 3, value: .number(10), formula: "SUBTOTAL(109,Sales[Amount])*1")]))
        try data.addTable(sales)
        try data.addComment("a note beside the table", row: 6, column: 1)
        try writer.defineName("Rate", formula: "0.2")
        try writer.defineName("Quantities", formula: "'Data sheet'!$B$2:$B$3")
        try writer.defineName("Rate", formula: "=0.5", localTo: data)
        try writer.defineName("Double", formula: "LAMBDA(x,x*2)")
        try writer.defineName("_xlnm.Print_Area", formula: "'Data sheet'!$A$1:$C$4", localTo: data, isHidden: false)
        let other = try writer.addWorksheet(named: "Other")
        try other.append(Row(index: 2, cells: [Cell(column: 2, value: .string("Name")), Cell(column: 3, value: .string("Line\nbreak"))]))
        try other.append(Row(index: 3, cells: [Cell(column: 2, value: .string("x")), Cell(column: 3, value: .number(1))]))
        try other.addTable(WorksheetTable(name: "Plain", range: CellRange("B2:C3")!, columns: [.init(name: "Name"), .init(name: "Line\nbreak")]))
        try writer.defineName("Hidden.one", formula: "Other!$B$3", isHidden: true)
        try writer.close()
        if streamed { try Data(collected.bytes).write(to: URL(fileURLWithPath: path)) }
    }

    @Test(arguments: [false, true])
    func namesAndTablesReadBack(streamed: Bool) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("tables.xlsx").path
        try Self.write(to: path, streamed: streamed)

        // SheetPort's reader: the names as defined, the tables whole.
        let workbook = try Workbook(path: path)
        #expect(workbook.definedNames.map(\.name) == ["Rate", "Quantities", "Rate", "Double", "_xlnm.Print_Area", "Hidden.one"])
        #expect(workbook.definedNames[2].localSheet == 0 && workbook.definedNames[2].formula == "0.5")
        #expect(workbook.definedNames[3].formula == "LAMBDA(x,x*2)")
        #expect(workbook.definedNames[5].isHidden)
        #expect(workbook.tables(of: workbook.sheets[0]) == [Self.sales])
        #expect(workbook.tables(of: workbook.sheets[1]).first?.columns.map(\.name) == ["Name", "Line\nbreak"])

        // openpyxl: the same names and tables, the totals row and the calculated column.
        let script = """
        import json, sys, openpyxl
        wb = openpyxl.load_workbook(sys.argv[1])
        out = {"names": sorted([n + "=" + d.attr_text for n, d in wb.defined_names.items()]),
               "local": {ws.title: sorted([n + "=" + d.attr_text for n, d in ws.defined_names.items()]) for ws in wb.worksheets},
               "printArea": wb["Data sheet"].print_area,
               "tables": {ws.title: [{"name": t.displayName, "ref": t.ref, "totals": t.totalsRowCount or 0,
                                      "columns": [[c.name, c.totalsRowFunction, c.totalsRowLabel,
                                                   c.calculatedColumnFormula.attr_text if c.calculatedColumnFormula is not None else None]
                                                  for c in t.tableColumns]} for t in ws.tables.values()] for ws in wb.worksheets}}
        print(json.dumps(out))
        """
        let (status, output) = try Project.python(["-c", script, path])
        #expect(status == 0, "\(output)")
        let object = try #require(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(object["names"] as? [String] == ["Double=LAMBDA(x,x*2)", "Hidden.one=Other!$B$3", "Quantities='Data sheet'!$B$2:$B$3", "Rate=0.2"])
        #expect((object["local"] as? [String: [String]])?["Data sheet"] == ["Rate=0.5"])
        #expect((object["printArea"] as? String)?.contains("$A$1:$C$4") == true)
        let tables = try #require(object["tables"] as? [String: [[String: Any]]])
        let sales = try #require(tables["Data sheet"]?.first)
        #expect(sales["name"] as? String == "Sales" && sales["ref"] as? String == "A1:C4" && sales["totals"] as? Int == 1)
        let columns = try #require(sales["columns"] as? [[Any]])
        #expect(columns[0][2] as? String == "Total")
        #expect(columns[1][1] as? String == "sum")
        #expect(columns[2][3] as? String == "Sales[[#This Row],[Qty]]*2")
        #expect(tables["Other"]?.first?["ref"] as? String == "B2:C3")
    }

    /// Names and tables Excel refuses are refused with a message; a name may be both the
    /// workbook's and a sheet's, as in Excel.
    @Test func hostileNamesAndTablesAreRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let writer = try WorkbookWriter(path: folder.appendingPathComponent("refused.xlsx").path)
        let sheet = try writer.addWorksheet(named: "S")
        for name in ["A1", "xfd1048576", "R1C1", "R", "c", "RC", "R2C", "", "1abc", "a b", "bell\u{7}", String(repeating: "n", count: 256), "ok\u{202E}"] {
            #expect(throws: WriterError.self, "\(name.visibleControlCharacters)") { try writer.defineName(name, formula: "1") }
        }
        try writer.defineName(String(repeating: "n", count: 255), formula: "1")
        try writer.defineName("Dup", formula: "1")
        try writer.defineName("dup", formula: "2", localTo: sheet)
        #expect(throws: WriterError.self) { try writer.defineName("DUP", formula: "3") }
        #expect(throws: WriterError.self) { try writer.defineName("Ctl", formula: "\"a\u{0}b\"") }
        #expect(throws: WriterError.self) { try writer.defineName("Empty", formula: "=") }
        let table = WorksheetTable(name: "T", range: CellRange("A1:B3")!, columns: [.init(name: "a"), .init(name: "b")])
        try sheet.addTable(table)
        var other = table
        other.name = "Second"
        #expect(throws: WriterError.self) { try sheet.addTable(other) } // overlaps T
        other.range = CellRange("D1:E3")!
        other.name = "t"
        #expect(throws: WriterError.self) { try sheet.addTable(other) } // T's name in another case
        other.name = "Second"
        other.columns = [.init(name: "a"), .init(name: "A")]
        #expect(throws: WriterError.self) { try sheet.addTable(other) } // column names equal ignoring case
        other.columns = [.init(name: "a"), .init(name: "b", totalsRowFunction: "median")]
        #expect(throws: WriterError.self) { try sheet.addTable(other) }
        other.columns = [.init(name: "a")]
        #expect(throws: WriterError.self) { try sheet.addTable(other) } // one column for two
        other.columns = [.init(name: "a"), .init(name: "b")]
        other.range = CellRange("D1:E1")!
        #expect(throws: WriterError.self) { try sheet.addTable(other) } // a header and no data row
        other.range = CellRange("D1:E3")!
        try sheet.addTable(other)
        let next = try writer.addWorksheet(named: "Next")
        #expect(throws: WriterError.self) { try sheet.addTable(other) } // the sheet ended
        other.range = CellRange("H1:I3")!
        #expect(throws: WriterError.self) { try next.addTable(other) } // Second is on S
        try writer.close()
    }

    @Test func cellReferenceShapedNames() {
        for name in ["A1", "a1", "XFD1048576", "R1C1", "r1c", "RC1", "R", "C", "RC", "R10"] {
            #expect(WorkbookName.isCellReferenceShaped(name), "\(name)")
        }
        for name in ["XFE1", "Rate", "RCX", "CR", "A1B", "_A1", "Table1", "R1C1x"] {
            #expect(!WorkbookName.isCellReferenceShaped(name), "\(name)")
        }
        #expect(WorkbookName.isValid("_xlnm.Print_Area") && WorkbookName.isValid("\\back") && WorkbookName.isValid("Größe"))
    }
}
