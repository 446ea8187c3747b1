import Testing
import SheetPortCore
@testable import SheetPortCalc

/// Argument rules Excel follows that the calculation suite's `formulas__test.xlsx` caught the engine
/// missing (issue 36); each expected value is Excel's cached one there, or Microsoft's reference.
@Suite struct CalcSuiteMissTests {
    /// DATEDIF "YD" moves the end's month and day into the start's year (the next one when they come
    /// earlier): the leap day counted is that year's, 1900's Feb 29 included ('DATE & TIME'!R4).
    @Test func datedifYearDaysCountInTheStartsYear() {
        #expect(eval("DATEDIF(8,1987,\"YD\")") == .number(153))
        #expect(eval("DATEDIF(DATE(1988,6,22),DATE(2012,5,11),\"YD\")") == .number(323))
        #expect(eval("DATEDIF(DATE(2020,1,1),DATE(2020,12,31),\"YD\")") == .number(365))
        #expect(eval("DATEDIF(DATE(2019,1,8),DATE(2019,1,8),\"yd\")") == .number(0))
        #expect(eval("DATEDIF(5,1,\"YD\")") == .error(.number))
        #expect(eval("DATEDIF(-1,5,\"YD\")") == .error(.number))
        #expect(eval("DATEDIF(\"x\",5,\"YD\")") == .error(.value))
        #expect(eval("DATEDIF(1,5,#DIV/0!)") == .error(.divisionByZero))
    }

    /// QUARTILE's negative quart is #NUM! before it is truncated (COMPATIBILITY!U32: QUARTILE(F32:G32,-0.1)
    /// is #NUM!, not the minimum), where 4.5 reads as 4 (STATISTICAL__PERCENTIL_QUARTIL G9).
    @Test func quartileRefusesAQuartOutOfRangeBeforeTruncating() {
        for name in ["QUARTILE", "QUARTILE.INC"] {
            #expect(eval("\(name)({2.2,-0.1},-0.1)") == .error(.number), "\(name)")
            #expect(eval("\(name)({1,2,3,4,5},4.5)") == .number(5), "\(name)")
            #expect(eval("\(name)({1,2,3,4,5},5)") == .error(.number), "\(name)")
            #expect(eval("\(name)({1,2,3,4,5},3.9)") == .number(4), "\(name)")
            #expect(eval("\(name)({1,2,3,4,5},0.9)") == .number(1), "\(name)")
            #expect(eval("\(name)({1,2,3},\"x\")") == .error(.value), "\(name)")
            #expect(eval("\(name)({1,2,3},-1E+308)") == .error(.number), "\(name)")
        }
    }

    /// T.DIST's density at 0 degrees of freedom divides by zero; the cumulative form, and negative
    /// degrees, are #NUM! (STATISTICAL!R102, U102, W102).
    @Test func tDistDensityAtZeroDegreesIsDivisionByZero() {
        #expect(eval("T.DIST(0,,)") == .error(.divisionByZero))
        #expect(eval("T.DIST(0,0.7,FALSE)") == .error(.divisionByZero))
        #expect(eval("T.DIST(0,0,TRUE)") == .error(.number))
        #expect(eval("T.DIST(0,-1,FALSE)") == .error(.number))
        #expect(eval("T.DIST(1,\"x\",FALSE)") == .error(.value))
        #expect(close(eval("T.DIST(5,10,FALSE)"), 3.960010564637988E-4))
    }

    /// Z.TEST of one value is #DIV/0! even with sigma given (STATISTICAL!V121).
    @Test func zTestOfOneValueIsDivisionByZero() {
        #expect(eval("Z.TEST(A1:C1,B1,2)", ["A1": 4, "C1": "13/01/1900"]) == .error(.divisionByZero))
        #expect(eval("Z.TEST({4},0,2)") == .error(.divisionByZero))
        #expect(close(eval("Z.TEST({2,4},1)"), 0.022750131948179191))
        #expect(eval("Z.TEST({2,4},1,0)") == .error(.number))
        #expect(eval("Z.TEST({2,4},1,-2)") == .error(.number))
    }

    /// MODE.MULT refuses an argument left out, where it passes over an empty text (STATISTICAL!AG69, S69).
    @Test func modeMultRefusesAMissingArgument() {
        #expect(eval("MODE.MULT({1,1,2},)") == .error(.value))
        #expect(eval("MODE.MULT(,{1,1,2})") == .error(.value))
        #expect(eval("MODE.MULT({1,1,2},\"\")") == .number(1))
        #expect(eval("MODE.MULT({1,2,3})") == .error(.notAvailable))
    }

