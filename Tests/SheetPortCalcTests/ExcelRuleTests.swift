import Testing
@testable import SheetPortCalc
import SheetPortCore

/// Rules checked against Microsoft's function references and the values Excel cached in the
/// calculation suite (formulas__test), with hostile arguments: errors, booleans, empty cells and
/// ranges, huge and negative numbers.
@Suite struct ExcelRuleTests {
    /// `formula` entered as an array formula in E5 over the given cells.
    static func arrayFormula(_ formula: String, _ cells: [String: CalcValue] = [:]) -> CalcValue {
        let e = CalcEngine()
        let s = e.addSheet("S")
        for (ref, v) in cells { e.setValue(v, at: CellReference(ref)!, sheet: s) }
        e.setFormula(formula, at: CellReference("E5")!, sheet: s, arrayRange: CellRange("E5")!)
        e.recalculate()
        return e.value(at: CellReference("E5")!, sheet: s)
    }

    /// NUMBERVALUE: Microsoft's examples, then the separators, signs, parentheses, exponents and
    /// percent signs as Excel reads them (formulas__test TEXT!R27:AC28).
    @Test func numberValue() {
        #expect(eval("NUMBERVALUE(\"2.500,27\",\",\",\".\")") == .number(2500.27))
        #expect(eval("NUMBERVALUE(\"3.5%\")") == .number(0.035))
        #expect(close(eval("NUMBERVALUE(\"9%%\")"), 0.0009))
        #expect(eval("NUMBERVALUE(\"\")") == .number(0))
        #expect(eval("NUMBERVALUE(\" 1 2 3 \")") == .number(123), "spaces anywhere")
        #expect(eval("NUMBERVALUE(\"(2.500,27)\",\",\",\".\")") == .number(-2500.27))
        #expect(eval("NUMBERVALUE(\"(2,500.27)\",\",\",\".\")") == .error(.value), "a group separator after the decimal one")
        #expect(eval("NUMBERVALUE(\"(2500.27)\",\".\",\".,\")") == .error(.value), "the same first character for both")
        #expect(close(eval("NUMBERVALUE(\"(2,500.27%)%\",\".\",\",.,\")"), -0.250027))
        #expect(eval("NUMBERVALUE(\"(,25,,0,0.27E + 6%)%\",\".\",\",.,\")") == .number(-250_027))
        #expect(eval("NUMBERVALUE(\"(2500,27E+6%)%\",\",\")") == .number(-250_027), "a missing group separator yields to the decimal one")
        #expect(eval("NUMBERVALUE(\"(2,500.27%)%\",\",\")") == .error(.value))
        #expect(eval("NUMBERVALUE(\"250)027\",\")\")") == .number(250.027), "a parenthesis as the decimal separator")
        for hostile in ["(-2500.27E+2%)%", "- 2500.27%E+2%%", "- -2500.27E+2%%", "1.2.3", "1e", "1E+", "%", "()", "(1", "1)",
                        "$1", "1,5.0,0", "TRUE", "--1", "١٢", String(repeating: "9", count: 400), "1e400"] {
            let v = eval("NUMBERVALUE(\"\(hostile)\")")
            #expect(v == .error(.value) || v == .error(.number), "\(hostile.prefix(20)): \(v)")
        }
        #expect(eval("NUMBERVALUE(\"1\",A1)") == .error(.value), "an empty decimal separator")
        #expect(eval("NUMBERVALUE(\"1\",\"2\",A1)") == .error(.value), "an empty group separator")
        #expect(eval("NUMBERVALUE(TRUE)") == .error(.value))
        #expect(eval("NUMBERVALUE(A1)") == .number(0))
        #expect(eval("NUMBERVALUE(#N/A,\".\")") == .error(.notAvailable))
        #expect(eval("NUMBERVALUE(\"1\",#DIV/0!)") == .error(.divisionByZero))
        #expect(eval("NUMBERVALUE(-1E+300)") == .number(-1e300))
        #expect(eval("NUMBERVALUE(\"1E+300\",\"0\",\"6\")") == .error(.value), "a digit as a separator is one, in the exponent too")
        #expect(eval("NUMBERVALUE(\"1E+300\",\"1\",\"6\")") == .error(.value))
    }

