import Testing
import SheetPortCore
@testable import SheetPortCalc

/// Argument rules Excel follows that the calculation suite's `formulas__test.xlsx` caught the engine
/// missing (issue 36); each expected value is Excel's cached one there, or Microsoft's reference.
@Suite struct CalcSuiteMissTests {
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
}