    /// SUMPRODUCT of arrays of other sizes is #VALUE!, but an error the arrays hold comes first
    /// ('MATH & TRIG'!AE75:AF75).
    @Test func sumproductMismatchedSizesGiveAHeldErrorFirst() {
        let cells: [String: Any] = ["A1": CalcValue.error(.number), "B1": CalcValue.error(.reference), "C1": 1, "D1": 2, "E1": 3,
                                    "F1": CalcValue.error(.value)]
        #expect(eval("SUMPRODUCT(A1:B1,C1:D1,C1:E1)", cells) == .error(.number))
        #expect(eval("SUMPRODUCT(B1:C1,C1:E1,D1:E1)", cells) == .error(.reference))
        #expect(eval("SUMPRODUCT(C1:D1,C1:E1)", cells) == .error(.value))
        #expect(eval("SUMPRODUCT(C1:D1,D1:E1)", cells) == .number(8))
        #expect(eval("SUMPRODUCT(A1:B1,C1:D1)", cells) == .error(.number), "same sizes: the first error met")
        #expect(eval("SUMPRODUCT(C1:D1,\"x\")", cells) == .error(.value))
    }

    /// BESSELI and BESSELJ of 0 are 0 at every order past 0, however large (ENGINEERING!R3:R4).
    @Test func besselIAndJVanishAtZeroForAnyOrder() {
        #expect(eval("BESSELI(0,10000000)") == .number(0))
        #expect(eval("BESSELJ(0,10000000)") == .number(0))
        #expect(eval("BESSELJ(0,1)") == .number(0))
        #expect(eval("BESSELI(0,0)") == .number(1))
        #expect(eval("BESSELI(0,-1)") == .error(.number))
        #expect(eval("BESSELK(0,10000000)") == .error(.number))
        #expect(eval("BESSELY(0,1)") == .error(.number))
        #expect(eval("BESSELJ(1,10000000)") == .error(.number))
        #expect(eval("BESSELI(TRUE,1)") == .error(.value))
    }

    /// REGEXEXTRACT's mode 2 with a pattern holding no group is #VALUE!; no match stays #N/A (EXTRA!K3).
    @Test func regexExtractGroupsOfAPatternWithoutGroups() {
        #expect(eval("REGEXEXTRACT(\"Sonia Rees    (378) 555-4197\",\"[0-9()]+ [0-9-]+\",2)") == .error(.value))
        #expect(eval("REGEXEXTRACT(\"Sonia Rees    (378) 555-4197\",\"([0-9()]+) [0-9-]+\",2)") == .text("(378)"))
        #expect(eval("REGEXEXTRACT(\"abc\",\"x\",2)") == .error(.notAvailable))
        #expect(eval("REGEXEXTRACT(\"abc\",\"b\",3)") == .error(.value))
    }

    /// CONVERT takes the first reading of a unit name whose quantity the other unit shares: "pc" is
    /// a parsec among lengths and a picocalorie among energies (EXTRA!AN59).
    @Test func convertReadsAPrefixWhenTheWholeNameDoesNotFit() {
        #expect(close(eval("CONVERT(1,\"pc\",\"J\")"), 4.184e-12))
        #expect(close(eval("CONVERT(1,\"pc\",\"m\")"), 3.08567758128155e16))
        #expect(close(eval("CONVERT(1,\"J\",\"pc\")"), 1 / 4.184e-12))
        #expect(eval("CONVERT(1,\"pc\",\"s\")") == .error(.notAvailable))
        #expect(eval("CONVERT(1,\"pc\",\"\")") == .error(.notAvailable))
        #expect(eval("CONVERT(TRUE,\"pc\",\"J\")") == .error(.value))
    }

    /// TEXT refuses a format code that leaves a quote open; an escaped quote opens none (EXTRA!A4).
    @Test func textRefusesAQuoteLeftOpen() {
        #expect(eval("TEXT(1.23,\"#\"\"°F\"\"\"\"\")") == .error(.value))
        #expect(eval("TEXT(1.23,\"#\"\"°F\"\"\")") == .text("1°F"))
        #expect(eval("TEXT(1,\"0\\\"\"\")") == .text("1\""))
        #expect(eval("TEXT(1,\"\"\"\")") == .error(.value))
        #expect(eval("TEXT(\"abc\",\"@\"\"\")") == .error(.value))
    }

    /// A number's text is the double's own 15 digits, not those of a scaling's rounding: IMCSCH and
    /// IMSINH wrote …934 and …656 where the engine wrote …935 and …657 (ENGINEERING!T37, U49).
    @Test func numberTextIsTheDoublesOwnFifteenDigits() {
        let cases: [(String, CalcValue)] = [
            ("0.08187495581009345&\"\"", .text("0.0818749558100934")),
            ("-0.08187495581009345&\"\"", .text("-0.0818749558100934")),
            ("4.168906959966565&\"\"", .text("4.16890695996656")),
            ("IMSINH(\"-3+2i\")", .text("4.16890695996656+9.15449914691143i")),
            ("IMCSCH(\"3.1+2j\")", .text("-0.0373189117262454-0.0818749558100934j")),
            ("2/3&\"\"", .text("0.666666666666667")),
            ("0.5&\"\"", .text("0.5")),
            ("0.1+0.2&\"\"", .text("0.3")),
            ("123456789012345.6&\"\"", .text("123456789012346")),
            ("99999999999999.99&\"\"", .text("100000000000000")),
            ("0.000000999999999999999999&\"\"", .text("0.000001")),
        ]
        for (formula, expected) in cases { #expect(eval(formula) == expected, "\(formula)") }
    }
}