    /// YEARFRAC reads its basis first and takes no boolean (formulas__test 'DATE & TIME'!U27:AE27).
    @Test func yearFractionErrorOrder() {
        let cells: [String: Any] = ["K1": CalcValue.error(.value), "L1": CalcValue.error(.notAvailable), "P1": CalcValue.error(.number),
                                    "Q1": CalcValue.error(.reference)]
        #expect(eval("YEARFRAC(K1,345,L1)", cells) == .error(.notAvailable))
        #expect(eval("YEARFRAC(P1,345,Q1)", cells) == .error(.reference))
        #expect(eval("YEARFRAC(Q1,345,1)", cells) == .error(.reference))
        #expect(eval("YEARFRAC(3,345,TRUE)") == .error(.value))
        #expect(eval("YEARFRAC(TRUE,345,1)") == .error(.value))
        #expect(eval("YEARFRAC(-1,345,9)") == .error(.number), "a bad basis and a negative date are #NUM!")
        #expect(eval("YEARFRAC(1,1E+300)") == .error(.number))
        #expect(eval("YEARFRAC(\"1/1/1987 05:00 AM\",345,4)").number.map { abs($0 - 86.05833333333334) < 1e-9 } == true)
        // Microsoft's example: YEARFRAC(DATE(2012,1,1),DATE(2012,7,30)) is 0.58055556 (basis 0).
        #expect(close(eval("YEARFRAC(DATE(2012,1,1),DATE(2012,7,30))"), 0.5805555555555556))
    }

    /// TYPE of a range: an array (64) in an array formula (formulas__test INFORMATION!AG24:AI24).
    @Test func typeOfARange() {
        #expect(Self.arrayFormula("TYPE(A1:C1)") == .number(64))
        #expect(Self.arrayFormula("TYPE(A1)") == .number(1))
        #expect(Self.arrayFormula("TYPE(A1:XFD1048576)") == .number(64), "the whole sheet is not read")
        #expect(eval("TYPE(A1:C1)") == .number(16))
    }

    /// HYPGEOM.DIST takes counts of 0 and is 0 below the smallest possible value when cumulative
    /// (formulas__test STATISTICAL!R54, W54, AG54); HYPGEOMDIST keeps Microsoft's strict bounds.
    @Test func hypergeometricBounds() {
        #expect(eval("HYPGEOM.DIST(0,,,,)") == .number(1))
        #expect(eval("HYPGEOM.DIST(0,0,4,4,TRUE)") == .number(1))
        #expect(eval("HYPGEOM.DIST(0,2,3,3,TRUE)") == .number(0))
        #expect(eval("HYPGEOM.DIST(2,2,3,3,FALSE)") == .number(1))
        #expect(eval("HYPGEOM.DIST(0,2,3,3,FALSE)") == .error(.number))
        #expect(close(eval("HYPGEOM.DIST(0.7,\"1\",5,8,3)"), 0.375))
        // Microsoft's examples.
        #expect(eval("HYPGEOM.DIST(1,4,8,20,TRUE)").number.map { abs($0 - 0.465428277) < 1e-9 } == true)
        #expect(eval("HYPGEOM.DIST(1,4,8,20,FALSE)").number.map { abs($0 - 0.363261094) < 1e-9 } == true)
        for hostile in ["5,10,30,7,FALSE", "4,3,7,4,TRUE", "60,60,4,4,TRUE", "-1,2,3,4,TRUE", "1,-2,3,4,TRUE", "1,2,3,-4,TRUE",
                        "1,2,3,1E+300,TRUE"] {
            let v = eval("HYPGEOM.DIST(\(hostile))")
            #expect(v == .error(.number) || (v.number.map { $0 >= 0 && $0 <= 1 } ?? false), "\(hostile): \(v)")
        }
        #expect(eval("HYPGEOM.DIST(#N/A,2,3,3,TRUE)") == .error(.notAvailable))
        #expect(eval("HYPGEOMDIST(0,0,4,4)") == .error(.number))
    }

