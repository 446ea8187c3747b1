import Testing
@testable import SheetPortCalc
import SheetPortCore

/// The engineering functions. `microsoftExamples` are the example tables of Microsoft's function
/// reference (support.microsoft.com, "<NAME> function" articles, e.g.
/// https://support.microsoft.com/en-us/office/besselj-function-839cb181-48de-408b-9d80-bd02982d94f7):
/// each formula with the result the article shows, to the digits it shows. Results the articles do
/// not give (Excel's errors and its approximations) come from the Excel-computed workbooks of
/// ../shared/calc-suite (IronCalc's calc_tests/ENGINEERING), said where used.
@Suite struct EngineeringFunctionTests {
    /// Formula, number shown by Microsoft, half a unit of its last shown digit.
    static let numbers: [(String, Double, Double)] = [
        ("BESSELI(1.5,1)", 0.981666428, 5e-10), ("BESSELJ(1.9,2)", 0.329925829, 5e-10),
        ("BESSELK(1.5,1)", 0.277387804, 5e-10), ("BESSELY(2.5,1)", 0.145918138, 5e-10),
        ("BIN2DEC(1100100)", 100, 0), ("BIN2DEC(1111111111)", -1, 0),
        ("BITAND(1,5)", 1, 0), ("BITAND(13,25)", 9, 0), ("BITOR(23,10)", 31, 0), ("BITXOR(5,3)", 6, 0),
        ("BITLSHIFT(4,2)", 16, 0), ("BITRSHIFT(13,2)", 3, 0),
        ("CONVERT(1,\"lbm\",\"kg\")", 0.4535924, 5e-8), ("CONVERT(68,\"F\",\"C\")", 20, 1e-12),
        ("CONVERT(CONVERT(100,\"ft\",\"m\"),\"ft\",\"m\")", 9.290304, 5e-7),
        ("DELTA(5,4)", 0, 0), ("DELTA(5,5)", 1, 0), ("DELTA(0.5,0)", 0, 0),
        ("ERF(0.745)", 0.70792892, 5e-9), ("ERF(1)", 0.84270079, 5e-9), ("ERF.PRECISE(0.745)", 0.70792892, 5e-9),
        ("ERF.PRECISE(1)", 0.84270079, 5e-9), ("ERFC(1)", 0.15729921, 5e-9), ("ERFC.PRECISE(1)", 0.15729921, 5e-9),
        ("GESTEP(5,4)", 1, 0), ("GESTEP(5,5)", 1, 0), ("GESTEP(-4,-5)", 1, 0), ("GESTEP(-1)", 0, 0),
        ("HEX2DEC(\"A5\")", 165, 0), ("HEX2DEC(\"FFFFFFFF5B\")", -165, 0), ("HEX2DEC(\"3DA408B9\")", 1_034_160_313, 0),
        ("OCT2DEC(54)", 44, 0), ("OCT2DEC(7777777533)", -165, 0),
        ("IMABS(\"5+12i\")", 13, 0), ("IMAGINARY(\"3+4i\")", 4, 0), ("IMAGINARY(\"0-j\")", -1, 0), ("IMAGINARY(4)", 0, 0),
        ("IMARGUMENT(\"3+4i\")", 0.92729522, 5e-9), ("IMREAL(\"6-9i\")", 6, 0),
    ]

