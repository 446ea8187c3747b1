import Testing
@testable import SheetPortCalc
import SheetPortCore

/// SIN, COS, TAN reduce their argument by the x87 pi as Excel does, and SUBTOTAL/AGGREGATE skip
/// hidden rows as the engine is told of them.
@Suite struct TrigAndHiddenRowTests {
    static let trig: [(String, CalcValue)] = [
        // Excel's own answers (SIN(PI()) is the well-known 1.22514845490862E-16; the others are
        // cached values Excel wrote in corpus poi__47813.xlsx).
        ("SIN(PI())", .number(1.22514845490862e-16)), ("COS(RADIANS(90))", .number(6.1257422745431e-17)),
        ("COS(RADIANS(270))", .number(-1.83772268236293e-16)), ("SIN(RADIANS(180))", .number(1.22514845490862e-16)),
        ("COS(RADIANS(245))", .number(-0.42261826174069916)), ("SIN(RADIANS(141))", .number(0.6293203910498374)),
        ("SIN(RADIANS(1))", .number(0.01745240643728351)), ("COS(RADIANS(89))", .number(0.0174524064372836)),
        ("SIN(0)", .number(0)), ("COS(0)", .number(1)), ("SIN(-PI()/2)", .number(-1)), ("TAN(0)", .number(0)),
        ("TAN(PI()/4)", .number(1)), ("TAN(-PI()/4)", .number(-1)), ("TAN(1)", .number(1.5574077246549023)),
        ("SIN(\"1\")", .number(0.8414709848078965)), ("SIN(TRUE)", .number(0.8414709848078965)), ("COS(Z1)", .number(1)),
        ("SIN(\"x\")", .error(.value)), ("COS(1/0)", .error(.divisionByZero)), ("SIN(1E-300)", .number(1e-300)),
        ("SIN(134217727)", .number(-0.9559933287726706)), ("SIN(134217728)", .error(.number)), ("COS(-1E308)", .error(.number)),
        ("TAN(2^27)", .error(.number)), ("RADIANS(90)", .number(1.5707963267948966)),
    ]

    @Test(arguments: trig) func trigonometry(_ formula: String, _ expected: CalcValue) {
        let v = eval(formula)
        if case .number(let x) = expected {
            #expect(close(v, x), "\(formula) = \(v), expected \(expected)")
        } else {
            #expect(v == expected, "\(formula) = \(v), expected \(expected)")
        }
    }

    /// B1:B6 = 1, 2, 4, 8, 16, 32; row 2 hidden by hand, row 4 by a filter.
    static func hiddenEngine(_ formulas: [String]) -> CalcEngine {
        let e = CalcEngine(clock: .fixed(unixTime: 0, utcOffsetSeconds: 0), randomSeed: 1)
        let s = e.addSheet("Sheet1")
        for k in 0..<6 { e.setValue(.number(Double(1 << k)), at: CellReference(row: k + 1, column: 2), sheet: s) }
        e.setValue(.error(.divisionByZero), at: CellReference("C2")!, sheet: s)
        e.setValue(.text("7"), at: CellReference("C3")!, sheet: s)
        for (k, f) in formulas.enumerated() { e.setFormula(f, at: CellReference(row: k + 1, column: 5), sheet: s) }
        e.setRowHidden(true, row: 2, sheet: s)
        e.setRowHidden(true, row: 4, sheet: s, filtered: true)
        // Hostile calls change nothing (rows are 1-based: row 0 is no row).
        for row in [0, -1, 1_048_577, 2_000_000, .max, .min] { e.setRowHidden(true, row: row, sheet: s) }
        e.setRowHidden(true, row: 1, sheet: 7)
        e.setRowHidden(true, row: 1, sheet: .max)
        e.recalculate()
        return e
    }

    static let hidden: [(String, CalcValue)] = [
        ("SUBTOTAL(109,B1:B6)", .number(53)), ("SUBTOTAL(9,B1:B6)", .number(55)), ("SUBTOTAL(9,B1:B6,B1)", .number(56)),
        ("SUBTOTAL(102,B1:C6)", .number(4)), ("SUBTOTAL(103,B1:C6)", .number(5)), ("SUBTOTAL(3,B1:C6)", .number(7)),
        ("SUBTOTAL(104,B1:B6)", .number(32)), ("SUBTOTAL(105,B2:B2)", .number(0)), ("SUBTOTAL(101,B2,B4)", .error(.divisionByZero)),
        ("SUBTOTAL(109,B:B)", .number(53)), ("SUBTOTAL(109,C1:C6)", .number(0)), ("SUBTOTAL(9,C1:C6)", .error(.divisionByZero)),
        ("AGGREGATE(9,5,B1:B6)", .number(53)), ("AGGREGATE(9,4,B1:B6)", .number(63)), ("AGGREGATE(9,7,B1:C6)", .number(53)),
        ("AGGREGATE(9,3,B1:C6)", .number(53)), ("AGGREGATE(9,6,B1:C6)", .number(63)), ("AGGREGATE(9,1,B1:C6)", .number(53)),
        ("AGGREGATE(14,5,B1:B6,B2)", .number(16)), ("AGGREGATE(15,1,B1:B6,1)", .number(1)),
    ]

    @Test(arguments: hidden) func subtotalSkipsHiddenRows(_ formula: String, _ expected: CalcValue) {
        let e = Self.hiddenEngine([formula])
        let v = e.value(at: CellReference("E1")!, sheet: 0)
        #expect(v == expected, "\(formula) = \(v), expected \(expected)")
    }

    @Test func showingARowRecomputes() {
        let e = Self.hiddenEngine(["SUBTOTAL(109,B1:B6)"])
        #expect(e.isRowHidden(row: 2, sheet: 0))
        #expect(!e.isRowHidden(row: 2, sheet: 0, filteredOnly: true))
        #expect(e.isRowHidden(row: 4, sheet: 0, filteredOnly: true))
        #expect(!e.isRowHidden(row: 1, sheet: 0) && !e.isRowHidden(row: 3, sheet: 0))
        #expect(!e.isRowHidden(row: 2_000_000, sheet: 0) && !e.isRowHidden(row: 1, sheet: 7))
        #expect(!e.isRowHidden(row: 0, sheet: 0) && !e.isRowHidden(row: .min, sheet: 0) && !e.isRowHidden(row: 1, sheet: .max))
        e.setRowHidden(false, row: 2, sheet: 0)
        e.recalculate()
        #expect(e.value(at: CellReference("E1")!, sheet: 0) == .number(55))
    }
}