    /// CHISQ.TEST: as many cells in each (shapes may differ; the actual's gives the degrees of
    /// freedom), the actual range's errors first, no pair of numbers #DIV/0! (STATISTICAL!R17:AF17).
    @Test func chiSquaredTest() {
        let cells: [String: Any] = ["C1": 10, "D1": 0.1, "C2": 10, "D2": 3.2, "E1": 0.7, "E2": 0.7, "E3": 0.7, "E4": 0.7,
                                    "G1": 4, "I1": "x", "J1": true, "K1": CalcValue.error(.value), "L1": CalcValue.error(.notAvailable),
                                    "M1": CalcValue.error(.divisionByZero)]
        #expect(eval("CHISQ.TEST(C1:D2,E1:E4)", cells).number.map { abs($0 - 9.66041305483331e-58) < 1e-70 } == true)
        #expect(eval("CHISQ.TEST(C1:D2,E1:E3)", cells) == .error(.notAvailable))
        #expect(eval("CHISQ.TEST(G1:I1,H1:J1)", cells) == .error(.divisionByZero))
        #expect(eval("CHISQ.TEST(J1:K1,L1:M1)", cells) == .error(.value))
        #expect(eval("CHISQ.TEST(C1,D1)", cells) == .error(.notAvailable))
        #expect(eval("CHISQ.TEST(Z1:Z4,Z5:Z8)", cells) == .error(.divisionByZero), "empty ranges")
        #expect(eval("CHISQ.TEST({1,2},{0,1})") == .error(.divisionByZero))
        #expect(eval("CHISQ.TEST({1,2},{-1,1})") == .error(.number))
        // Microsoft's example: 0.0003082.
        #expect(eval("CHISQ.TEST({58,35;11,25;10,23},{45.35,47.65;17.56,18.44;16.09,16.91})")
            .number.map { abs($0 - 0.000308192) < 1e-9 } == true)
    }

    /// FORECAST.LINEAR: one empty cell named alone is #VALUE!, a range of them #DIV/0!
    /// (STATISTICAL!V42 and Y42).
    @Test func forecastOfEmptyCells() {
        let cells: [String: Any] = ["F1": 7, "I1": "29/02/1900"]
        #expect(eval("FORECAST.LINEAR(I1,F1,H1)", cells) == .error(.value))
        #expect(eval("FORECAST.LINEAR(I1,H1,F1)", cells) == .error(.value))
        #expect(eval("FORECAST.LINEAR(I1,H1:H2,H1:H2)", cells) == .error(.divisionByZero))
        #expect(eval("FORECAST.LINEAR(#NAME?,H1,F1:F2)", cells) == .error(.name))
        #expect(close(eval("FORECAST.LINEAR(30,{6,7,9,15,21},{20,28,31,38,40})"), 10.607253086419755), "Microsoft's example")
        #expect(eval("FORECAST.LINEAR(1E+300,{1,2},{1,2})") == .number(1e300))
    }

    /// XNPV and XIRR: a boolean rate or guess #VALUE!, a range for one in an array formula #VALUE!,
    /// a rate of 0 or less #NUM!, a date's error before its value's (FINANCIAL!S54:AH56).
    @Test func datedCashFlowArguments() {
        var cells: [String: CalcValue] = [:]
        for (k, (v, d)) in [(-10.0, 1.0), (1, 99), (5, 55), (0.0001, 4), (4.5, 9)].enumerated() {
            cells["A\(k + 1)"] = .number(v)
            cells["B\(k + 1)"] = .number(d)
        }
        cells["C1"] = .number(2)
        cells["C2"] = .number(3)
        let flows = "A1:A5,B1:B5"
        #expect(eval("XIRR(\(flows),TRUE)", cells) == .error(.value))
        #expect(eval("XIRR(A1,\(flows))", cells) == .error(.value), "a range for the guess outside the row")
        #expect(Self.arrayFormula("XIRR(\(flows),C1:C2)", cells) == .error(.value))
        #expect(eval("XIRR({-10,#N/A,1,2,7},{3,#REF!,7,4,9})") == .error(.reference))
        #expect(eval("XIRR(\(flows),#N/A)", cells) == .error(.notAvailable))
        #expect(eval("XIRR(\(flows))", cells).number.map { abs($0 - 0.59931975) < 1e-7 } == true)
        #expect(eval("XNPV(0,\(flows))", cells) == .error(.number))
        #expect(eval("XNPV(Z9,\(flows))", cells) == .error(.number), "an empty rate is 0")
        #expect(eval("XNPV(-0.1,\(flows))", cells) == .error(.number))
        #expect(eval("XNPV(TRUE,\(flows))", cells) == .error(.value))
        #expect(Self.arrayFormula("XNPV(C1:C2,\(flows))", cells) == .error(.value))
        #expect(close(eval("XNPV(2,\(flows))", cells), -0.6124748432976563))
        let huge = eval("XNPV(1E+300,\(flows))", cells)
        #expect(huge == .error(.number) || huge.number.map { abs($0 + 10) < 1e-5 } == true, "\(huge)")
    }

    /// A complex number's parts: 15 digits, in full up to 20 characters, else in scientific form;
    /// an imaginary part of 1 to 15 digits loses its 1 (formulas__test ENGINEERING!R35:V53).
    @Test func complexText() {
        #expect(eval("COMPLEX(1.28233995888454E-06,4.33496947416312E-06)") == .text("1.28233995888454E-06+4.33496947416312E-06i"))
        #expect(eval("COMPLEX(-4.48088972789593E-06,5.98317105631764E-07,\"j\")") == .text("-4.48088972789593E-06+5.98317105631764E-07j"))
        #expect(eval("COMPLEX(0.000000000000000001,0)") == .text("0.000000000000000001"))
        #expect(eval("COMPLEX(0.0001,0.5)") == .text("0.0001+0.5i"))
        #expect(eval("COMPLEX(0.0000692442674613868,-1.00005873951153)") == .text("0.0000692442674613868-1.00005873951153i"))
        #expect(eval("COMPLEX(1E-20,0)") == .text("1E-20"))
        #expect(eval("COMPLEX(3.82126757337684E-22,-0.9999999999999999,\"j\")") == .text("3.82126757337684E-22-j"))
        #expect(eval("COMPLEX(0,1.0000000000000002)") == .text("i"))
        #expect(eval("COMPLEX(1E+300,-1E-300)") == .text("1E+300-1E-300i"))
        #expect(eval("COMPLEX(-1234567890123456789012,0)") == .text("-1.23456789012346E+21"))
        #expect(eval("IMCOT(\"1E-300+i\")").isError == false)
        // Mixing i and j: #NUM! for IMDIV and IMSUB, #VALUE! for IMSUM and IMPRODUCT.
        #expect(eval("IMDIV(\"3.1+2j\",\"-3+2i\")") == .error(.number))
        #expect(eval("IMSUB(\"3.1+2j\",\"-3+2i\")") == .error(.number))
        #expect(eval("IMSUM(\"3.1+2j\",\"-3+2i\")") == .error(.value))
        #expect(eval("IMPRODUCT(\"3.1+2j\",\"-3+2i\")") == .error(.value))
        #expect(eval("IMSUB(\"3.1+2j\",\"x\")") == .error(.number))
        #expect(eval("IMDIV(\"3.1+2j\",\"0\")") == .error(.number))
        #expect(eval("IMSUB(\"1E+308+j\",\"-1E+308\")") == .error(.number))
    }
}

