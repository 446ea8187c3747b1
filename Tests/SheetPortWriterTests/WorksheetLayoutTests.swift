import Foundation
import Testing
import SheetPortCore
import SheetPortReader
@testable import SheetPortWriter
import SheetPortTestSupport

/// Frozen panes (`<pane state="frozen">` in the sheet view) and a sheet's autofilter
/// (`<autoFilter ref>` with its hidden `_xlnm._FilterDatabase`): written, read back by openpyxl
/// and SheetPort's reader, and refused where Excel would not take them.
struct WorksheetLayoutTests {
    static func part(_ path: String, _ name: String) throws -> String {
        let archive = try Workbook(path: path).archive
        var bytes: [UInt8] = []
        if let entry = archive.entry(named: name) { try archive.read(entry) { bytes.append(contentsOf: $0) } }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func panesAndAutofiltersReadBack() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("layout.xlsx").path
        let writer = try WorkbookWriter(path: path)
        // A name that needs quoting in a formula, and each kind of pane.
        let panes: [(name: String, rows: Int, columns: Int)] = [("It's rows", 1, 0), ("Columns", 0, 2), ("Both", 3, 1), ("None", 0, 0)]
        for pane in panes {
            let sheet = try writer.addWorksheet(named: pane.name)
            try sheet.freezePanes(rows: 5, columns: 5) // replaced by the next call
            try sheet.freezePanes(rows: pane.rows, columns: pane.columns)
            try sheet.append(Row(index: 1, cells: [Cell(column: 1, value: .string("a")), Cell(column: 2, value: .string("b"))]))
            // Set after the rows, replaced by the second: one name per sheet.
            try sheet.setAutoFilter(CellRange("A1:C1")!)
            try sheet.setAutoFilter(CellRange("B2:A1")!)
        }
        try writer.close()

        let seen = try runPython("""
        import sys, openpyxl
        wb = openpyxl.load_workbook(sys.argv[1])
        for ws in wb.worksheets: print(ws.title, ws.freeze_panes, ws.auto_filter.ref, sep='|')
        """, arguments: [path])
        #expect(seen == "It's rows|A2|A1:B2\nColumns|C1|A1:B2\nBoth|B4|A1:B2\nNone|None|A1:B2\n")
        let names = try Workbook(path: path).definedNames.filter { $0.name == "_xlnm._FilterDatabase" }
        #expect(names.map(\.formula) == ["'It''s rows'!$A$1:$B$2", "'Columns'!$A$1:$B$2", "'Both'!$A$1:$B$2", "'None'!$A$1:$B$2"])
        #expect(names.map(\.localSheet) == [0, 1, 2, 3])
        let both = try Self.part(path, "xl/worksheets/sheet3.xml")
        #expect(both.contains("<pane xSplit=\"1\" ySplit=\"3\" topLeftCell=\"B4\" activePane=\"bottomRight\" state=\"frozen\"/>"))
        #expect(!(try Self.part(path, "xl/worksheets/sheet4.xml")).contains("<pane"))
    }

    @Test func hostileLayoutsAreRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let writer = try WorkbookWriter(path: folder.appendingPathComponent("refused.xlsx").path)
        defer { writer.discard() }
        let sheet = try writer.addWorksheet(named: "S")
        for (rows, columns) in [(-1, 0), (0, -1), (CellReference.maxRow, 0), (0, CellReference.maxColumn), (Int.max, Int.min)] {
            #expect(throws: WriterError.self, "\(rows), \(columns)") { try sheet.freezePanes(rows: rows, columns: columns) }
        }
        for range in [CellRange(start: CellReference(row: 0, column: 1), end: CellReference(row: 1, column: 1)),
                      CellRange(start: CellReference(row: 1, column: 1), end: CellReference(row: 1, column: CellReference.maxColumn + 1)),
                      CellRange(start: CellReference(row: CellReference.maxRow + 1, column: 1), end: CellReference(row: 1, column: 1))] {
            #expect(throws: WriterError.self, "\(range.start) \(range.end)") { try sheet.setAutoFilter(range) }
        }
        try sheet.addTable(WorksheetTable(name: "T", range: CellRange("D4:E6")!, columns: [.init(name: "x"), .init(name: "y")]))
        #expect(throws: WriterError.self) { try sheet.setAutoFilter(CellRange("A1:D4")!) }
        try sheet.setAutoFilter(CellRange("A1:C9")!)
        #expect(throws: WriterError.self) {
            try sheet.addTable(WorksheetTable(name: "U", range: CellRange("C9:C10")!, columns: [.init(name: "z")]))
        }
        try sheet.append(Row(index: 1, cells: [Cell(column: 1, value: .string("h"))]))
        #expect(throws: WriterError.self) { try sheet.freezePanes(rows: 1) } // after the first row
        try writer.close()
        #expect(throws: WriterError.self) { try sheet.setAutoFilter(CellRange("A1:B1")!) } // once closed
    }

    @Test func displayedTextIsTheWrittenFormats() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let writer = try WorkbookWriter(path: folder.appendingPathComponent("shown.xlsx").path)
        defer { writer.discard() }
        let percent = try writer.style(CellStyle(numberFormat: "0.0%"))
        let dayMonth = try writer.style(CellStyle(numberFormat: "d mmm yyyy"))
        #expect(writer.displayedText(of: .date(serial: 45322), styleIndex: 0) == "2024-01-31")
        #expect(writer.displayedText(of: .date(serial: 45322.5625), styleIndex: percent) == "2024-01-31 13:30:00")
        #expect(writer.displayedText(of: .isoDate("2024-01-31"), styleIndex: dayMonth) == "31 Jan 2024")
        #expect(writer.displayedText(of: .duration(days: 1.5), styleIndex: 0) == "36:00:00")
        #expect(writer.displayedText(of: .number(0.1234), styleIndex: percent) == "12.3%")
        #expect(writer.displayedText(of: .number(1.0 / 3), styleIndex: 0) == "0.333333333")
        #expect(writer.displayedText(of: .boolean(true), styleIndex: -1) == "TRUE") // an unknown style: General
        #expect(writer.displayedText(of: .isoDate("not a date"), styleIndex: 99) == "not a date")
    }
}
