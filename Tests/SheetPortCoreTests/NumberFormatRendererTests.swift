import Foundation
import Testing
@testable import SheetPortCore

/// `NumberFormatRenderer` against what Excel (en-US) shows: the examples of Microsoft's
/// "Review guidelines for customizing a number format" and of its date and time codes. (A
/// style's built-in format: `CellFormatDisplayTests`; `convert --values displayed`:
/// `ConvertValuesDisplayedTests`.)
@Suite struct NumberFormatRendererTests {
    @Test(arguments: [
        (1234.59, "####.#", "1234.6"), (8.9, "#.000", "8.900"), (0.631, "0.#", "0.6"), (12, "#.0#", "12.0"),
        (1234.568, "#.0#", "1234.57"), (44.398, "???.???", " 44.398"), (102.65, "???.???", "102.65 "), (2.8, "???.???", "  2.8  "),
        (12000, "#,###", "12,000"), (12000, "#,", "12"), (12_200_000, "0.0,,", "12.2"), (1234.5, "#,##0.00", "1,234.50"),
        (0.9876, "0.00%", "98.76%"), (0.5, "0%", "50%"), (12_345_678, "0.00E+00", "1.23E+07"), (0.000123, "0.00E+00", "1.23E-04"),
        (123_456_789, "000-00-0000", "123-45-6789"), (5, "00000", "00005"), (-5, "0", "-5"), (-1234.5, "#,##0.00", "-1,234.50"),
        (1234.5, "$#,##0.00_);($#,##0.00)", "$1,234.50 "), (-1234.5, "$#,##0.00_);($#,##0.00)", "($1,234.50)"),
        (-1234.5, "[Red]#,##0.00;[Blue](#,##0.00)", "(1,234.50)"), (0, "0;(0);\"zero\"", "zero"), (-5, "0;(0);\"zero\"", "(5)"),
        (50, "[<=100]0.0;[>100]#,##0", "50.0"), (1500, "[<=100]0.0;[>100]#,##0", "1,500"), (1.005, "0.00", "1.01"),
        (2.5, "0", "3"), (-2.5, "0", "-3"), (5.25, "# ?/?", "5 1/4"), (0.5, "?/?", "1/2"), (1234, "\"Qty: \"0", "Qty: 1234"),
        (12, "0\\ \\k\\g", "12 kg"), (3, "[$€-407] 0.00", "€ 3.00"), (1_000_000, "#,##0", "1,000,000"), (0, "#,##0", "0"),
        (0.25, "#.##", ".25"), (1, "0.0*-", "1.0"),
    ])
    func numbersShowAsExcelShowsThem(_ value: Double, _ code: String, _ shown: String) {
        #expect(NumberFormatRenderer.text(number: value, code: code) == shown, "\(value) in \(code)")
    }

    @Test(arguments: [
        (45322.0, "dd/mm/yyyy", "31/01/2024"), (45322.0, "m/d/yyyy", "1/31/2024"), (45322.0, "mmmm d, yyyy", "January 31, 2024"),
        (45322.0, "dddd, mmm d", "Wednesday, Jan 31"), (45322.0, "yy-mm-dd", "24-01-31"), (45322.0, "mmmmm", "J"),
        (45322.5625, "h:mm AM/PM", "1:30 PM"), (45322.5625, "hh:mm:ss", "13:30:00"), (45322.0, "h:mm A/P", "12:00 A"),
        (1.5, "[h]:mm:ss", "36:00:00"), (0.0416666666667, "[mm]:ss", "60:00"), (45322.50001, "h:mm:ss.000", "12:00:00.864"),
        (45322.999999, "yyyy-mm-dd hh:mm:ss", "2024-02-01 00:00:00"), (60.0, "yyyy-mm-dd", "1900-02-29"), (59.0, "yyyy-mm-dd dddd", "1900-02-28 Tuesday"),
    ])
    func datesShowAsExcelShowsThem(_ serial: Double, _ code: String, _ shown: String) {
        #expect(NumberFormatRenderer.text(number: serial, code: code) == shown, "\(serial) in \(code)")
    }

    @Test(arguments: [
        (0.0, "0"), (1234567890123.0, "1.23457E+12"), (0.1 + 0.2, "0.3"), (123456.789, "123456.789"), (1.0 / 3, "0.333333333"),
        (-1.0 / 3, "-0.333333333"), (1e-10, "1E-10"), (12345678901.0, "12345678901"), (99999999999.5, "1E+11"), (42, "42"),
        // Scientific where it keeps more digits than 11 characters of decimals (Excel's TEXT(x,"General")).
        (-2.5e-9, "-2.5E-09"), (2.5e-9, "2.5E-09"), (-1e-8, "-0.00000001"), (-2.5e-10, "-2.5E-10"), (1.2e-16, "1.2E-16"),
    ])
    func generalIsElevenCharacters(_ value: Double, _ shown: String) {
        #expect(NumberFormatRenderer.text(number: value, code: "General") == shown, "\(value)")
    }

