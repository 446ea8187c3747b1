import Testing
@testable import SheetPortCalc
import SheetPortCore

/// MMULT, MINVERSE, MDETERM, CHOOSECOLS, CHOOSEROWS, CELL and HYPERLINK over hostile values: empty cells,
/// text numbers, errors, booleans, huge and tiny numbers, singular, non-square and mismatched matrices.
@Suite struct MatrixFunctionTests {
    nonisolated(unsafe) static let cells: [String: Any] = [
        "A1": 1, "B1": 2, "A2": 3, "B2": 4,                       // det -2, inverse {-2,1;1.5,-0.5}
        "C1": 1, "D1": 2, "C2": 2, "D2": 4,                       // singular
        "E1": "3", "E2": 1,                                       // a text number in a range
        "F1": 1, "G1": 2, "F2": 3,                                // G2 empty
        "H1": CalcValue.error(.divisionByZero), "I1": 1, "H2": 2, "I2": 3,
        "J1": true, "K1": 1, "J2": 0, "K2": 1,                    // a boolean
        "L1": 1e308, "L2": 1e-200, "M1": "x", "N7": "label",
    ]

    static let table: [(String, CalcValue)] = [
        // MMULT: shapes, element types, overflow
        ("MMULT({1,2},{3;4})", .number(11)), ("INDEX(MMULT(A1:B2,A1:B2),2,1)", .number(15)),
        ("SUM(MMULT(A1:B2,A1:B2))", .number(54)), ("ROWS(MMULT(A1:A2,A1:B1))", .number(2)),
        ("COLUMNS(MMULT(A1:A2,A1:B1))", .number(2)), ("INDEX(MMULT(A1:A2,A1:B1),2,2)", .number(6)),
        ("MMULT(A1:B2,A1:A1)", .error(.value)), ("MMULT(A1:B2,{1,2,3})", .error(.value)),
        ("MMULT(E1:E2,{1,1})", .error(.value)), ("MMULT(F1:G2,A1:B2)", .error(.value)), ("MMULT(J1:K2,A1:B2)", .error(.value)),
        ("MMULT(H1:I2,A1:B2)", .error(.divisionByZero)), ("MMULT(L1,{10})", .error(.number)), ("MMULT(2,3)", .number(6)),
        ("MMULT(\"2\",3)", .error(.value)), ("MMULT(Z1:Z2,{1,2})", .error(.value)), ("MMULT(A:A,A:A)", .error(.value)),
        ("MMULT(A1:XFD1048576,A1)", .error(.value)), ("MMULT(L2,L2)", .number(0)),
        // MDETERM: LU with partial pivoting, as Excel (its {1..9} determinant is 6.66E-16, not 0)
        ("MDETERM(A1:B2)", .number(-2)), ("MDETERM(A1:B2)=-2", .boolean(true)), ("INDEX(MINVERSE(A1:B2),1,1)=-2", .boolean(true)), ("MDETERM(C1:D2)", .number(0)), ("MDETERM({1,2,3;4,5,6;7,8,9})", .number(6.661338147750939e-16)),
        ("MDETERM({2})", .number(2)), ("MDETERM(A1)", .number(1)), ("MDETERM(A1:B1)", .error(.value)), ("MDETERM(F1:G2)", .error(.value)),
        ("MDETERM(E1:E2)", .error(.value)), ("MDETERM(J1:K2)", .error(.value)), ("MDETERM(H1:I2)", .error(.divisionByZero)),
        ("MDETERM(Z1)", .error(.value)), ("MDETERM({\"1\"})", .error(.value)), ("MDETERM({1e200,0;0,1e200})", .error(.number)),
        ("MDETERM({1e-200,0;0,1e-200})", .number(0)), ("MDETERM(A:B)", .error(.value)),
        // MINVERSE: singular is #NUM!
        ("INDEX(MINVERSE(A1:B2),1,1)", .number(-2)), ("INDEX(MINVERSE(A1:B2),2,1)", .number(1.5)), ("INDEX(MINVERSE(A1:B2),2,2)", .number(-0.5)),
        ("MINVERSE(C1:D2)", .error(.number)), ("MINVERSE({0})", .error(.number)), ("MINVERSE({4})", .number(0.25)),
        ("MINVERSE(A1:B1)", .error(.value)), ("MINVERSE(F1:G2)", .error(.value)), ("MINVERSE(J1:K2)", .error(.value)),
        ("MINVERSE(H1:I2)", .error(.divisionByZero)), ("SUM(MMULT(A1:B2,MINVERSE(A1:B2)))", .number(2)),
        // CHOOSECOLS / CHOOSEROWS: 1-based, negative from the end, zero or too far is #VALUE!
        ("INDEX(CHOOSECOLS(A1:B2,2),2,1)", .number(4)), ("INDEX(CHOOSECOLS(A1:B2,-1),1,1)", .number(2)),
        ("COLUMNS(CHOOSECOLS(A1:B2,1,1,2))", .number(3)), ("SUM(CHOOSECOLS(A1:B2,{2,1}))", .number(10)),
        ("CHOOSECOLS(A1:B2,0)", .error(.value)), ("CHOOSECOLS(A1:B2,3)", .error(.value)), ("CHOOSECOLS(A1:B2,-3)", .error(.value)),
        ("INDEX(CHOOSECOLS(A1:B2,\"2\"),1,1)", .number(2)), ("CHOOSECOLS(A1:B2,\"x\")", .error(.value)),
        ("CHOOSECOLS(A1:B2,H1)", .error(.divisionByZero)), ("CHOOSECOLS(A1:B2,1e300)", .error(.value)),
        ("ROWS(CHOOSECOLS(A1:Z2,26))", .number(2)), ("COUNTBLANK(Z1:Z2)+SUM(CHOOSECOLS(A1:Z2,26))", .number(2)),
        ("INDEX(CHOOSEROWS(A1:B2,-1),1,2)", .number(4)), ("ROWS(CHOOSEROWS(A1:B2,2,2,1))", .number(3)),
        ("CHOOSEROWS(A1:B2,0)", .error(.value)), ("CHOOSEROWS({1;2},3)", .error(.value)), ("CHOOSEROWS(5,1)", .number(5)),
        ("ROWS(CHOOSEROWS(A:A,1))", .number(1)),
        // A block of indexes is #VALUE!; a row or a column of them picks
        ("CHOOSECOLS(A1:B2,A1:B2)", .error(.value)), ("CHOOSECOLS(A1:B2,{1,2;1,2})", .error(.value)), ("CHOOSEROWS(A1:B2,1,A1:B2)", .error(.value)),
        ("COLUMNS(CHOOSECOLS(A1:B2,A1:B1))", .number(2)), ("ROWS(CHOOSEROWS(A1:B2,K1:K2))", .number(2)), ("ROWS(CHOOSEROWS(A1:B2,{1;2;1}))", .number(3)),
        // CELL: the deterministic information types, "width" of a sheet without a layout (the
        // default 8); the rest is #VALUE!, as is CELL without a reference when no cell is selected
        ("CELL(\"row\",B7)", .number(7)), ("CELL(\"ROW\",B7:C9)", .number(7)), ("CELL(\"col\",B7)", .number(2)),
        ("CELL(\"address\",B7)", .text("$B$7")), ("CELL(\"address\",XFD1048576)", .text("$XFD$1048576")),
        ("CELL(\"contents\",A1)", .number(1)), ("CELL(\"contents\",M1)", .text("x")), ("CELL(\"contents\",H1)", .error(.divisionByZero)),
        ("CELL(\"type\",Z9)", .text("b")), ("CELL(\"type\",N7)", .text("l")), ("CELL(\"type\",A1)", .text("v")), ("CELL(\"type\",J1)", .text("v")),
        ("INDEX(CELL(\"width\",A1),1,1)", .number(8)), ("INDEX(CELL(\"width\",A1),1,2)", .boolean(true)),
        ("CELL(\"row\")", .error(.value)), ("CELL(\"row\",5)", .error(.value)), ("CELL(\"width\",5)", .error(.value)),
        ("CELL(1,A1)", .error(.value)), ("CELL(H1,A1)", .error(.divisionByZero)), ("CELL(\"\",A1)", .error(.value)),
        // HYPERLINK shows its friendly name, else the link
        ("HYPERLINK(\"https://example.com\")", .text("https://example.com")), ("HYPERLINK(\"x\",5)", .number(5)),
        ("HYPERLINK(\"x\",M1)", .text("x")), ("HYPERLINK(H1)", .error(.divisionByZero)), ("HYPERLINK(1)", .text("1")),
        ("HYPERLINK(\"x\",H1)", .error(.divisionByZero)),
    ]