    static let texts: [(String, String)] = [
        ("BIN2HEX(11111011,4)", "00FB"), ("BIN2HEX(1110)", "E"), ("BIN2HEX(1111111111)", "FFFFFFFFFF"),
        ("BIN2OCT(1001,3)", "011"), ("BIN2OCT(1100100)", "144"), ("BIN2OCT(1111111111)", "7777777777"),
        ("COMPLEX(3,4)", "3+4i"), ("COMPLEX(3,4,\"j\")", "3+4j"), ("COMPLEX(0,1)", "i"), ("COMPLEX(1,0)", "1"),
        ("DEC2BIN(9,4)", "1001"), ("DEC2BIN(-100)", "1110011100"), ("DEC2HEX(100,4)", "0064"), ("DEC2HEX(-54)", "FFFFFFFFCA"),
        ("DEC2HEX(28)", "1C"), ("DEC2OCT(58,3)", "072"), ("DEC2OCT(-100)", "7777777634"),
        ("HEX2BIN(\"F\",8)", "00001111"), ("HEX2BIN(\"B7\")", "10110111"), ("HEX2BIN(\"FFFFFFFFFF\")", "1111111111"),
        ("HEX2OCT(\"F\",3)", "017"), ("HEX2OCT(\"3B4E\")", "35516"), ("HEX2OCT(\"FFFFFFFF00\")", "7777777400"),
        ("OCT2BIN(3,3)", "011"), ("OCT2BIN(7777777000)", "1000000000"), ("OCT2HEX(100,4)", "0040"),
        ("OCT2HEX(7777777533)", "FFFFFFFF5B"),
        ("IMCONJUGATE(\"3+4i\")", "3-4i"), ("IMDIV(\"-238+240i\",\"10+24i\")", "5+12i"), ("IMPRODUCT(\"3+4i\",\"5-3i\")", "27+11i"),
        ("IMPRODUCT(\"1+2i\",30)", "30+60i"), ("IMSUB(\"13+4i\",\"5+3i\")", "8+i"), ("IMSUM(\"3+4i\",\"5-3i\")", "8+i"),
    ]

    /// Complex results Microsoft shows with 15 digits: compared by their parts.
    static let complexes: [(String, Double, Double)] = [
        ("IMCOS(\"1+i\")", 0.833730025131149, -0.988897705762865), ("IMCOSH(\"4+3i\")", -27.0349456030742, 3.85115333481178),
        ("IMCOT(\"4+3i\")", 0.0049011823943045, -0.999266927805902), ("IMCSC(\"4+3i\")", -0.0754898329158637, 0.0648774713706355),
        ("IMCSCH(\"4+3i\")", -0.036275889628626, -0.0051744731840194), ("IMEXP(\"1+i\")", 1.46869393991589, 2.28735528717884),
        ("IMLN(\"3+4i\")", 1.6094379124341, 0.927295218001612), ("IMLOG10(\"3+4i\")", 0.698970004336019, 0.402719196273373),
        ("IMLOG2(\"3+4i\")", 2.32192809488736, 1.33780421245098), ("IMPOWER(\"2+3i\",3)", -46, 9.00000000000001),
        ("IMSEC(\"4+3i\")", -0.0652940278579471, -0.0752249603027732), ("IMSECH(\"4+3i\")", -0.0362534969158689, -0.00516434460775318),
        ("IMSIN(\"4+3i\")", -7.61923172032141, -6.548120040911), ("IMSINH(\"-4+3i\")", 27.0168132580039, 3.85373803791938),
        ("IMSQRT(\"1+i\")", 1.09868411346781, 0.455089860562227), ("IMTAN(\"4+3i\")", 0.00490825806749606, 1.00070953606723),
    ]

