import Testing
@testable import SheetPortCore

/// Date detection from number format codes.
@Suite struct NumberFormatTests {
    @Test(arguments: ["yyyy-mm-dd", "d-mmm-yy", "h:mm AM/PM", "[h]:mm:ss", "[mm]:ss", "mmm-yy",
                      "yyyy-mm-dd hh:mm:ss.000", "[$-409]d/m/yyyy", "[Red]dd/mm/yyyy", "dd\"th\" mmm",
                      "[$-F800]dddd\\,\\ mmmm\\ dd\\,\\ yyyy", "ss.0", "DD/MM/YYYY"])
    func datesAreDates(_ code: String) {
        #expect(NumberFormat.isDateFormat(code))
    }

    @Test(arguments: ["General", "0.00", "\"day \"0", "[Red]0.00", "\\d0", "0.00;[Red]-0.00",
                      "0.00E+00", "#,##0 \"m\"", "[$USD] #,##0", "_-* #,##0_-", "@", "0;dd/mm/yy",
                      "*d0", "[>100]0;0", "[DBNum1]0"])
    func othersAreNot(_ code: String) {
        #expect(!NumberFormat.isDateFormat(code))
    }

    @Test func builtInIds() {
        for id in [14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47, 27, 36, 50, 58] {
            #expect(NumberFormat.isBuiltInDate(id), "id \(id)")
        }
        for id in [0, 1, 2, 9, 10, 11, 37, 44, 48, 49, 164] {
            #expect(!NumberFormat.isBuiltInDate(id), "id \(id)")
        }
        #expect(NumberFormat.builtInCode(14) == "mm-dd-yy")
        #expect(NumberFormat.builtInCode(49) == "@")
    }
}
