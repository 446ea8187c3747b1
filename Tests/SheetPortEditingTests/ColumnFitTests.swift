import Testing
@testable import SheetPortEditing

/// Numbers drawn in a column too narrow for their display, as Excel draws them (issue 38: the grid
/// cut `0.6896551`).
@Suite struct ColumnFitTests {
    @Test(arguments: [
        ("0.689655172413793", 10, "0.68965517"), ("0.689655172413793", 8, "0.689655"),
        ("2.99999999", 4, "3"), ("-0.125", 5, "-0.13"), ("42", 10, "42"), ("12345", 5, "12345"),
        ("123456789012", 10, "1.2346E+11"), ("123456", 5, "1E+05"), ("-123456789", 8, "-1.2E+08"),
        ("-0.000001234", 6, "-1E-06"), ("1E+300", 5, "1E+300".count <= 5 ? "1E+300" : "#####"),
        ("1.5E-10", 6, "1.5E-10".count <= 6 ? "1.5E-10" : "2E-10"),
        // A number in any other format fills the column with #, as a too-narrow date does.
        ("12.50%", 4, "####"), ("$1,234.50", 6, "######"), ("2026-12-06", 8, "########"),
        ("1.5", 0, ""), ("-12345678", 2, "##"), ("4.94065645841247E-324", 7, "5E-324"),
        // Scientific where it keeps more digits, as a cell's General does (-2.5E-09).
        ("0.0000005", 8, "5E-07"), ("-0.0000025", 9, "-2.5E-06"), ("0.00001234", 8, "1.23E-05"),
    ])
    func fits(_ display: String, _ width: Int, _ expected: String) {
        let fitted = ColumnFit.number(display, width: width)
        #expect(fitted == expected, "\(display) in \(width)")
        #expect(fitted.count <= max(width, 0))
    }

    /// Hostile displays never trap and never come out wider than the column.
    @Test(arguments: ["", "-", "E", "1E", "--1", "1e5", "NaN", "inf", String(repeating: "9", count: 400), "1" + String(repeating: "0", count: 320),
                      "-" + String(repeating: "9", count: 309), "0." + String(repeating: "0", count: 400) + "1", "\u{1B}[2J12", "5E-324", "-2.2250738585072014E-308", "1.7976931348623157E+308"])
    func hostile(_ display: String) {
        for width in [1, 2, 5, 11] { #expect(ColumnFit.number(display, width: width).count <= width) }
    }
}
