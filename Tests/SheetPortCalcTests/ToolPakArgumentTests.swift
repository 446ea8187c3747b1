import Testing
import SheetPortCore
@testable import SheetPortCalc

/// Argument rules of functions Excel took over from the Analysis ToolPak, as Excel computed them
/// in the calculation suite's formulas__test: a boolean date or bound is #VALUE!, GCD and LCM read
/// every argument before judging one, FACTDOUBLE below -1 is #NUM! before truncating.
@Suite struct ToolPakArgumentTests {
    nonisolated(unsafe) static let cells: [String: Any] = ["A1": true, "A2": false, "A3": -0.4, "A4": "ciao", "A5": 12, "A6": 18, "A7": "6",
                                       "B1": CalcValue.error(.divisionByZero)]

    static let table: [(String, CalcValue)] = [
        // A boolean date: #VALUE!, from a cell or written; a number still works
        ("EDATE(A1,0)", .error(.value)), ("EDATE(TRUE,1)", .error(.value)), ("EOMONTH(A2,0)", .error(.value)),
        ("WEEKNUM(A1,1)", .error(.value)), ("WEEKNUM(FALSE)", .error(.value)), ("EDATE(15,1)", .number(46)),
        ("EOMONTH(1,0)", .number(31)), ("WEEKNUM(10,1)", .number(2)), ("EDATE(B1,A1)", .error(.divisionByZero)),
        // RANDBETWEEN: a boolean bound is #VALUE!, whichever; equal bounds give that number
        ("RANDBETWEEN(-3,A1)", .error(.value)), ("RANDBETWEEN(FALSE,3)", .error(.value)), ("RANDBETWEEN(A5,A5)", .number(12)),
        ("RANDBETWEEN(A7,6)", .number(6)), ("RANDBETWEEN(5,4)", .error(.number)), ("RANDBETWEEN(A4,5)", .error(.value)),
        // GCD / LCM: #VALUE! anywhere wins over an earlier negative's #NUM!
        ("GCD(A3,A1)", .error(.value)), ("GCD(A3:A4)", .error(.value)), ("LCM(A3,A1)", .error(.value)), ("LCM(-1,\"x\")", .error(.value)),
        ("GCD(A3,A5)", .error(.number)), ("GCD(A5,A6)", .number(6)), ("LCM(A5,A6)", .number(36)), ("GCD(A5,A7)", .number(6)),
        ("GCD(A3,B1)", .error(.divisionByZero)), ("LCM(A5:A6)", .number(36)), ("GCD(1E+300,2)", .error(.number)),
        // FACTDOUBLE: -1 and 0 are 1, below -1 #NUM! before truncating
        ("FACTDOUBLE(-1.1)", .error(.number)), ("FACTDOUBLE(-1)", .number(1)), ("FACTDOUBLE(-0.5)", .number(1)),
        ("FACTDOUBLE(5.9)", .number(15)), ("FACTDOUBLE(A1)", .error(.value)), ("FACTDOUBLE(-1E+300)", .error(.number)),
    ]

    @Test(arguments: table) func answers(_ formula: String, _ expected: CalcValue) {
        #expect(eval(formula, Self.cells) == expected, "\(formula)")
    }
}
