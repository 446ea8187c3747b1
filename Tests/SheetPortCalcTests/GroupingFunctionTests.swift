import Testing
@testable import SheetPortCalc
import SheetPortCore

/// GROUPBY, PERCENTOF and TRIMRANGE (with the trim-ref operators' stored forms `_xlfn._TRO_*`),
/// after Microsoft's articles for each (support.microsoft.com, "GROUPBY function", "PERCENTOF
/// function", "TRIMRANGE function"): a small sales table grouped, totalled, sorted, filtered, with
/// eta-reduced functions and LAMBDAs, and hostile inputs (wrong shapes, sort indexes past the
/// output, lambdas of the wrong arity, errors where arrays go). Whole arrays are read through
/// ARRAYTOTEXT's strict form.
@Suite struct GroupingFunctionTests {
    nonisolated(unsafe) static let sales: [String: Any] = [
        "A1": "Region", "B1": "Product", "C1": "Sales",
        "A2": "East", "B2": "Bikes", "C2": 10,
        "A3": "West", "B3": "Bikes", "C3": 20,
        "A4": "East", "B4": "Racks", "C4": 5,
        "A5": "West", "B5": "Racks", "C5": 7,
        "A6": "east", "B6": "Bikes", "C6": 3, "Z2": CalcValue.error(.notAvailable),
    ]

    @Test(arguments: [
        ("ARRAYTOTEXT(GROUPBY(A2:A6,C2:C6,_xleta.SUM),1)", CalcValue.text("{\"East\",18;\"West\",27;\"Total\",45}")),
        // Omitted field_headers: a text first row over numbers is a header, not shown.
        ("ARRAYTOTEXT(GROUPBY(A1:A6,C1:C6,_xleta.SUM),1)", .text("{\"East\",18;\"West\",27;\"Total\",45}")),
        ("ARRAYTOTEXT(GROUPBY(A1:A6,C1:C6,_xleta.SUM,3),1)", .text("{\"Region\",\"Sales\";\"East\",18;\"West\",27;\"Total\",45}")),
        ("ARRAYTOTEXT(GROUPBY(A2:A6,C2:C6,_xleta.SUM,0,0,-2),1)", .text("{\"West\",27;\"East\",18}")),
        ("ARRAYTOTEXT(GROUPBY(A2:A6,C2:C6,_xleta.SUM,0,-1),1)", .text("{\"Total\",45;\"East\",18;\"West\",27}")),
        ("ARRAYTOTEXT(GROUPBY(A2:A6,C2:C6,LAMBDA(x,MAX(x))),1)", .text("{\"East\",10;\"West\",20;\"Total\",20}")),
        ("ARRAYTOTEXT(GROUPBY(A2:A6,C2:C6,_xleta.COUNT,0,1,,C2:C6>5),1)", .text("{\"East\",1;\"West\",2;\"Total\",3}")),
        ("ARRAYTOTEXT(GROUPBY(A2:A6,C2:C6,_xleta.PERCENTOF),1)", .text("{\"East\",0.4;\"West\",0.6;\"Total\",1}")),
        // Two fields with subtotals: the parent's row follows its children, the grand total is named so.
        ("ROWS(GROUPBY(A2:B6,C2:C6,_xleta.SUM,0,2))", .number(7)),
        ("INDEX(GROUPBY(A2:B6,C2:C6,_xleta.SUM,0,2),3,3)", .number(18)),
        ("INDEX(GROUPBY(A2:B6,C2:C6,_xleta.SUM,0,2),7,1)", .text("Grand Total")),
        ("INDEX(GROUPBY(A2:B6,C2:C6,_xleta.SUM,0,2,,,1),5,3)", .number(45)),
        ("INDEX(GROUPBY(A2:B6,C2:C6,_xleta.SUM,0,-2),2,3)", .number(18)),
        // Hostile: shapes, indexes, functions, filters that keep nothing, errors where arrays go.
        ("GROUPBY(A2:A6,C2:C5,_xleta.SUM)", .error(.value)),
        ("GROUPBY(A2:A6,C2:C6,_xleta.SUM,0,1,3)", .error(.value)),
        ("GROUPBY(A2:A6,C2:C6,_xleta.SUM,0,1,0)", .error(.value)),
        ("GROUPBY(A2:A6,C2:C6,_xleta.SUM,7)", .error(.value)),
        ("ARRAYTOTEXT(GROUPBY(A2:A6,C2:C6,LAMBDA(x,y,z,x)),1)", .text("{\"East\",#VALUE!;\"West\",#VALUE!;\"Total\",#VALUE!}")),
        ("GROUPBY(A2:A6,C2:C6,_xleta.SUM,0,9)", .error(.value)),
        ("GROUPBY(A2:A6,C2:C6,5)", .error(.value)),
        ("GROUPBY(A2:A6,C2:C6,_xleta.SUM,0,1,,C2:C6>100)", .error(.calc)),
        ("GROUPBY(A2:A6,C2:C6,_xleta.SUM,0,1,,C2:C5>1)", .error(.value)),
        ("GROUPBY(A2:A6,C2:C6,Z1)", .error(.value)), ("GROUPBY(A2:A6,C2:C6,Z2)", .error(.notAvailable)),
        ("GROUPBY(1/0,C2:C6,_xleta.SUM)", .error(.divisionByZero)),
        ("GROUPBY(SEQUENCE(100000,1000),1,_xleta.SUM)", .error(.number)),
        ("ARRAYTOTEXT(GROUPBY(A2:A6,C2:C6,LAMBDA(x,x)),1)", .text("{\"East\",#CALC!;\"West\",#CALC!;\"Total\",#CALC!}")),
        // PERCENTOF: SUM(data_subset)/SUM(data_all); text in ranges skipped, an error #NUM!, a zero total #DIV/0!.
        ("PERCENTOF(C2:C3,C2:C6)", .number(30.0 / 45.0)),
        ("PERCENTOF(A2:C2,C2:C6)", .number(10.0 / 45.0)),
        ("PERCENTOF({1,2},{4,4})", .number(3.0 / 8.0)),
        ("PERCENTOF(C2:C6,A2:A6)", .error(.divisionByZero)),
        ("PERCENTOF({1,#N/A},C2:C6)", .error(.number)),
        ("PERCENTOF(C2:C6,{1,#N/A})", .error(.number)),
    ])
    func grouping(_ formula: String, _ expected: CalcValue) { Self.check(formula, Self.sales, expected) }

