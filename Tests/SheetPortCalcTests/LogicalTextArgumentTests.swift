import Testing
import SheetPortCore
@testable import SheetPortCalc

/// AND, OR and XOR over text typed as an argument, as Excel computed them (calc-suite
/// formulas__test LOGICAL!AP3:AT4 and AP21:AQ27, LOGICAL__AND_OR_XOR C46:E53): "TRUE" and "FALSE"
/// count, any other text is passed over, and with no truth value left the answer is #VALUE!.
@Suite struct LogicalTextArgumentTests {
    @Test func textThatIsNoTruthValueIsPassedOver() {
        let cases: [(String, CalcValue)] = [
            ("AND(TRUE,\"0\")", .boolean(true)), ("AND(TRUE,\"0\",#REF!)", .error(.reference)),
            ("AND(TRUE,\"ciao\",#REF!,\"0\")", .error(.reference)), ("OR(TRUE,\"0\",#REF!)", .error(.reference)),
            ("XOR(TRUE,\"0\",#REF!)", .error(.reference)), ("OR(FALSE,\"ciao\")", .boolean(false)),
            ("XOR(TRUE,\"x\",TRUE)", .boolean(false)), ("AND(\"true\",1)", .boolean(true)), ("OR(\"FALSE\",\"1\")", .boolean(false)),
            ("AND(\"0\")", .error(.value)), ("OR(\"1\")", .error(.value)), ("AND(\"\")", .error(.value)), ("AND(\"\",\"x\")", .error(.value)),
            ("AND(\"\",TRUE)", .boolean(true)), ("AND(TRUE,\"" + String(repeating: "x", count: 40_000) + "\")", .boolean(true)),
            ("AND(A1,TRUE)", .boolean(true)), ("AND(A1)", .error(.value)),
        ]
        for (formula, expected) in cases {
            #expect(eval(formula, ["A1": "0"]) == expected, "\(formula.prefix(40))")
        }
    }
}
