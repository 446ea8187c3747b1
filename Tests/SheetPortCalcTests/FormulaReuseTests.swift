import Testing
@testable import SheetPortCalc
import SheetPortCore

/// A filled column's formulas are recognised as one compiled formula without parsing each text
/// (`FormulaTemplate`); texts that only look copied are parsed and evaluate as written.
@Suite struct FormulaReuseTests {
    /// Sets `formulas` top to bottom in column `column` from row 1 (zero-based 0), after the constants.
    func column(_ formulas: [String], column: Int32 = 1, constants: [String: CalcValue] = [:]) -> CalcEngine {
        let e = CalcEngine(clock: .fixed(unixTime: 0), randomSeed: 1)
        let s = e.addSheet("S")
        for (ref, v) in constants { e.setValue(v, at: CellReference(ref)!, sheet: s) }
        for (k, f) in formulas.enumerated() { e.setFormula(f, at: CellReference(row: k + 1, column: Int(column) + 1), sheet: s) }
        e.recalculate()
        return e
    }

    func value(_ e: CalcEngine, _ ref: String) -> CalcValue { e.value(at: CellReference(ref)!, sheet: 0) }

    @Test func filledColumnSharesOneFormula() {
        let n = 5_000
        var constants: [String: CalcValue] = ["A1": .number(10)]
        for r in 2...n { constants["A\(r)"] = .number(Double(r)) }
        // B1 = A1*2 and the running total C2 = C1+B2, both copied down.
        let e = CalcEngine(clock: .fixed(unixTime: 0), randomSeed: 1)
        let s = e.addSheet("S")
        for (ref, v) in constants { e.setValue(v, at: CellReference(ref)!, sheet: s) }
        var total = 0.0
        for r in 1...n {
            e.setFormula("A\(r)*2+$A$1", at: CellReference(row: r, column: 2), sheet: s)
            e.setFormula(r == 1 ? "B1" : "C\(r - 1)+B\(r)", at: CellReference(row: r, column: 3), sheet: s)
            total += (r == 1 ? 10 : Double(r)) * 2 + 10
        }
        e.recalculate()
        #expect(e.compiledFormulaCount == 3)
        #expect(value(e, "B\(n)") == .number(Double(n) * 2 + 10))
        #expect(value(e, "C\(n)") == .number(total))
        #expect(e.formula(at: CellReference("C\(n)")!, sheet: s) == "C\(n - 1)+B\(n)")
    }

    @Test func textsThatOnlyLookCopiedAreParsed() {
        // LOG10 then LOG11: the digits of a function name are not a row number.
        let logs = column(["LOG10(A1)", "LOG11(A2)"], constants: ["A1": .number(100), "A2": .number(100)])
        #expect(value(logs, "B1") == .number(2))
        #expect(value(logs, "B2") == .error(.name))
        // A reference two rows down, not one: a different formula, not the first copied.
        let skip = column(["A1*2", "A3*2"], constants: ["A1": .number(1), "A2": .number(2), "A3": .number(3)])
        #expect(value(skip, "B2") == .number(6))
        #expect(skip.compiledFormulaCount == 2)
        // Spaces, lower case, a leading zero in a row number: parsed, the same value as written.
        let spaced = column(["A1 * 2", "A2 * 2", "a3*2", "A04*2"], constants: ["A1": .number(1), "A2": .number(2), "A3": .number(3), "A4": .number(4)])
        #expect(value(spaced, "B2") == .number(4))
        #expect(value(spaced, "B3") == .number(6))
        #expect(value(spaced, "B4") == .number(8))
        // Text literals that look like references or hold the template's marker byte stay text.
        let literal = column(["\"A1\"&A1", "\"A1\"&A2", "\"\u{1}\"&A1", "\"\u{1}\"&A4"], constants: ["A1": .text("x"), "A2": .text("y"), "A4": .text("z")])
        #expect(value(literal, "B1") == .text("A1x"))
        #expect(value(literal, "B2") == .text("A1y"))
        #expect(value(literal, "B3") == .text("\u{1}x"))
        #expect(value(literal, "B4") == .text("\u{1}z"))
        // A trailing character after a matching prefix.
        let tail = column(["A1+1", "A2+1)", "A3+10"], constants: ["A1": .number(1), "A3": .number(1)])
        #expect(value(tail, "B1") == .number(2))
        #expect(tail.report.unsupportedFormulas.map(\.location.cell) == [CellReference("B2")!])
        #expect(value(tail, "B3") == .number(11))
    }

    @Test func wholeColumnsAndAbsoluteReferencesCopy() {
        // SUM(A:A) copied down stays A:A; $A$1 stays; a column to the right is another column's formula.
        let e = CalcEngine(clock: .fixed(unixTime: 0), randomSeed: 1)
        let s = e.addSheet("S")
        for r in 0..<4 { e.setValue(.number(Double(r + 1)), at: CellReference(row: r + 1, column: 1), sheet: s) }
        for r in 0..<4 {
            e.setFormula("SUM(A:A)+$A$1", at: CellReference(row: r + 1, column: 2), sheet: s)
            e.setFormula("SUM(A:A)+$A$1", at: CellReference(row: r + 1, column: 3), sheet: s)
        }
        e.recalculate()
        for r in 1...4 {
            #expect(value(e, "B\(r)") == .number(11))
            #expect(value(e, "C\(r)") == .number(11))
        }
        #expect(e.compiledFormulaCount == 2)
    }

    @Test func referencesMovedOffTheGridAreParsed() {
        // B2 = A1+1; at B1 the same shape would read the row above the first: B1's text is parsed.
        let e = CalcEngine(clock: .fixed(unixTime: 0), randomSeed: 1)
        let s = e.addSheet("S")
        e.setValue(.number(5), at: CellReference("A1")!, sheet: s)
        e.setFormula("A1+1", at: CellReference("B2")!, sheet: s)
        e.setFormula("A1+1", at: CellReference("B1")!, sheet: s)
        e.setFormula("XFD1+1", at: CellReference("B3")!, sheet: s)
        e.setFormula("XFD2+1", at: CellReference("B4")!, sheet: s)
        e.recalculate()
        #expect(value(e, "B2") == .number(6))
        #expect(value(e, "B1") == .number(6))
        #expect(value(e, "B4") == .number(1))
        #expect(e.formula(at: CellReference("B4")!, sheet: s) == "XFD2+1")
    }
}
