import Testing
import SheetPortCore
@testable import SheetPortCalc

/// ADDRESS with an empty sheet text, MODE.SNGL / MODE.MULT passing over empty texts among their
/// arguments and ARRAYTOTEXT's strict form of one empty cell, as Excel computed them (calc-suite
/// formulas__test LOOKUP!S3, STATISTICAL!S69, S71, TEXT!V4).
@Suite struct SheetTextAndModeTests {
    nonisolated(unsafe) static let cells: [String: Any] = ["A1": 0.1, "A2": 0.1, "A3": 0.3, "B1": "", "B2": "x", "B3": CalcValue.error(.divisionByZero)]

    static let table: [(String, CalcValue)] = [
        ("ADDRESS(1,3,4,TRUE,\"\")", .text("!C1")), ("ADDRESS(1.1,3,4,4.1,C9)", .text("!C1")), ("ADDRESS(1,3,1,FALSE,\"\")", .text("!R1C3")),
        ("ADDRESS(1,3,4,TRUE,B1)", .text("!C1")), ("ADDRESS(1,3,4,TRUE,\"My Data\")", .text("'My Data'!C1")),
        ("ADDRESS(1,3,4,TRUE,\" \")", .text("' '!C1")), ("ADDRESS(1,3,4,TRUE,B3)", .error(.divisionByZero)),
        ("MODE.SNGL(A1:A3,\"\")", .number(0.1)), ("MODE.SNGL(A1:A3,\"\",\"\")", .number(0.1)), ("INDEX(MODE.MULT(A1:A3,\"\"),1)", .number(0.1)),
        ("MODE.SNGL(A1:A3,\"x\")", .error(.value)), ("MODE.SNGL(A1:A3,\" \")", .error(.value)), ("MODE.SNGL(\"\")", .error(.notAvailable)),
        ("MODE.SNGL(A1:A3,B3)", .error(.divisionByZero)), ("MODE.SNGL(A1:A3,B1)", .number(0.1)), ("MODE.MULT(\"\",\"x\")", .error(.value)),
        ("ARRAYTOTEXT(C9,1)", .error(.value)), ("ARRAYTOTEXT(C9)", .text("")), ("ARRAYTOTEXT(B1,1)", .text("{\"\"}")),
        ("ARRAYTOTEXT(C9:D9,1)", .text("{,}")), ("ARRAYTOTEXT(A1:A2,1)", .text("{0.1;0.1}")), ("ARRAYTOTEXT(B3,1)", .text("{#DIV/0!}")),
    ]

    @Test(arguments: table) func answers(_ formula: String, _ expected: CalcValue) {
        #expect(eval(formula, Self.cells) == expected, "\(formula)")
    }
}
