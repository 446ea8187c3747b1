import Testing
@testable import SheetPortCalc
import SheetPortCore

/// SUBTOTAL and AGGREGATE on the examples of Microsoft's "SUBTOTAL function" and "AGGREGATE
/// function" articles, nested totals passed over, and hostile function numbers and options.
@Suite struct SubtotalAggregateTests {
    /// The AGGREGATE article's table: A1:A11 and B1:B11.
    nonisolated(unsafe) static let aggregateData: [String: Any] = {
        let a: [CalcValue] = [.error(.divisionByZero), .number(72), .number(30), .error(.number), .number(31), .number(96),
                              .number(32), .number(81), .number(33), .number(53), .number(34)]
        let b: [Double] = [82, 65, 95, 63, 53, 71, 55, 83, 100, 91, 89]
        var cells: [String: Any] = [:]
        for k in 0..<11 { cells["A\(k + 1)"] = a[k]; cells["B\(k + 1)"] = b[k] }
        return cells
    }()

    @Test(arguments: [("AGGREGATE(4,6,A1:A11)", CalcValue.number(96)), ("AGGREGATE(14,6,A1:A11,3)", .number(72)),
                      ("AGGREGATE(15,6,A1:A11)", .error(.value)), ("AGGREGATE(12,6,A1:A11,B1:B11)", .number(68)),
                      ("MAX(A1:A2)", .error(.divisionByZero)),
                      // Errors are only passed over with options 2, 3, 6 and 7.
                      ("AGGREGATE(4,4,A1:A11)", .error(.divisionByZero)), ("AGGREGATE(4,0,A1:A11)", .error(.divisionByZero)),
                      ("AGGREGATE(4,3,A1:A11)", .number(96)), ("AGGREGATE(4,7,A1:A11)", .number(96)),
                      ("AGGREGATE(4,,B1:B11)", .number(100))])
    func aggregateArticle(_ formula: String, _ expected: CalcValue) {
        #expect(eval(formula, Self.aggregateData) == expected, "\(formula)")
    }

    /// The SUBTOTAL article's data (120, 10, 150, 23 in A2:A5) with a subtotal under it in A6:
    /// "nested subtotals are ignored to avoid double counting"; AGGREGATE passes over them with
    /// options 0-3 and counts them with 4-7.
    nonisolated(unsafe) static let nested: [String: Any] = ["A2": 120, "A3": 10, "A4": 150, "A5": 23, "A6": "=SUBTOTAL(9,A2:A5)",
                                                            "B2": "=AGGREGATE(9,4,A2:A5)", "B3": 5]

    @Test(arguments: [("SUBTOTAL(9,A2:A5)", CalcValue.number(303)), ("SUBTOTAL(1,A2:A5)", .number(75.75)),
                      ("SUBTOTAL(9,A2:A6)", .number(303)), ("SUM(A2:A6)", .number(606)), ("SUBTOTAL(109,A2:A6)", .number(303)),
                      ("SUBTOTAL(2,A2:A6)", .number(4)), ("SUBTOTAL(3,A2:A6)", .number(4)), ("SUBTOTAL(4,A2:A6)", .number(150)),
                      ("SUBTOTAL(9,A2:B6)", .number(308)), ("SUBTOTAL(9,A2:A6,B2:B3)", .number(308)),
                      ("AGGREGATE(9,0,A2:A6)", .number(303)), ("AGGREGATE(9,3,A2:B6)", .number(308)),
                      ("AGGREGATE(9,4,A2:A6)", .number(606)), ("AGGREGATE(9,6,A2:B6)", .number(914)),
                      ("AGGREGATE(14,1,A2:A6,1)", .number(150)), ("AGGREGATE(14,4,A2:A6,1)", .number(303)),
                      // A single cell holding a subtotal is passed over too.
                      ("SUBTOTAL(9,A2:A5,A6)", .number(303)), ("SUBTOTAL(9,A6,1)", .number(1))])
    func nestedTotalsAreNotCountedTwice(_ formula: String, _ expected: CalcValue) {
        #expect(eval(formula, Self.nested) == expected, "\(formula)")
    }

    /// Function numbers and options outside Excel's are `#VALUE!`, never another function.
    @Test(arguments: ["SUBTOTAL(0,A2:A5)", "SUBTOTAL(12,A2:A5)", "SUBTOTAL(100,A2:A5)", "SUBTOTAL(112,A2:A5)",
                      "SUBTOTAL(201,A2:A5)", "SUBTOTAL(-9,A2:A5)", "SUBTOTAL(1E+300,A2:A5)", "SUBTOTAL(\"x\",A2:A5)",
                      "AGGREGATE(0,0,A2:A5)", "AGGREGATE(20,0,A2:A5)", "AGGREGATE(9,8,A2:A5)", "AGGREGATE(9,-1,A2:A5)",
                      "AGGREGATE(109,0,A2:A5)", "AGGREGATE(9,\"x\",A2:A5)", "AGGREGATE(14,0,A2:A5)"])
    func hostileCodes(_ formula: String) {
        let v = eval(formula, Self.nested)
        #expect(v == .error(.value) || (formula.contains("1E+300") && v == .error(.number)), "\(formula) = \(v)")
    }
}
