import Foundation
import Testing
import SheetPortCore
import SheetPortTestSupport

/// CELL("width") on the server reads the column widths the server stores (the imported
/// `<cols>`, shown as Excel shows them); with no selected cell kept, CELL without a reference
/// stays #VALUE!.
@Suite struct CellWidthServerTests {
    @Test func cellWidthReadsTheStoredColumnWidths() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let cols = "<sheetViews><sheetView tabSelected=\"1\" workbookViewId=\"0\"><selection activeCell=\"B2\"/></sheetView></sheetViews>"
            + "<cols><col min=\"2\" max=\"2\" width=\"20.7109375\" customWidth=\"1\"/><col min=\"3\" max=\"3\" width=\"9\" hidden=\"1\"/></cols>"
        let raw = RawWorkbook(sheets: [.init(name: "S", sheetData: RawWorkbook.row(1, RawWorkbook.number("A1", "1")), beforeSheetData: cols)])
        let path = fixture.folder.appendingPathComponent("widths.xlsx").path
        try raw.write(to: path)
        let sheet = EditingClient(fixture.api, try fixture.api.importSheet(path))
        let answer = EditingClient.changed(try sheet.write(["D1": "=CELL(\"width\",B1)", "D2": "=INDEX(CELL(\"width\",B1),1,2)",
                                                            "D3": "=CELL(\"width\",C9)", "D4": "=INDEX(CELL(\"width\",A1),1,2)",
                                                            "D5": "=CELL(\"width\")"]))
        // Excel 365's {width, is-default} spills: E1 shows B's width is not the default.
        let shown = ["D1", "E1", "D2", "D3", "D4", "D5"].map { answer[$0]?["display"] as? String ?? "none" }
        #expect(shown == ["20", "FALSE", "FALSE", "0", "TRUE", "#VALUE!"], "\(answer)")
    }
}
