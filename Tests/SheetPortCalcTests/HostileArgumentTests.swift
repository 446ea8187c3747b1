import Testing
import SheetPortCore
@testable import SheetPortCalc

/// Arguments the differential test (PeerDifferentialTests) threw at the functions: numbers far
/// past Int's range (1E+300) used to trap the Int conversion and end the process; each now
/// answers an error, as Excel does. DATEVALUE and TIMEVALUE take date text only, not any
/// number written as text (Microsoft: "If the date_text argument is not a date ..., returns #VALUE!").
@Suite struct HostileArgumentTests {
    @Test(arguments: [
        "DATE(1E+300,1,1)", "DATE(2024,1E+300,1)", "YEAR(1E+300)", "WEEKDAY(1E+300)", "WEEKNUM(1E+300)", "EDATE(1,1E+300)",
        "WORKDAY(1E+300,1)", "LARGE(B1:B3,1E+300)", "SMALL(B1:B3,-1E+300)", "LEFT(\"abc\",1E+300)", "MID(\"abc\",1E+300,1)",
        "REPT(\"a\",1E+300)", "CHAR(1E+300)", "ISEVEN(1E+300)", "FIXED(1,1E+300)", "FIXED(1,1E+9)", "DOLLAR(1,1E+9)", "FIXED(1,128)", "MATCH(1,B1:B3,1E+300)", "SUBSTITUTE(\"a\",\"a\",\"b\",1E+300)",
    ])
    func hugeArgumentsAnswerAnErrorInsteadOfTrapping(_ formula: String) {
        let value = eval(formula, ["B1": 3, "B2": 1, "B3": 2])
        guard case .error = value else {
            Issue.record("\(formula) = \(value), not an error")
            return
        }
    }

    /// FIXED and DOLLAR take Excel's 127 decimals at most: 10^9 of them used to build a 1 GB format code.
    @Test func fixedTakesAtMost127Decimals() {
        #expect(eval("LEN(FIXED(1,127,TRUE))") == .number(129))
        #expect(eval("FIXED(1,1E+9)") == .error(.value))
    }

    @Test func largeAndSmallPastTheirValuesAreNum() {
        #expect(eval("LARGE(B1:B3,1E+300)", ["B1": 3, "B2": 1, "B3": 2]) == .error(.number))
        #expect(eval("SMALL(B1:B3,0)", ["B1": 3, "B2": 1, "B3": 2]) == .error(.number))
        #expect(eval("LARGE(B1:B3,2.5)", ["B1": 3, "B2": 1, "B3": 2]) == .number(1))
    }

    @Test func dateValueTakesDateTextOnly() {
        #expect(eval("DATEVALUE(\"10\")") == .error(.value))
        #expect(eval("DATEVALUE(\" 3 \")") == .error(.value))
        #expect(eval("DATEVALUE(60)") == .error(.value))
        #expect(eval("TIMEVALUE(\"3\")") == .error(.value))
        #expect(eval("DATEVALUE(\" 1/31/2024 \")") == .number(45322))
        #expect(eval("DATEVALUE(\"2/29/1900\")") == .number(60)) // Excel's 1900-02-29
        #expect(eval("TIMEVALUE(\"6:00 PM\")") == .number(0.75))
    }

    /// A date text is read month first; one that is a date only day first is read so (Excel
    /// computed `"29/02/1900"` and `"26/08/1987"` so in calc-suite formulas__test); a text that is
    /// no date either way stays `#VALUE!`.
    @Test func dateTextsOnlyDayFirstAreReadDayFirst() {
        #expect(eval("DATEVALUE(\"2/3/2023\")") == .number(44960), "ambiguous: month first")
        #expect(eval("DATEVALUE(\"31/12/2020\")") == .number(44196))
        #expect(eval("DATEVALUE(\"29/02/1900\")") == .number(60), "Excel's 1900-02-29, day first")
        #expect(eval("DATEVALUE(\"13/01/1900\")") == .number(13))
        #expect(eval("DATEVALUE(\"26/08/87\")") == .number(32015))
        #expect(eval("\"29/02/1900\"+0") == .number(60))
        #expect(eval("AVERAGE(1,\"29/02/1900\")") == .number(30.5))
        for text in ["30/2/2010", "13/13/2020", "29/02/1901", "0/13/2020", "32/1/2020", "13/0/2020", "-13/1/2020",
                     "99999999999999999999/1/2020", "13/1/99999", "40-2-2023", "13//2020", "13/1/2020/1"] {
            #expect(eval("DATEVALUE(\"\(text)\")") == .error(.value), "\(text)")
        }
        #expect(eval("DATEVALUE(\"29/02/1900\")", system: .excel1904) == .error(.value), "1900 is before the 1904 system")
    }

    /// Excel shows serial 60 as the 29 February 1900 it counts, and weekdays of the serials
    /// before it by its own count (serial 1, 1900-01-01, a Sunday; serial 0 a Saturday).
    @Test func textShowsExcelsPhantomLeapDay() {
        #expect(eval("TEXT(60,\"yyyy-mm-dd\")") == .text("1900-02-29"))
        #expect(eval("TEXT(60.5,\"dddd d mmm yyyy hh:mm\")") == .text("Wednesday 29 Feb 1900 12:00"))
        #expect(eval("TEXT(59,\"ddd yyyy-mm-dd\")") == .text("Tue 1900-02-28"))
        #expect(eval("TEXT(61,\"dddd yyyy-mm-dd\")") == .text("Thursday 1900-03-01"))
        #expect(eval("TEXT(1,\"dddd\")") == .text("Sunday"))
        #expect(eval("TEXT(0,\"dddd\")") == .text("Saturday"))
        #expect(eval("TEXT(DATE(1900,2,29),\"d/m/yyyy\")") == .text("29/2/1900"))
        #expect(eval("TEXT(60,\"yyyy-mm-dd\")", system: .excel1904) == .text("1904-03-01"))
    }

    /// An error where a reference is wanted passes on, as everywhere else.
    @Test func referenceErrorsPassThroughReferenceFunctions() {
        #expect(eval("OFFSET(#REF!,-1,0)") == .error(.reference))
        #expect(eval("OFFSET(#N/A,1,1)") == .error(.notAvailable))
        #expect(eval("COUNTBLANK(#REF!)") == .error(.reference))
        #expect(eval("OFFSET(1,1,1)") == .error(.value))
    }
}
