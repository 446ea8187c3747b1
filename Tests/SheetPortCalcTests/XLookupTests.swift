import Testing
@testable import SheetPortCalc

/// XLOOKUP and XMATCH against Excel's values (the calculation suite's XLOOKUP, XMATCH and
/// XMATCH_arrays workbooks, saved by Excel 365).
@Suite struct XLookupTests {
    /// Ascending 1,2,3,4,5,5,5,6,7,7,7,8,9 in A, descending 9,8,7,7,7,6,5,5,5,4,3,2,1 in C; B and D their labels.
    static var sorted: [String: Any] {
        var cells: [String: Any] = [:]
        let up = [1, 2, 3, 4, 5, 5, 5, 6, 7, 7, 7, 8, 9]
        for (k, x) in up.enumerated() {
            cells["A\(k + 1)"] = x
            cells["B\(k + 1)"] = "u\(k + 1)"
            cells["C\(k + 1)"] = up[up.count - 1 - k]
            cells["D\(k + 1)"] = "d\(k + 1)"
        }
        return cells
    }

    @Test(arguments: [
        // Binary search up finds the first of a run of equal values, down the last (MultipleElements).
        ("XLOOKUP(5,A:A,B:B,,-1,2)", CalcValue.text("u5")), ("XLOOKUP(7,A:A,B:B,,1,2)", .text("u9")),
        ("XLOOKUP(7.1,A:A,B:B,,-1,2)", .text("u11")), ("XLOOKUP(7.1,A:A,B:B,,1,2)", .text("u12")),
        ("XLOOKUP(4.8,A:A,B:B,,-1,2)", .text("u4")), ("XLOOKUP(4.8,A:A,B:B,,1,2)", .text("u5")),
        ("XLOOKUP(10,A:A,B:B,,1,2)", .error(.notAvailable)), ("XLOOKUP(0,A:A,B:B,,-1,2)", .error(.notAvailable)),
        ("XLOOKUP(5,C1:C13,D1:D13,,-1,-2)", .text("d9")), ("XLOOKUP(7,C1:C13,D1:D13,,1,-2)", .text("d5")),
        ("XLOOKUP(7.1,C1:C13,D1:D13,,-1,-2)", .text("d3")), ("XLOOKUP(7.1,C1:C13,D1:D13,,1,-2)", .text("d2")),
        ("XLOOKUP(4.8,C1:C13,D1:D13,,-1,-2)", .text("d10")), ("XLOOKUP(4.8,C1:C13,D1:D13,,1,-2)", .text("d9")),
        // Exact binary search over a whole column with a blank tail (ExactMatch!Y1).
        ("XLOOKUP(1,A:A,B:B,,,2)", .text("u1")), ("XLOOKUP(9,A:A,B:B,,0,2)", .text("u13")),
        // Wildcards and patterns cannot be searched by halves (Wildcards!E13).
        ("XLOOKUP(\"u*\",B1:B13,A1:A13,,2,2)", .error(.value)), ("XMATCH(\"u.\",B1:B13,3,-2)", .error(.value)),
    ])
    func binarySearch(_ formula: String, _ expected: CalcValue) {
        #expect(eval(formula, Self.sorted) == expected, "\(formula)")
    }

    /// 2, 5, 4, 5, 3, TRUE, "ala" against the labels a..g (ReturnSmaller and ReturnLarger).
    static var mixed: [String: Any] { ["A1": 2, "A2": 5, "A3": 4, "A4": 5, "A5": 3, "A6": true, "A7": "ala",
                                       "B1": "a", "B2": "b", "B3": "c", "B4": "d", "B5": "e", "B6": "f", "B7": "g"] }