    @Test(arguments: table) func evaluates(_ formula: String, _ expected: CalcValue) {
        let v = eval(formula, Self.cells)
        if case .number(let x) = expected {
            #expect(close(v, x), "\(formula) = \(v), expected \(expected)")
        } else {
            #expect(v == expected, "\(formula) = \(v), expected \(expected)")
        }
    }

    @Test func cellAddressOfAnotherSheetNamesIt() {
        let e = CalcEngine(clock: .fixed(unixTime: 0, utcOffsetSeconds: 0), randomSeed: 1)
        _ = e.addSheet("Sheet1")
        _ = e.addSheet("My Data")
        e.setFormula("CELL(\"address\",'My Data'!C3)", at: CellReference("A1")!, sheet: 0)
        e.recalculate()
        #expect(e.value(at: CellReference("A1")!, sheet: 0) == .text("'My Data'!$C$3"))
    }

    @Test func matrixResultsFillALegacyArrayRange() {
        let e = CalcEngine(clock: .fixed(unixTime: 0, utcOffsetSeconds: 0), randomSeed: 1)
        let s = e.addSheet("Sheet1")
        for (ref, x) in [("A1", 1.0), ("B1", 2), ("A2", 3), ("B2", 4)] { e.setValue(.number(x), at: CellReference(ref)!, sheet: s) }
        e.setFormula("MINVERSE(A1:B2)", at: CellReference("D1")!, sheet: s, arrayRange: CellRange("D1:F3"))
        e.recalculate()
        let got = ["D1", "E1", "D2", "E2", "F1", "D3"].map { e.value(at: CellReference($0)!, sheet: s) }
        #expect(got == [.number(-2), .number(1), .number(1.5), .number(-0.5), .error(.notAvailable), .error(.notAvailable)])
    }
}
