import Testing
@testable import SheetPortCalc
import SheetPortCore

/// The math and trigonometry functions added to the engine. `microsoftExamples` are the example
/// tables of Microsoft's function reference (support.microsoft.com, "<NAME> function" articles, e.g.
/// https://support.microsoft.com/en-us/office/roman-function-d6b0b99e-de46-4704-a518-b45a0f8b56f5):
/// each formula with the result the article shows, to the digits it shows. Excel's errors for odd
/// arguments come from ../shared/calc-suite (IronCalc's calc_tests/MATH_AND_TRIGONOMETRY).
@Suite struct MathFamilyFunctionTests {
    static let numbers: [(String, Double, Double)] = [
        ("ARABIC(\"LVII\")", 57, 0), ("ARABIC(\"mcmxii\")", 1912, 0), ("ARABIC(\"\")", 0, 0), ("ARABIC(\"-MMXI\")", -2011, 0),
        ("DECIMAL(\"FF\",16)", 255, 0), ("DECIMAL(111,2)", 7, 0), ("DECIMAL(\"zap\",36)", 45_745, 0),
        ("COMBINA(4,3)", 20, 0), ("COMBINA(10,3)", 220, 0),
        ("FACTDOUBLE(6)", 48, 0), ("FACTDOUBLE(7)", 105, 0), ("MULTINOMIAL(2,3,4)", 1260, 1e-9),
        ("SUMX2MY2({2,3,9,1,8,7,5},{6,5,11,7,5,4,4})", -55, 0), ("SUMX2PY2({2,3,9,1,8,7,5},{6,5,11,7,5,4,4})", 521, 0),
        ("SUMXMY2({2,3,9,1,8,7,5},{6,5,11,7,5,4,4})", 79, 0),
        ("SQRTPI(1)", 1.772453851, 5e-10), ("SQRTPI(2)", 2.506628275, 5e-10),
        ("COT(30)", -0.156119952, 5e-10), ("COT(45)", 0.617369624, 5e-10), ("COTH(2)", 1.037314721, 5e-10),
        ("CSC(15)", 1.537780562, 5e-10), ("CSCH(1.5)", 0.469642441, 5e-10), ("SEC(45)", 1.903594407, 5e-10),
        ("SECH(45)", 5.73e-20, 5e-23), ("ACOT(2)", 0.4636, 5e-5), ("ACOTH(6)", 0.168236118, 5e-10),
        ("ASINH(-2.5)", -1.647231146, 5e-10), ("ASINH(10)", 2.99822295, 5e-9), ("ACOSH(1)", 0, 0),
        ("ACOSH(10)", 2.993222846, 5e-10), ("ATANH(0.76159416)", 1.00000001, 5e-9), ("ATANH(-0.1)", -0.100335348, 5e-10),
        ("GCD(5,2)", 1, 0), ("GCD(24,36)", 12, 0), ("GCD(7,1)", 1, 0), ("GCD(5,0)", 5, 0),
        ("LCM(5,2)", 10, 0), ("LCM(24,36)", 72, 0),
        ("SUM(MUNIT(3))", 3, 0), ("INDEX(MUNIT(3),2,2)", 1, 0), ("INDEX(MUNIT(3),2,3)", 0, 0),
    ]

    static let texts: [(String, String)] = [
        ("ROMAN(499,0)", "CDXCIX"), ("ROMAN(499,1)", "LDVLIV"), ("ROMAN(499,2)", "XDIX"), ("ROMAN(499,3)", "VDIV"),
        ("ROMAN(499,4)", "ID"), ("ROMAN(2013,0)", "MMXIII"), ("ROMAN(499,TRUE)", "CDXCIX"), ("ROMAN(499,FALSE)", "ID"),
        ("ROMAN(0)", ""), ("ROMAN(3999)", "MMMCMXCIX"),
        ("BASE(7,2)", "111"), ("BASE(100,16)", "64"), ("BASE(15,2,10)", "0000001111"),
    ]

