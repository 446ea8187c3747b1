import Testing
@testable import SheetPortCalc
import SheetPortCore

/// CHAR and CODE in the character set of the platform (Microsoft's CHAR reference: "Windows: ANSI
/// character set; Macintosh: Macintosh character set"). The Mac values are those Excel for Mac
/// cached in the calculation suite's `formulas__test.xlsx` (CORE!B159:B161, TEXT!S7).
@Suite struct CodePageTests {
    func value(_ formula: String, _ codePage: CodePage) -> CalcValue {
        let e = CalcEngine(randomSeed: 1)
        e.codePage = codePage
        let s = e.addSheet("S")
        e.setFormula(formula, at: CellReference("A1")!, sheet: s)
        e.recalculate()
        return e.value(at: CellReference("A1")!, sheet: s)
    }

    @Test func charAndCodeFollowThePlatformsCharacterSet() {
        let cases: [(String, CalcValue, CalcValue)] = [
            ("CHAR(65)", .text("A"), .text("A")),
            ("CHAR(128)", .text("€"), .text("Ä")),
            ("CHAR(129)", .text("\u{81}"), .text("Å")),
            ("CHAR(130)", .text("‚"), .text("Ç")),
            ("CHAR(157)", .text("\u{9D}"), .text("ù")),
            ("CHAR(219)", .text("Û"), .text("€")),
            ("CHAR(255)", .text("ÿ"), .text("ˇ")),
            ("CODE(\"€\")", .number(128), .number(219)),
            ("CODE(\"Ä\")", .number(196), .number(128)),
            ("CODE(\"ü\")", .number(252), .number(159)),
            ("CODE(CHAR(129))", .number(129), .number(129)),
            ("UNICODE(CHAR(128))", .number(8364), .number(196)),
            // Apple's current Mac Roman, not glibc's older one: the increment sign and the Apple logo (CORE!B229, B271).
            ("CHAR(198)", .text("Æ"), .text("∆")),
            ("CHAR(240)", .text("ð"), .text("\u{F8FF}")),
            ("UNICODE(CHAR(198))", .number(198), .number(8710)),
            ("UNICODE(CHAR(240))", .number(240), .number(63743)),
            ("CODE(\"∆\")", .number(63), .number(198)),
            ("CODE(\"Δ\")", .number(63), .number(63)),
        ]
        for (formula, windows, mac) in cases {
            #expect(value(formula, .windowsANSI) == windows, "\(formula) on Windows")
            #expect(value(formula, .macintosh) == mac, "\(formula) on the Mac")
        }
    }

    @Test func hostileArgumentsAreExcelsErrors() {
        for codePage in [CodePage.windowsANSI, .macintosh] {
            for formula in ["CHAR(0)", "CHAR(256)", "CHAR(-1)", "CHAR(1E300)", "CHAR(\"x\")", "CODE(\"\")"] {
                #expect(value(formula, codePage) == .error(.value), "\(formula)")
            }
            #expect(value("CODE(\"𝄞\")", codePage) == .number(63), "a character outside the code page is ?")
            #expect(value("CODE(\"ア\")", codePage) == .number(63))
        }
    }

    @Test func theApplicationNamesThePlatform() {
        #expect(CodePage(application: "Microsoft Macintosh Excel") == .macintosh)
        #expect(CodePage(application: "Microsoft Excel") == .windowsANSI)
        #expect(CodePage(application: "LibreOffice/7.4") == .windowsANSI)
        #expect(CodePage(application: nil) == .windowsANSI)
    }
}