    @Test func microsoftExamples() {
        for (f, x, tolerance) in Self.numbers {
            let v = eval(f)
            #expect(v.number.map { Swift.abs($0 - x) <= tolerance } == true, "\(f) = \(v), Microsoft shows \(x)")
        }
        for (f, t) in Self.texts { #expect(eval(f) == .text(t), "\(f)") }
        for (f, re, im) in Self.complexes {
            let r = eval("IMREAL(\(f))"), i = eval("IMAGINARY(\(f))")
            #expect(r.number.map { Swift.abs($0 - re) <= Swift.abs(re) * 1e-13 } == true, "\(f) real part \(r), Microsoft shows \(re)")
            #expect(i.number.map { Swift.abs($0 - im) <= Swift.abs(im) * 1e-13 } == true, "\(f) imaginary part \(i), Microsoft shows \(im)")
        }
        #expect(eval("DEC2HEX(64,1)") == .error(.number))
        #expect(eval("CONVERT(2.5,\"ft\",\"sec\")") == .error(.notAvailable))
    }

    /// Excel's own approximations and errors (calc-suite ENGINEERING__BESSEL, __NUMBER_SYSTEMS,
    /// __COMPLEXs, __CONVERT, __BITs).
    @Test func excelsValuesAndErrors() {
        // Numerical Recipes' polynomial: the sum of its coefficients at x = 2.
        #expect(close(eval("BESSELK(2,0)"), 0.11389388))
        #expect(close(eval("BESSELJ(0,0)"), 1.00000000283141))
        #expect(close(eval("BESSELI(0.2,7)"), 1.9866085100212153e-11))
        #expect(eval("BESSELK(0,1)") == .error(.number))
        #expect(eval("BESSELY(-1,1)") == .error(.number))
        #expect(eval("BESSELJ(1,-1)") == .error(.number))
        #expect(eval("BESSELI(TRUE,1)") == .error(.value))
        #expect(eval("BIN2HEX(1100011011,0)") == .error(.number))
        #expect(eval("COMPLEX(1E-16,0)") == .text("0.0000000000000001"))
        #expect(eval("COMPLEX(1E-20,0)") == .text("1E-20"))
        #expect(eval("COMPLEX(1.2E-45,-3)") == .text("1.2E-45-3i"))
        #expect(eval("CONVERT(0.004,\"Mmph\",\"m/s\")").number.map { Swift.abs($0 - 1788.16) < 1e-9 } == true)
        #expect(close(eval("CONVERT(1,\"kibyte\",\"bit\")"), 8192))
        #expect(close(eval("CONVERT(1,\"km2\",\"m2\")"), 1e6))
        #expect(close(eval("CONVERT(100,\"C\",\"F\")"), 212))
        #expect(eval("CONVERT(1,\"kC\",\"K\")") == .error(.notAvailable))
        #expect(eval("BITAND(TRUE,5)") == .number(1))
        #expect(eval("IMPRODUCT(A1,B1)", ["B1": 7]) == .text("0"))
    }

    @Test func hostileArguments() {
        for f in ["BIN2DEC(12)", "BIN2DEC(10000000000)", "HEX2DEC(\"G\")", "OCT2DEC(8)", "DEC2BIN(512)", "DEC2BIN(-513)",
                  "DEC2OCT(536870912)", "DEC2HEX(549755813888)", "HEX2BIN(\"200\")", "BIN2DEC(1.5)", "DEC2BIN(1,11)", "DEC2BIN(1,-1)",
                  "BITAND(-1,1)", "BITAND(2^48,1)", "BITAND(1.5,1)", "BITLSHIFT(1,54)", "BITLSHIFT(2^47,1)", "BESSELJ(1,1E9)",
                  "IMABS(\"3+4k\")", "IMABS(\"i3\")", "IMABS(\"3 + 4i\")", "IMDIV(1,0)", "IMLN(0)", "IMPOWER(0,0)", "FACTDOUBLE(-2)"] {
            #expect(eval(f) == .error(.number), "\(f)")
        }
        for f in ["BIN2DEC(TRUE)", "DEC2BIN(TRUE)", "ERF(TRUE)", "DELTA(\"x\")", "GESTEP(TRUE)", "COMPLEX(1,1,\"I\")", "COMPLEX(\"a\",1)",
                  "IMSUM(\"1+i\",\"1+j\")", "IMABS(TRUE)", "CONVERT(TRUE,\"m\",\"ft\")", "BESSELJ(\"x\",1)"] {
            #expect(eval(f) == .error(.value), "\(f)")
        }
        #expect(eval("IMARGUMENT(0)") == .error(.divisionByZero))
        #expect(eval("CONVERT(1,\"m\",\"xyz\")") == .error(.notAvailable))
        #expect(eval("BIN2DEC(#N/A)") == .error(.notAvailable))
        #expect(eval("ERF(1E308)") == .number(1))
        #expect(eval("ERFC(-1E308)") == .number(2))
        #expect(eval("BESSELI(1E300,1)") == .error(.number))
        #expect(eval("CONVERT(1E308,\"km\",\"mm\")") == .error(.number))
        // Arrays lift element by element.
        #expect(eval("SUM(BIN2DEC({\"1\",\"11\",\"111\"}))") == .number(11))
    }
}

extension EngineeringFunctionTests {
    /// Tiny parts keep their digits (the peer differential found 1E-300 written 1.00000000003612E-300).
    @Test func tinyPartsKeepTheirDigits() {
        #expect(eval("IMCONJUGATE(1E-300)") == .text("1E-300"))
        #expect(eval("1E-300&\"\"") == .text("1E-300"))
        #expect(eval("COMPLEX(2.5E-307,1)") == .text("2.5E-307+i"))
    }
}
