import Testing
@testable import SheetPortCalc

@Suite struct SmokeTests {
    @Test func arithmetic() {
        #expect(eval("1+2*3") == .number(7))
        #expect(eval("-2^2") == .number(4))
        #expect(eval("2^3^2") == .number(64))
        #expect(eval("50%") == .number(0.5))
        #expect(eval("\"a\"&1") == .text("a1"))
        #expect(eval("1/0") == .error(.divisionByZero))
        #expect(eval("SUM(A1:A3)", ["A1": 1, "A2": "x", "A3": 2]) == .number(3))
        #expect(eval("A1+A2", ["A1": " 12 ", "A2": "1,234"]) == .number(1246))
        #expect(eval("0.1+0.2=0.3") == .boolean(true))
    }
}
