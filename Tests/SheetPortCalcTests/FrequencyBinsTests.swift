import Testing
import SheetPortCore
@testable import SheetPortCalc

/// FREQUENCY whose bins hold no number counts against one bin at 0, as Excel computed it
/// (calc-suite formulas__test STATISTICAL!W43, EXTRA!J50:J51); bins with numbers keep skipping
/// blanks and text.
@Suite struct FrequencyBinsTests {
    nonisolated(unsafe) static let cells: [String: Any] = ["A1": 1, "A2": 2, "A3": 3, "A4": 0, "A5": -1, "B1": "text", "B3": 2,
                                                           "C1": CalcValue.error(.divisionByZero)]

    static let table: [(String, CalcValue)] = [
        ("INDEX(FREQUENCY(A1:A5,H1),1)", .number(2)), ("INDEX(FREQUENCY(A1:A5,H1),2)", .number(3)), ("ROWS(FREQUENCY(A1:A5,H1:H9))", .number(2)),
        ("INDEX(FREQUENCY(A1:A5,B1:B2),1)", .number(2)), ("INDEX(FREQUENCY(A1:A3,H1:H4),1)", .number(0)), ("INDEX(FREQUENCY(A1:A3,H1:H4),2)", .number(3)),
        ("ROWS(FREQUENCY(A1:A5,B1:B3))", .number(2)), ("INDEX(FREQUENCY(A1:A5,B1:B3),1)", .number(4)), ("INDEX(FREQUENCY(H1:H3,H1),1)", .number(0)),
        ("FREQUENCY(A1:A5,C1)", .error(.divisionByZero)),
    ]

    @Test(arguments: table) func answers(_ formula: String, _ expected: CalcValue) {
        #expect(eval(formula, Self.cells) == expected, "\(formula)")
    }
}
