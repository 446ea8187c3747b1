import Testing
@testable import SheetPortCore

/// `NumberFormat.validate`: Excel's grammar, at most 255 characters (CONTRACTS section 8, "Limits").
@Suite struct NumberFormatValidationTests {
    @Test(arguments: [
        "General", "0", "0.00", "#,##0.00", "0%", "0.00E+00", "##0.0E+0", "# ?/?", "# ??/16", "?/8", "@", "\"text\"@",
        "mm-dd-yy", "m/d/yyyy h:mm AM/PM", "h:mm A/P", "[h]:mm:ss", "[mm]:ss.00", "dddd, mmmm d, yyyy",
        "_(* #,##0_);_(* \\(#,##0\\);_(* \"-\"_);_(@_)", "_(\"$\"* #,##0.00_);_(\"$\"* \\(#,##0.00\\);_(\"$\"* \"-\"??_);_(@_)",
        "[Red]#,##0.00;[Blue](#,##0.00)", "[Color12]0", "[<=100]0.0;[>100]#,##0", "[$€-407] #,##0.00", "[$-F800]dddd, mmmm dd, yyyy",
        "0\\ \\k\\g", "0 \"kg\"", "$#,##0.00_);($#,##0.00)", "0;-0;;@", "yyyy\"年\"m\"月\"d\"日\"", "yyyy年m月d日", "[DBNum1]General",
        "0.0*-", "#,##0 ;(#,##0)", "€#,##0.00", "ggge\"年\"m\"月\"d\"日\"", "[~buddhist]d/m/yyyy", "0.00,,\"M\"", "0;;;",
        String(repeating: "0", count: 255),
    ])
    func excelsFormatsAreValid(_ code: String) throws {
        try NumberFormat.validate(code)
    }

    @Test(arguments: [
        "", String(repeating: "0", count: 256), String(repeating: "@", count: 256), "0;0;0;@;0", "\"open", "0\\", "0_", "0*",
        "[Red", "[Purple]0", "[Color99]0", "[>abc]0", "[=>5]0", "[>1e999]0", "0 kg", "x", "0.00 USD", "[]0", "[Colour5]0",
        "0;0;0;@;", "zzz", "0 t",
    ])
    func othersAreNot(_ code: String) {
        #expect(throws: NumberFormat.InvalidCode.self, "\(code.prefix(40))") { try NumberFormat.validate(code) }
    }

    @Test func theReasonSaysWhatAndWhere() {
        do {
            try NumberFormat.validate("0.00 kg")
            Issue.record("0.00 kg is not a format Excel takes")
        } catch {
            #expect(error.reason.contains("\"k\"") && error.reason.contains("character 6"), "\(error.reason)")
        }
        do {
            try NumberFormat.validate(String(repeating: "0", count: 300))
        } catch {
            #expect(error.reason.contains("300") && error.reason.contains("255"))
        }
    }
}