    static let pivots: [(String, CalcValue)] = [
        // PIVOTBY: the calculation suite's EXTRA!H96 and the sales table by region and product.
        ("ARRAYTOTEXT(PIVOTBY({2;2;3},{1;2;2},{1;2;3},_xleta.SUM),1)", .text("{\"\",1,2,\"Total\";2,1,2,3;3,\"\",3,3;\"Total\",1,5,6}")),
        ("ARRAYTOTEXT(PIVOTBY(A2:A6,B2:B6,C2:C6,_xleta.SUM),1)", .text("{\"\",\"Bikes\",\"Racks\",\"Total\";\"East\",13,5,18;\"West\",20,7,27;\"Total\",33,12,45}")),
        ("ARRAYTOTEXT(PIVOTBY(A2:A6,B2:B6,C2:C6,_xleta.SUM,0,0,-2,-1,-2),1)", .text("{\"\",\"Total\",\"Bikes\",\"Racks\";\"West\",27,20,7;\"East\",18,13,5}")),
        ("INDEX(PIVOTBY(A2:A6,B2:B6,C2:C6,_xleta.PERCENTOF,0,1,,1,,,1),2,2)", .number(13.0 / 18.0)),
        ("INDEX(PIVOTBY(A2:A6,B2:B6,C2:C6,_xleta.PERCENTOF),2,2)", .number(13.0 / 33.0)),
        ("INDEX(PIVOTBY(A2:A6,B2:B6,C2:C6,_xleta.PERCENTOF,0,1,,1,,,2),2,2)", .number(13.0 / 45.0)),
        ("INDEX(PIVOTBY(A2:A6,B2:B6,C2:C6,_xleta.PERCENTOF,0,1,,1,,,3),2,2)", .number(13.0 / 18.0)),
        ("INDEX(PIVOTBY(A2:A6,B2:B6,C2:C6,_xleta.PERCENTOF,0,1,,1,,,4),2,2)", .number(13.0 / 33.0)),
        ("INDEX(PIVOTBY(A2:B6,B2:B6,C2:C6,_xleta.PERCENTOF,0,2,,1,,,4),2,3)", .number(1)),
        ("INDEX(PIVOTBY(A2:A6,B2:B6,C2:C6,_xleta.COUNT,0,1,,1,,C2:C6>6),3,3)", .number(1)),
        ("ARRAYTOTEXT(PIVOTBY(A1:A6,B1:B6,C1:C6,_xleta.SUM,3,0,,0),1)", .text("{\"\",\"Product\",\"\";\"\",\"Bikes\",\"Racks\";\"Region\",\"Sales\",\"Sales\";\"East\",13,5;\"West\",20,7}")),
        ("PIVOTBY(A2:A6,B2:B5,C2:C6,_xleta.SUM)", .error(.value)),
        ("PIVOTBY(A2:A6,B2:B6,C2:C6,_xleta.SUM,0,1,,3)", .error(.value)),
        ("PIVOTBY(A2:A6,B2:B6,C2:C6,_xleta.SUM,0,1,,1,,,5)", .error(.value)),
        ("PIVOTBY(A2:A6,B2:B6,C2:C6,_xleta.SUM,0,1,,1,,C2:C6>99)", .error(.calc)),
        ("PIVOTBY(SEQUENCE(5000),SEQUENCE(5000),SEQUENCE(5000),_xleta.SUM)", .error(.number)),
    ]

