import Foundation
import Testing
import SheetPortCore
import SheetPortReader
import SheetPortCalc
@testable import SheetPortConvert
import SheetPortTestSupport

/// CELL("width") and CELL without a reference computed from a file's own layout: `<cols>` widths
/// as Excel shows them, `sheetFormatPr`'s default, and the selected sheet's active cell, over
/// hostile layouts (no `<cols>`, width 0, hidden, 255, a run past the grid, garbage active cells).
@Suite struct CellLayoutRecalcTests {
    /// CELL's answers in A1 (no reference), B1 (A1's column), C1 ... of one sheet with `layout`
    /// before its `<sheetData>`.
    func computed(layout: String, formulas: [String]) throws -> [CalcValue] {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("layout.xlsx").path
        let cells = formulas.enumerated().map { "<c r=\"\(CellReference.columnName($0.offset + 1))1\"><f>\(RawWorkbook.escaped($0.element))</f></c>" }
        try RawWorkbook(sheets: [.init(name: "S", sheetData: "<row r=\"1\">" + cells.joined() + "</row>", beforeSheetData: layout)]).write(to: path)
        let calculation = try WorkbookCalculation(try Workbook(path: path))
        return formulas.indices.map { calculation.engine.value(at: CellReference(row: 1, column: $0 + 1), sheet: 0) }
    }

    /// CELL("width", ref) in a cell is the width; whether it is the default is its second item.
    func widths(layout: String, of refs: [String]) throws -> [CalcValue] {
        try computed(layout: layout, formulas: refs.flatMap { ["CELL(\"width\",\($0))", "INDEX(CELL(\"width\",\($0)),1,2)"] })
    }

    func pairs(_ expected: [(Double, Bool)]) -> [CalcValue] { expected.flatMap { [.number($0.0), .boolean($0.1)] } }

    @Test func columnWidthsAreReadAsExcelShowsThem() throws {
        let layout = "<sheetFormatPr baseColWidth=\"10\" defaultRowHeight=\"15\"/><cols>"
            + "<col min=\"2\" max=\"2\" width=\"10.7109375\" customWidth=\"1\"/>"  // shown 10
            + "<col min=\"3\" max=\"3\" width=\"0\" customWidth=\"1\"/>"
            + "<col min=\"4\" max=\"4\" width=\"30\" hidden=\"1\"/>"
            + "<col min=\"5\" max=\"5\" width=\"255.7109375\"/>"
            + "<col min=\"6\" max=\"99999999\" width=\"12.7109375\"/>"      // past the grid
            // Widths Excel never writes leave the run beneath them (F onwards) in place.
            + "<col min=\"7\" max=\"7\" width=\"-3\"/><col min=\"8\" max=\"8\" width=\"NaN\"/><col min=\"9\" max=\"9\"/>"
            + "</cols>"
        let got = try widths(layout: layout, of: ["A1", "B1", "C1", "D1", "E1", "XFD1", "G1"])
        #expect(got == pairs([(10, true), (10, false), (0, false), (0, false), (255, false), (12, false), (12, false)]))
        // No <cols>, no sheetFormatPr: Excel's 8; a defaultColWidth counts its padding as <col width> does.
        #expect(try widths(layout: "", of: ["A1"]) == pairs([(8, true)]))
        #expect(try widths(layout: "<sheetFormatPr defaultColWidth=\"15.7109375\"/>", of: ["Q1"]) == pairs([(15, true)]))
    }

    @Test func cellWithoutAReferenceReadsTheSelectedSheetsActiveCell() throws {
        func view(_ selection: String, selected: Bool = true) -> String {
            "<sheetViews><sheetView" + (selected ? " tabSelected=\"1\"" : "") + " workbookViewId=\"0\">\(selection)</sheetView></sheetViews>"
        }
        let formulas = ["CELL(\"address\")", "CELL(\"width\")", "INDEX(CELL(\"width\"),1,2)"]
        let cols = "<cols><col min=\"9\" max=\"9\" width=\"20.7109375\" customWidth=\"1\"/></cols>"
        #expect(try computed(layout: view("<selection activeCell=\"I2\" sqref=\"I2\"/>") + cols, formulas: formulas) == [.text("$I$2"), .number(20), .boolean(false)])
        // Frozen panes: the active pane's selection.
        let panes = "<pane xSplit=\"1\" ySplit=\"1\" topLeftCell=\"B2\" activePane=\"bottomRight\" state=\"frozen\"/>"
            + "<selection pane=\"topRight\" activeCell=\"C1\"/><selection pane=\"bottomLeft\" activeCell=\"A5\"/><selection pane=\"bottomRight\" activeCell=\"D7\"/>"
        #expect(try computed(layout: view(panes), formulas: ["CELL(\"address\")"]) == [.text("$D$7")])
        // Garbage, a range, a sheet not selected, no selection at all: no selected cell, #VALUE!.
        for layout in [view("<selection activeCell=\"ZZZZ0\"/>"), view("<selection activeCell=\"A1:B2\"/>"), view("<selection activeCell=\"\"/>"),
                       view("<selection activeCell=\"XFE1\"/>"), view("<selection activeCell=\"I2\"/>", selected: false), view(""), ""] {
            let got = try computed(layout: layout, formulas: ["CELL(\"address\")", "CELL(\"width\")"])
            #expect(got == [.error(.value), .error(.value)], "\(layout): \(got)")
        }
    }
}
