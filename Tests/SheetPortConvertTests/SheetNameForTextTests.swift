import Testing
@testable import SheetPortConvert

/// A workbook converted from text names its one sheet after the input file (conversions:
/// SheetPortCLITests' `TextToWorkbookTests`).
@Suite struct TextToWorkbookTests {
    @Test func namesTheSheetAfterTheFile() {
        #expect(TextToWorkbook.sheetName(for: "/x/sales [2024]: q1.csv") == "sales _2024__ q1")
        #expect(TextToWorkbook.sheetName(for: "-") == "Sheet1")
        #expect(TextToWorkbook.sheetName(for: "history.csv") == "Sheet1")
        #expect(TextToWorkbook.sheetName(for: String(repeating: "n", count: 40) + ".csv").count == 31)
    }
}
