import Testing
@testable import SheetPortCore
@testable import SheetPortReader

/// A cell shown through its style's format (`NumberFormatRenderer.text(_:format:system:)`):
/// a built-in format, which a style names by id alone, as Excel (en-US) shows it.
@Suite struct CellFormatDisplayTests {
    @Test func builtInDateFormatInEitherDateSystem() {
        var builtIn14 = CellFormat()
        (builtIn14.numberFormatID, builtIn14.numberFormat, builtIn14.isDate) = (14, "mm-dd-yy", true)
        #expect(NumberFormatRenderer.text(.date(serial: 45322), format: builtIn14, system: .excel1900) == "1/31/2024")
        #expect(NumberFormatRenderer.text(.date(serial: 0), format: builtIn14, system: .excel1904) == "1/1/1904")
    }
}
