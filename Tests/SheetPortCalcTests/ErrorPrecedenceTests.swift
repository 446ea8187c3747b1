import Testing
@testable import SheetPortCalc
import SheetPortCore

/// Which error Excel answers when several arguments hold errors, on the layout of the calculation
/// suite's formulas__test.xlsx (STATISTICAL sheet, computed by Excel for Mac): numbers in C:G,
/// TRUE in J, then the errors `#VALUE!` `#N/A` `#DIV/0!` `#NAME?` `#NULL!` `#NUM!` `#REF!` in
/// K:Q. Every expected value is the one Excel cached for the same formula there.
@Suite struct ErrorPrecedenceTests {
    static let errors: [ExcelError] = [.value, .notAvailable, .divisionByZero, .name, .null, .number, .reference]

    /// Row 1 of the suite's layout: C1:G1 the numbers given, J1 TRUE, K1:Q1 the seven errors.
    static func row(_ numbers: [Double]) -> [String: Any] {
        var cells: [String: Any] = ["J1": true]
        for (k, x) in numbers.enumerated() { cells[String(UnicodeScalar(UInt8(ascii: "C") + UInt8(k))) + "1"] = x }
        for (k, e) in errors.enumerated() { cells[String(UnicodeScalar(UInt8(ascii: "K") + UInt8(k))) + "1"] = CalcValue.error(e) }
        return cells
    }

    nonisolated(unsafe) static let large = row([0.1, -10, 0.9, 2.2, -0.1])

    /// k's error before the array's `#VALUE!` (STATISTICAL!Z57:AF57, Z95:AF95).
    @Test(arguments: [("K1", ExcelError.value), ("L1", .notAvailable), ("M1", .divisionByZero), ("N1", .name),
                      ("O1", .null), ("P1", .number), ("Q1", .reference)])
    func kthErrorBeforeTheArrays(_ k: String, _ expected: ExcelError) {
        #expect(eval("LARGE($C1:$K1,\(k))", Self.large) == .error(expected))
        #expect(eval("SMALL($C1:$K1,\(k))", Self.large) == .error(expected))
    }

    /// PERCENTILE*, QUARTILE*: `(K1:L1, L1)` is L1's `#N/A`, not K1's `#VALUE!` (rows 78, 79, 87, 88).
    @Test(arguments: ["PERCENTILE", "PERCENTILE.INC", "PERCENTILE.EXC", "QUARTILE", "QUARTILE.INC", "QUARTILE.EXC"])
    func percentileReadsKFirst(_ name: String) {
        let cells = Self.row([1, 2, 3, 4, 5])
        let columns = ["K", "L", "M", "N", "O", "P", "Q"]
        for k in 0..<6 {
            let formula = "\(name)(\(columns[k])1:\(columns[k + 1])1,\(columns[k + 1])1)"
            #expect(eval(formula, cells) == .error(Self.errors[k + 1]), "\(formula)")
        }
    }

    /// LARGE and SMALL: k below 1 is `#NUM!` (AG57 and AG95 take k = 0.9).
    @Test func kBelowOneIsNumError() {
        #expect(eval("LARGE(C1:G1,0.9)", Self.large) == .error(.number))
        #expect(eval("SMALL(C1:G1,0.1)", Self.large) == .error(.number))
        #expect(eval("LARGE(C1:G1,1)", Self.large) == .number(2.2))
        #expect(eval("LARGE(C1:G1,-1E+300)", Self.large) == .error(.number))
        #expect(eval("SMALL(C1:G1,1E+300)", Self.large) == .error(.number))
    }

    /// Z.TEST's x and sigma before the array, in argument order; sigma 0 is `#NUM!` (row 121).
    @Test func zTestScalarsFirst() {
        let cells = Self.row([1, 2, 3, 4, 5])
        #expect(eval("Z.TEST(K1:L1,M1)", cells) == .error(.divisionByZero))
        #expect(eval("Z.TEST(L1:M1,O1,N1)", cells) == .error(.null))
        #expect(eval("Z.TEST(M1:N1,3,N1)", cells) == .error(.name))
        #expect(eval("Z.TEST(C1:D1,E1,0)", cells) == .error(.number))
        #expect(eval("Z.TEST(C1:D1,E1,-1)", cells) == .error(.number))
    }

    /// FORECAST's x before the known values (row 37: `FORECAST(Q37,L37:N37,M37:O37)` is `#REF!`).
    @Test func forecastXFirst() {
        let cells = Self.row([1, 2, 3, 4, 5])
        #expect(eval("FORECAST(Q1,L1:N1,M1:O1)", cells) == .error(.reference))
        #expect(eval("FORECAST(M1,C1:E1,D1:F1)", cells) == .error(.divisionByZero))
        #expect(eval("FORECAST.LINEAR(C1,L1:N1,M1:O1)", cells) == .error(.notAvailable))
        // x as an array: each element keeps its own error.
        #expect(eval("INDEX(FORECAST({1,\"x\"},C1:E1,D1:F1),1,2)", cells) == .error(.value))
    }