    @Test(arguments: pivots)
    func pivot(_ formula: String, _ expected: CalcValue) { Self.check(formula, Self.sales, expected) }

    /// E2 and F3 hold values inside D1:H9; J1:K5 holds none.
    nonisolated(unsafe) static let sparse: [String: Any] = ["E2": 1, "F3": 2, "G9": CalcValue.empty]

    @Test(arguments: [
        ("ARRAYTOTEXT(TRIMRANGE(D1:H9),1)", CalcValue.text("{1,;,2}")),
        ("ROW(TRIMRANGE(D1:H9))", .number(2)),
        ("ROWS(TRIMRANGE(D1:H9,0,0))*10+COLUMNS(TRIMRANGE(D1:H9,0,0))", .number(95)),
        ("ROWS(TRIMRANGE(D1:H9,1,1))*10+COLUMNS(TRIMRANGE(D1:H9,1,1))", .number(84)),
        ("ROWS(TRIMRANGE(D1:H9,2,2))*10+COLUMNS(TRIMRANGE(D1:H9,2,2))", .number(33)),
        ("ROWS(TRIMRANGE(D1:H9,\"1\",0))", .number(8)),
        ("ROWS(TRIMRANGE(E:E,3,3))", .number(1)), ("TRIMRANGE(D:D)", .error(.reference)),
        ("SUM(TRIMRANGE(A:Z))", .number(3)),
        ("ROWS(_xlfn._TRO_ALL(D1:H9))", .number(2)),
        ("ROWS(_xlfn._TRO_LEADING(D1:H9))*10+COLUMNS(_xlfn._TRO_LEADING(D1:H9))", .number(84)),
        ("ROWS(_xlfn._TRO_TRAILING(D1:H9))*10+COLUMNS(_xlfn._TRO_TRAILING(D1:H9))", .number(33)),
        // The operators as typed: `.` on a side of `:` trims that side.
        ("ROWS(D1:.H9)*10+COLUMNS(D1:.H9)", .number(33)),
        ("ROWS(D1.:H9)*10+COLUMNS(D1.:H9)", .number(84)),
        ("ROWS(D1.:.H9)*10+COLUMNS(D1.:.H9)", .number(22)),
        ("SUM(Sheet1!$D$1.:.$H$9)", .number(3)),
        ("J1.:.K5", .error(.reference)),
        // Hostile: no value at all, fractions, modes past 3, arrays of modes, non-references.
        ("TRIMRANGE(J1:K5)", .error(.reference)),
        ("TRIMRANGE(D1:H9,2.5)", .error(.value)),
        ("TRIMRANGE(D1:H9,\"3.3\")", .error(.value)),
        ("TRIMRANGE(D1:H9,4)", .error(.value)),
        ("TRIMRANGE(D1:H9,-1)", .error(.value)),
        ("ARRAYTOTEXT(TRIMRANGE(D1:H9,{1,3}),1)", .text("{#VALUE!,#VALUE!}")),
        ("TRIMRANGE({1,2})", .error(.value)),
        ("TRIMRANGE(1/0)", .error(.divisionByZero)),
    ])
    func trimRange(_ formula: String, _ expected: CalcValue) { Self.check(formula, Self.sparse, expected) }

    /// The formula over `cells` equals `expected` (numbers to 15 digits).
    static func check(_ formula: String, _ cells: [String: Any], _ expected: CalcValue) {
        let v = eval(formula, cells)
        if case .number(let x) = expected { #expect(close(v, x), "\(formula) = \(v)") } else { #expect(v == expected, "\(formula) = \(v)") }
    }

    /// The stored forms render back as Excel writes them.
    @Test func storedFormsRoundTrip() throws {
        for (typed, stored) in [("A1:.C9", "_xlfn._TRO_TRAILING(A1:C9)"), ("SUM($A1.:C$9)", "SUM(_xlfn._TRO_LEADING($A1:C$9))"),
                                ("A1.:.C9", "_xlfn._TRO_ALL(A1:C9)")] {
            let e = engine(["E1": "=" + typed])
            #expect(e.formula(at: CellReference("E1")!, sheet: 0) == stored)
        }
        for text in ["_xlfn.TRIMRANGE(A1:C9,1,2)", "_xlfn._TRO_ALL(A1:C9)", "_xlfn.GROUPBY(A2:A6,C2:C6,_xleta.SUM)", "_xlfn.PERCENTOF(A1:A2,A1:A9)"] {
            let e = engine(["A1": "=" + text])
            #expect(e.formula(at: CellReference("A1")!, sheet: 0) == text)
        }
    }
}