    @Test func microsoftExamples() {
        for (f, x, tolerance) in Self.numbers {
            let v = eval(f)
            #expect(v.number.map { Swift.abs($0 - x) <= tolerance } == true, "\(f) = \(v), Microsoft shows \(x)")
        }
        for (f, t) in Self.texts { #expect(eval(f) == .text(t), "\(f)") }
        // SERIESSUM: four terms of the cosine's series at pi/4, coefficients 1, -1/2!, 1/4!, -1/6!.
        let series = ["A3": "=PI()/4", "A4": 1, "A5": "=-1/FACT(2)", "A6": "=1/FACT(4)", "A7": "=-1/FACT(6)"] as [String: Any]
        #expect(eval("SERIESSUM(A3,0,2,A4:A7)", series).number.map { Swift.abs($0 - 0.707103215) < 5e-10 } == true)
    }

    /// Every ROMAN form reads back through ARABIC.
    @Test func romanNumeralsRoundTrip() {
        for n in stride(from: 1, through: 3999, by: 7) {
            for form in 0...4 {
                guard case .text(let s) = eval("ROMAN(\(n),\(form))") else { Issue.record("ROMAN(\(n),\(form))"); continue }
                #expect(eval("ARABIC(\"\(s)\")") == .number(Double(n)), "ARABIC(\(s)) for \(n) form \(form)")
            }
        }
    }

    @Test func hostileArguments() {
        for f in ["ROMAN(-1)", "ROMAN(4000)", "ROMAN(1,5)", "ARABIC(\"ABC\")", "ARABIC(12)", "ARABIC(TRUE)", "MUNIT(0)", "MUNIT(-1)",
                  "MUNIT(\"x\")", "SERIESSUM(TRUE,1,1,{1})", "SQRTPI(TRUE)", "FACTDOUBLE(TRUE)", "MULTINOMIAL(TRUE,1)", "GCD(TRUE,2)",
                  "LCM(\" 2024-01-10 \",7)", "GCD(A1,B1)", "MROUND(TRUE,2)", "QUOTIENT(5,TRUE)"] {
            #expect(eval(f) == .error(.value), "\(f)")
        }
        for f in ["BASE(-1,2)", "BASE(2^53,2)", "BASE(7,1)", "BASE(7,37)", "BASE(7,2,256)", "DECIMAL(\"G\",16)", "DECIMAL(1,37)",
                  "COMBINA(-1,2)", "COMBINA(0,5)", "FACTDOUBLE(-2)", "MULTINOMIAL(-1,2,3)", "SQRTPI(-1)", "GCD(-1,2)", "LCM(2^53,3)",
                  "SERIESSUM(0,0,2,{1,2,3})", "ACOSH(0.5)", "ATANH(1)", "ACOTH(1)", "COT(2^27)", "CSC(-2^27)"] {
            #expect(eval(f) == .error(.number), "\(f)")
        }
        for f in ["COT(0)", "CSC(0)", "COTH(0)", "CSCH(0)"] { #expect(eval(f) == .error(.divisionByZero), "\(f)") }
        #expect(eval("SUMXMY2({1,2},{1,2,3})") == .error(.notAvailable))
        #expect(eval("SUMX2PY2({1,#N/A},{1,2})") == .error(.notAvailable))
        #expect(eval("GCD(,2)") == .error(.notAvailable))
        #expect(eval("MROUND(,2)") == .error(.notAvailable))
        // Empty cells named alone are skipped; a range of empty cells gives LCM 0.
        #expect(eval("LCM(A1,B1,C1)", ["A1": 10, "B1": 3]) == .number(30))
        #expect(eval("LCM(D1:E1)") == .number(0))
        #expect(eval("LCM({4,\"8\",12})") == .number(24))
        #expect(eval("COMBINA(1000,200)").number.map { Swift.abs($0 / 1.6676833067813678e233 - 1) < 1e-12 } == true)
        #expect(eval("EXP(-745)") == .number(0))
        #expect(eval("ROWS(MUNIT(4))") == .number(4))
    }
}
