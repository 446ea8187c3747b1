import Testing
@testable import SheetPortCalc
import SheetPortCore

/// SUBTOTAL leaves out the cells of its ranges that hold SUBTOTAL or AGGREGATE formulas.
@Suite struct NestedSubtotalTests {
    /// A2:A3 and A5:A6 data with subtotals in A4 and A7; B holds data beside them.
    nonisolated(unsafe) static let cells: [String: Any] = [
        "A2": 1, "A3": 2, "A4": "=SUBTOTAL(9,A2:A3)", "A5": 4, "A6": 8, "A7": "=SUBTOTAL(109,A5:A6)",
        "B2": 10, "B4": 20, "C3": "=AGGREGATE(9,0,B2:B4)", "D1": "=SUM(A2:A3)",
    ]

    @Test(arguments: [
        ("SUBTOTAL(9,A2:A7)", 15.0), ("SUBTOTAL(109,A:A)", 15), ("SUBTOTAL(9,A2:C7)", 45), ("SUBTOTAL(2,A2:C7)", 6),
        ("SUBTOTAL(9,A4)", 0), ("SUBTOTAL(9,(A2:A4,A7))", 3), ("SUBTOTAL(9,A1:D7)", 48), ("SUM(A2:A7)", 30),
        ("SUBTOTAL(1,A2:A7)", 3.75),
    ])
    func skipsNested(_ formula: String, _ expected: Double) {
        #expect(eval(formula, Self.cells) == .number(expected), "\(formula)")
    }

    @Test(arguments: ["SUBTOTAL(205,A2:A3)", "SUBTOTAL(0,A2:A3)", "SUBTOTAL(12,A2:A3)", "SUBTOTAL(100,A2:A3)", "SUBTOTAL(112,A2:A3)", "SUBTOTAL(-9,A2:A3)"])
    func badCodes(_ formula: String) {
        #expect(eval(formula, Self.cells) == .error(.value), "\(formula)")
    }
}