    @Test(arguments: [
        // The nearest value in every type's order: numbers < text < booleans.
        ("XLOOKUP(10,A1:A7,B1:B7,,1)", CalcValue.text("g")), ("XLOOKUP(FALSE,A1:A7,B1:B7,,-1)", .text("g")),
        ("XLOOKUP(FALSE,A1:A7,B1:B7,,1)", .text("f")), ("XLOOKUP(\"qwerty\",A1:A7,B1:B7,,1)", .text("f")),
        ("XLOOKUP(1.8,A1:A7,B1:B7,,-1)", .error(.notAvailable)), ("XLOOKUP(1,A1:A7,B1:B7,,1)", .text("a")),
        // A tie goes to the first met in search order.
        ("XLOOKUP(10,A1:A5,B1:B5,,-1)", .text("b")), ("XLOOKUP(10,A1:A5,B1:B5,,-1,-1)", .text("d")),
        ("XLOOKUP(4.8,A1:A7,B1:B7,,1)", .text("b")), ("XLOOKUP(4.8,A1:A7,B1:B7,,1,-1)", .text("d")),
        // Hostile modes and shapes.
        ("XLOOKUP(2,A1:A7,B1:B7,,12)", .error(.value)), ("XLOOKUP(2,A1:A7,B1:B7,,-2)", .error(.value)),
        ("XLOOKUP(2,A1:A7,B1:B7,,0,0)", .error(.value)), ("XLOOKUP(2,A1:A7,B1:B7,,0,TRUE)", .text("a")),
        ("XLOOKUP(2,A1:A7,B1:B6)", .error(.value)), ("XLOOKUP(2,A1:A7,B1:B8)", .error(.value)),
        ("XLOOKUP(1,{1,2},{1,2,3})", .error(.value)), ("XMATCH(2,{1,2;3,4})", .error(.value)),
        ("MATCH(2,{1,2;3,4})", .error(.notAvailable)),
    ])
    func linearSearch(_ formula: String, _ expected: CalcValue) {
        #expect(eval(formula, Self.mixed) == expected, "\(formula)")
    }

    @Test func blankLookupValueFindsABlankCell() {
        // An empty lookup cell, or an omitted lookup value, finds the first (or last) blank: Excel returns
        // the blank row's value (ExactMatch!U12, Errors!N1).
        let cells: [String: Any] = ["A1": 2, "A2": 3, "A4": 5, "B1": "a", "B2": "b", "B3": "c", "B4": "d", "B9": "z",
                                    "L1": "a", "L2": "b", "M1": 1, "M2": 2, "M3": 3]
        #expect(eval("XLOOKUP(E1,A1:A9,B1:B9,\"none\")", cells) == .text("c"))
        #expect(eval("XLOOKUP(E1,A1:A9,B1:B9,\"none\",,-1)", cells) == .text("z"))
        #expect(eval("XLOOKUP(,L:L,M:M,,1,2)", cells) == .number(3))
        #expect(eval("XMATCH(E1,A1:A4)", cells) == .number(3))
        #expect(eval("XLOOKUP(E1,A1:A2,B1:B2,\"none\")", cells) == .text("none"))
    }

    @Test func regularExpressionMatchMode() {
        let cells: [String: Any] = ["A1": "Albania", "A2": "Indonesia", "A3": "India", "A4": "Germany", "A5": "Spain",
                                    "A6": "Venezuela", "A7": "Italy", "A8": "Francialy", "A9": 42]
        #expect(eval("XMATCH(\"[A-Z][a-z]+y\",A1:A8,3,1)", cells) == .number(4))
        #expect(eval("XMATCH(\"[A-Z][a-z]+y\",A1:A8,3,-1)", cells) == .number(8))
        #expect(eval("XMATCH(42,A1:A9,3)", cells) == .error(.notAvailable))
        #expect(eval("XLOOKUP(\"^I.d\",A1:A8,A1:A8,,3)", cells) == .text("Indonesia"))
        #expect(eval("XMATCH(\"(unclosed\",A1:A8,3)", cells) == .error(.value))
    }

    /// OFFSET's sizes: truncated, a fraction of one is one (ROW_COLUM OFFSET!K44:K51).
    @Test func offsetSizes() {
        var cells: [String: Any] = [:]
        for r in 1...5 { for (k, c) in ["A", "B", "C", "D"].enumerated() { cells["\(c)\(r)"] = r * 10 + k } }
        #expect(eval("SUM(OFFSET(A1,1,1,3,0.9))", cells) == .number(21 + 31 + 41))
        #expect(eval("SUM(OFFSET(A1,1,1,3,1.2))", cells) == .number(21 + 31 + 41))
        #expect(eval("SUM(OFFSET(A1,0,0,2.99,1))", cells) == .number(10 + 20))
        #expect(eval("SUM(OFFSET(A3,0,0,-0.5,1))", cells) == .number(30))
        #expect(eval("OFFSET(A1,0,0,0,1)", cells) == .error(.reference))
        #expect(eval("OFFSET(A1,0,0,1,\"x\")", cells) == .error(.value))
    }
}
