import Testing
import SheetPortCore
@testable import SheetPortCalc

/// IRR over values holding an error is #VALUE!, whichever error; an error as the guess passes on
/// (calc-suite formulas__test FINANCIAL!Z26:AF27).
@Suite struct CashFlowErrorTests {
    @Test func anErrorAmongTheValuesIsValue() {
        let cases: [(String, CalcValue)] = [
            ("IRR({-7,2,-1,4,-3;7,2,-1,4,#N/A})", .error(.value)), ("IRR({-7,2,-1,4,-3;7,2,-1,4,#DIV/0!})", .error(.value)),
            ("IRR(A1:A4)", .error(.value)), ("IRR({-7,2,-1,4,-3,7,2,1,3},#N/A)", .error(.notAvailable)),
            ("IRR({-7,2,-1,4,-3,7,2,1,3},A4)", .error(.reference)), ("IRR(A1:A3)", eval("IRR({-100,50,60})")),
            ("IRR(MOD(1,0))", .error(.divisionByZero)), ("IRR(#N/A,1)", .error(.notAvailable)),
        ]
        let cells: [String: Any] = ["A1": -100, "A2": 50, "A3": 60, "A4": CalcValue.error(.reference)]
        for (formula, expected) in cases { #expect(eval(formula, cells) == expected, "\(formula)") }
    }
}