    /// Paired statistics read pair by pair, the first array's cell first; `#NULL!` is passed
    /// over, and with it a pair whose first cell it is (column AD of rows 17, 26, 55, 77, 91, 94, 101, 107).
    @Test func pairedErrors() {
        let cells = Self.row([0, 0.1, 0.2, 0.3, -0.1])
        // Pair by pair: (TRUE, #N/A) comes before (#VALUE!, #DIV/0!).
        #expect(eval("INTERCEPT(J1:L1,L1:N1)", cells) == .error(.notAvailable))
        #expect(eval("INTERCEPT(K1:M1,M1:O1)", cells) == .error(.value))
        // COVARIANCE reads its first array first (Z26: #VALUE!, not the second's #DIV/0!).
        #expect(eval("COVARIANCE.P(K1:M1,M1:O1)", cells) == .error(.value))
        #expect(eval("COVARIANCE.S(L1:N1,N1:P1)", cells) == .error(.notAvailable))
        #expect(eval("COVAR(M1:O1,O1:Q1)", cells) == .error(.divisionByZero))
        // (#NULL!, #REF!) is passed over whole; (#NUM!, ...) answers.
        for f in ["COVARIANCE.P(O1:Q1,Q1:S1)", "PEARSON(O1:P1,Q1:R1)", "RSQ(O1:P1,Q1:R1)", "SLOPE(O1:Q1,Q1:S1)",
                  "STEYX(O1:P1,Q1:R1)", "INTERCEPT(O1:S1,K1:O1)", "CHISQ.TEST(O1:P1,Q1:R1)", "F.TEST(O1:P1,Q1:R1)",
                  "T.TEST(O1:P1,Q1:R1,2,1)"] {
            #expect(eval(f, cells) == .error(.number), "\(f)")
        }
        // #NULL! alone in a sample is no error: the pairs left decide.
        #expect(eval("CORREL(C1:E1,O1:Q1)", cells) == .error(.number))
        #expect(eval("SLOPE({1,2,3},{1,2,3})", cells) == .number(1))
    }

    /// LINEST, LOGEST, TREND, GROWTH: any error read from an argument is `#VALUE!` (rows 51, 58, 59, 113).
    @Test func fitsAnswerValueForAnyError() {
        let cells = Self.row([4, 0.1, 0.2, 0.3, 5])
        for k in 1..<6 {
            let a = String(UnicodeScalar(UInt8(ascii: "K") + UInt8(k))), b = String(UnicodeScalar(UInt8(ascii: "K") + UInt8(k + 2)))
            #expect(eval("LINEST(\(a)1:\(b)1,C1:E1,0,0)", cells) == .error(.value))
            #expect(eval("LOGEST(C1:E1,\(a)1:\(b)1)", cells) == .error(.value))
            #expect(eval("TREND({2;3;4;21;2},{2,1;2,2;5,3;2,4;4,1},\(a)1:\(b)1)", cells) == .error(.value))
            #expect(eval("GROWTH({2;3;4;21;2},{2,1;2,2;5,3;2,4;4,1},\(a)1:\(b)1)", cells) == .error(.value))
        }
        #expect(eval("LINEST(C1:E1,E1:G1,L1,0)", cells) == .error(.value))
        // Errors the fit itself finds keep their own: LOGEST of a y <= 0 is #NUM!.
        #expect(eval("LOGEST({1,-2,3})", cells) == .error(.number))
    }

    /// The Analysis ToolPak's functions: a range where they take a value is `#VALUE!` in an array
    /// formula too (ENGINEERING!AH21 `{=ERF(C21:I21)}`, 'DATE & TIME'!AG9 `{=EDATE(I9,C9:G9)}`),
    /// while an array is lifted over, and other scalar functions lift over the range.
    @Test(arguments: [("ERF(A1:C1)", CalcValue.error(.value)), ("EDATE(A2,A1:C1)", .error(.value)),
                      ("IMABS(A1:C1)", .error(.value)), ("ISEVEN(A1:C1)", .error(.value)),
                      ("BESSELI(A1:B1,A2)", .error(.value)), ("YEARFRAC(A1:C1,A1:C1,A1:C1)", .error(.value)),
                      ("ERF(--A1:C1)", .number(0)), ("EDATE(A2,{0,1})", .number(45_000)),
                      ("ABS(A1:C1)", .number(0)), ("ISNUMBER(A1:C1)", .boolean(true))])
    func analysisToolPakRefusesRanges(_ formula: String, _ expected: CalcValue) {
        let e = CalcEngine()
        let s = e.addSheet("S")
        for (ref, x) in [("A1", 0.0), ("B1", 1), ("C1", 2), ("A2", 45_000)] { e.setValue(.number(x), at: CellReference(ref)!, sheet: s) }
        e.setFormula(formula, at: CellReference("E5")!, sheet: s, arrayRange: CellRange("E5:G5")!)
        e.recalculate()
        #expect(e.value(at: CellReference("E5")!, sheet: s) == expected, "{=\(formula)}")
    }

    /// A text operand broadcast over an array is read as a number once (Evaluator.numeric), with the
    /// element-by-element order kept: the left operand's error or failed conversion comes first.
    @Test func textBroadcastOverAnArray() {
        let cells: [String: Any] = ["A1": 1, "A2": 2, "A3": CalcValue.error(.notAvailable), "B1": " 5 ", "B2": "x"]
        #expect(eval("SUMPRODUCT(A1:A2-B1)", cells) == .number(-7))
        #expect(eval("INDEX(A1:A3-B2,3)", cells) == .error(.notAvailable))
        #expect(eval("INDEX(B2-A1:A3,3)", cells) == .error(.value))
        #expect(eval("INDEX(A1:A3*B1,2)", cells) == .number(10))
        #expect(eval("INDEX(B1&A1:A2,2)", cells) == .text(" 5 2"))
        #expect(eval("INDEX(A1:A2=B1,1)", cells) == .boolean(false))
        // The fuzz target's slow input, beside a text of 32,767 characters: #VALUE! over 44,000 cells.
        let long = String(repeating: "x", count: CalcLimits.maxTextLength)
        #expect(eval("ROWS(SEQ12:MUT2-B1)+ISERROR(INDEX(SEQ12:MUT2-C1,1,1))", ["B1": "1", "C1": long]) == .number(12))
    }
}