    @Test func textBooleansErrorsAndBuiltIns() {
        #expect(NumberFormatRenderer.text(.string("abc"), code: "0;(0);\"zero\";\"text: \"@", system: .excel1900) == "text: abc")
        #expect(NumberFormatRenderer.text(.string("abc"), code: "0.00", system: .excel1900) == "abc")
        // A number in a text-only format shows as General, as Excel shows 42 in an `@` cell.
        #expect(NumberFormatRenderer.text(number: 42, code: "@") == "42")
        #expect(NumberFormatRenderer.text(number: -0.5, code: "\"ID \"@") == "-0.5")
        #expect(NumberFormatRenderer.text(number: 1e21, code: "@;@") == "1E+21")
        #expect(NumberFormatRenderer.text(.date(serial: 45322), code: "@", system: .excel1900) == "45322")
        #expect(NumberFormatRenderer.text(number: 42, code: "0;-0;0;@") == "42")
        #expect(NumberFormatRenderer.text(.boolean(true), code: "0.00", system: .excel1900) == "TRUE")
        #expect(NumberFormatRenderer.text(.error("#N/A"), code: "0.00", system: .excel1900) == "#N/A")
        // Hostile codes never crash.
        for code in ["[", "\"", "\\", "_", "*", "0.0.0", "#,##0,,,,,,,,,,,", "[>]0", "E+", "0/0", "mmmmmm", ";;;;;", String(repeating: "0", count: 400), "[h"] {
            _ = NumberFormatRenderer.text(number: 1234.5, code: code)
            _ = NumberFormatRenderer.text(number: -0.5, code: code)
        }
    }

    /// A comma after no digit placeholder shows as it stands; one after a placeholder groups (or,
    /// at the end, scales) and is not shown: Excel's values in calc-suite formulas__test EXTRA!A15:A23.
    @Test(arguments: [(1_234_567_890.0, "0,## ## ,##", "1,234,56 7,8 ,90"),
                      (1_000_000.555, "0 .  # ,0.00.0,00", "1000000 .  5 ,5.50.000"),
                      (1_234_567.555, "#,##000######## .  # ,0.00.0,00", "00,01,234,567 .  5 ,5.50.000"),
                      (1_234_578.555, "#,##00000,  ,00 , 0########    .  # ,0.00.0,00", "0,000,0  ,00, , 01,234,578    .  5 ,5.50.000"),
                      (1_234_567.0, "#,##0", "1,234,567"), (1_234_567.0, "#,##0,", "1,235"), (1_234_567.0, "0,,", "1"),
                      (-1_234_567.0, "0.0,,", "-1.2"), (0, " ,0", " ,0"), (-1e300, "0 ,", "-1" + String(repeating: "0", count: 300) + " ,")])
    func commasThatFollowNoPlaceholderAreShown(_ value: Double, _ code: String, _ shown: String) {
        #expect(NumberFormatRenderer.text(number: value, code: code) == shown, "\(value) in \(code)")
    }

    /// The exponent shows as many digits as it has `0` places, at least one; `#` places add none
    /// (formulas__test EXTRA!A29:A33).
    @Test(arguments: [(12_200_000.0, "0.00E-##", "1.22E7"), (0.000122, "0.00E-##", "1.22E-4"), (0.000122, "0.00E+##", "1.22E-4"),
                      (12_200_000.0, "0.00E+##", "1.22E+7"), (12_200_000.0, "0.00E+00", "1.22E+07"), (12_200_000.0, "0.00E+#0", "1.22E+7"),
                      (1e300, "0.0E+#", "1.0E+300"), (-1e-300, "0.0E-##", "-1.0E-300"), (0, "0.0E+##", "0.0E+0")])
    func exponentPlacesOfHashShowNoPaddingZero(_ value: Double, _ code: String, _ shown: String) {
        #expect(NumberFormatRenderer.text(number: value, code: code) == shown, "\(value) in \(code)")
    }

    /// A fraction's trailing zeros leave their `#` places empty (and `?` places blank) even before a
    /// `0` place, which keeps its zero (formulas__test EXTRA!A2).
    @Test(arguments: [(1.000000001, "00###.##.0000.00", "001..0000.00"), (1, "0.#0", "1.0"), (1.5, "0.#0", "1.50"),
                      (1.05, "0.#0", "1.05"), (1, "0.?0", "1. 0"), (-1, "0.#0", "-1.0"), (1.000000001, "0.#0#", "1.0"),
                      (1e300, "0.#0", "1" + String(repeating: "0", count: 300) + ".0")])
    func fractionHashPlacesDropTrailingZerosBeforeZeroPlaces(_ value: Double, _ code: String, _ shown: String) {
        #expect(NumberFormatRenderer.text(number: value, code: code) == shown, "\(value) in \(code)")
    }
}
