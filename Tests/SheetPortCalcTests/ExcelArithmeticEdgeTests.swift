import Testing
@testable import SheetPortCalc
import SheetPortCore

/// Edge values where Excel's own arithmetic decides the digits or the error, each from a
/// calculation-suite workbook Excel computed (../shared/calc-suite, named per case).
@Suite struct ExcelArithmeticEdgeTests {
    @Test(arguments: [
        // MOD is the exact remainder moved to the divisor's sign (MOD_QUOTIENT C20, C25, C26).
        ("MOD(10.0000000001,0.1)", 9.999945316252479e-11), ("MOD(5,1E-10)", 9.999981783901343e-11),
        ("MOD(5,-1E-10)", -1.821609865774887e-16), ("MOD(-1,3)", 2), ("MOD(3,-2)", -1), ("MOD(-7.5,2)", 0.5),
        // TIME is the fraction of total seconds / 86400 (TIME_HOUR_MINUTE_SECOND D3, D17).
        ("TIME(24,2,3)", 0.0014236111111110006), ("TIME(32767,32767,32767)", 0.4257754629629744), ("TIME(12,0,0)", 0.5),
        // ACOT and ACOTH through 1/x (TRIGONOMETRIC ACOT_ACOTH!B13:C13); COTH, CSCH, SECH without a limit.
        ("ACOT(9999999999999)", 1.0000000000001e-13), ("ACOTH(9999999999999)", 1.0000000000001e-13),
        ("ACOT(0)", Double.pi / 2), ("ACOT(-1)", 3 * Double.pi / 4), ("ACOT(1)", Double.pi / 4),
        ("COTH(9999999999999)", 1), ("CSCH(9999999999999)", 0), ("SECH(9999999999999)", 0), ("SECH(-1E+300)", 0),
        // TRUNC keeps a number whose scaled value overflows (MROUND_TRUNC_INT TRUNC!C57).
        ("TRUNC(9.99999E+307,5)", 9.99999e307), ("ROUND(1E+308,10)", 1e308),
        // SEARCH with a lone trailing tilde (FIND_SEARCH E29:E30).
        ("SEARCH(\"~\",\"Hi ~Bang!\",1)", 1), ("SEARCH(\"~\",\"Hello\")", 1), ("SEARCH(\"~~\",\"Hi ~Bang!\")", 4),
        ("SEARCH(\"a~\",\"xab\")", 2),
    ])
    func number(_ formula: String, _ expected: Double) {
        #expect(eval(formula) == .number(expected), "\(formula)")
    }

    @Test(arguments: [
        // Booleans are refused (ISODD_ISEVEN!B15:C16, EOMONTH C11:C12); months before 1900 are #NUM!
        // (DATE_DAY_MONTH_YEAR I15: EDATE(1900-03-01,-7)).
        ("ISODD(TRUE)", CalcValue.error(.value)), ("ISEVEN(FALSE)", .error(.value)), ("ISODD(A1)", .error(.value)),
        ("ISEVEN(\"4\")", .boolean(true)), ("ISODD(-3.9)", .boolean(true)),
        ("EOMONTH(DATE(2023,3,2),TRUE)", .error(.value)), ("EOMONTH(DATE(2023,3,2),FALSE)", .error(.value)),
        ("EDATE(DATE(2023,3,2),TRUE)", .error(.value)), ("EDATE(61,-7)", .error(.number)), ("EOMONTH(61,-3)", .error(.number)),
        ("EDATE(DATE(9999,12,1),1)", .error(.number)), ("EOMONTH(DATE(2023,3,2),1)", .number(45046)),
        ("EDATE(DATE(2024,1,31),1)", .number(45351)),
        // A serial is rounded to the second before its date is taken (DAYS_DAYS360 D24), as HOUR reads it.
        ("DAYS360(45992.000001,46000.999999)", .number(9)), ("DAY(46000.999999)", .number(10)), ("HOUR(46000.999999)", .number(0)),
        ("DAY(46000.99999)", .number(9)), ("YEAR(45657.9999999)", .number(2025)),
    ])
    func value(_ formula: String, _ expected: CalcValue) {
        #expect(eval(formula, ["A1": true]) == expected, "\(formula)")
    }

    /// LCM counts a blank cell of a range as 0 (GCD_LCM I35); SINGLE, the stored `@`, intersects
    /// (INFORMATION__N B20: N(SINGLE(D18:D22)) in row 20 is D20; LCM_GCD D43).
    @Test func blanksAndSingle() {
        let cells: [String: Any] = ["B1": 5, "B2": 4, "D18": 1, "D19": 2, "D20": 3, "D21": 4, "D22": 5, "J43": 4]
        #expect(eval("LCM(A1:B1)", cells) == .number(0))
        #expect(eval("LCM(B1:B2)", cells) == .number(20))
        #expect(eval("GCD(A1:B1)", cells) == .number(5))
        let e = engine(["D18": 1, "D19": 2, "D20": 3, "D21": 4, "D22": 5, "J43": 4, "A43": 2, "B43": 2,
                        "B20": "=N(SINGLE(D18:D22))", "D43": "=LCM(A43,B43,SINGLE(J:J))", "E43": "=GCD(A43,B43,SINGLE(J:J))",
                        "B30": "=SINGLE(D18:D22)", "B31": "=SINGLE({7,8})", "E20": "=SINGLE(D18:E22)"])
        let at = { (ref: String) in e.value(at: CellReference(ref)!, sheet: 0) }
        #expect(at("B20") == .number(3))
        #expect(at("D43") == .number(4))
        #expect(at("E43") == .number(2))
        #expect(at("B30") == .error(.value))
        #expect(at("B31") == .number(7))
        #expect(at("E20") == .error(.value))
    }

    /// IFERROR and IFNA replace errors element by element in an array (LOGICAL__IFERROR C31).
    @Test func errorFallbackOverArrays() {
        let cells: [String: Any] = ["G4": 10, "G5": 20, "G6": 30, "G7": 40, "H4": 1, "H5": 0, "H6": 1, "H7": "x"]
        // As a dynamic-array formula (Excel 365's reading, the file's cm="1").
        let e = engine(cells)
        for (ref, text) in [("C31", "SUM(IFERROR(G4:G7/H4:H7,0))"), ("C32", "SUM(IFERROR(G4:G7/H4:H7,{1;2;3;4}))")] {
            e.setFormula(text, at: CellReference(ref)!, sheet: 0, isDynamicArray: true)
        }
        e.recalculate()
        #expect(e.value(at: CellReference("C31")!, sheet: 0) == .number(40))
        #expect(e.value(at: CellReference("C32")!, sheet: 0) == .number(46))
        #expect(eval("ARRAYTOTEXT(IFNA({1,#N/A,#DIV/0!},\"n\"),1)", cells) == .text("{1,\"n\",#DIV/0!}"))
        #expect(eval("ARRAYTOTEXT(IFERROR({1,#N/A,#DIV/0!},),1)", cells) == .text("{1,0,0}"))
        #expect(eval("IFERROR(1/0,\"z\")", cells) == .text("z"))
        #expect(eval("IFERROR(G4,\"z\")", cells) == .number(10))
    }
}
