import Testing
@testable import SheetPortCalc
import SheetPortCore

/// CELL("width") over the column layouts a file can give (no widths, width 0, hidden, 255, runs
/// past the grid, overlapping runs) and CELL without a reference over the selected cell.
@Suite struct CellWidthTests {
    func engine(_ setUp: (CalcEngine, Int) -> Void) -> (CalcEngine, Int) {
        let e = CalcEngine(clock: .fixed(unixTime: 0, utcOffsetSeconds: 0), randomSeed: 1)
        let s = e.addSheet("Sheet1")
        _ = e.addSheet("Other")
        setUp(e, s)
        return (e, s)
    }

    /// The value of `formula` in a cell of `sheet`.
    func value(_ formula: String, _ e: CalcEngine, sheet s: Int = 0) -> CalcValue {
        e.setFormula(formula, at: CellReference("Z1")!, sheet: s)
        e.recalculate()
        return e.value(at: CellReference("Z1")!, sheet: s)
    }

    /// CELL("width", ...) in a cell shows the width; whether it is the default is its second item.
    func width(_ formula: String, _ e: CalcEngine, sheet s: Int = 0) -> [CalcValue] {
        [value(formula, e, sheet: s), value("INDEX(\(formula),1,2)", e, sheet: s)]
    }

    func pair(_ width: Double, _ isDefault: Bool) -> [CalcValue] { [.number(width), .boolean(isDefault)] }

    @Test func widthsRoundToIntegersAndTellTheDefault() {
        let (e, s) = engine { e, s in
            e.setColumnWidth(10.71, columns: 2...2, sheet: s)     // B
            e.setColumnWidth(0, columns: 3...3, sheet: s)         // C: zero wide
            e.setColumnWidth(255, columns: 4...5, sheet: s)       // D:E
            e.setColumnWidth(12.49, columns: 6...1_000_000, sheet: s) // F onwards, past the grid
            e.setColumnWidth(3, columns: 7...7, sheet: s)         // G: a later run wins
        }
        #expect(width("CELL(\"width\",A1)", e, sheet: s) == pair(8, true))
        #expect(width("CELL(\"width\",B9:C9)", e, sheet: s) == pair(11, false))
        #expect(width("CELL(\"width\",C1)", e, sheet: s) == pair(0, false))
        #expect(width("CELL(\"width\",E1)", e, sheet: s) == pair(255, false))
        #expect(width("CELL(\"width\",XFD1)", e, sheet: s) == pair(12, false))
        #expect(width("CELL(\"width\",G1)", e, sheet: s) == pair(3, false))
        #expect(width("CELL(\"width\",Other!B1)", e, sheet: s) == pair(8, true))
        #expect(value("INDEX(CELL(\"WIDTH\",B1),1,1)*2", e, sheet: s) == .number(22))
    }

    @Test func hostileWidthsAreIgnored() {
        let (e, s) = engine { e, s in
            e.setDefaultColumnWidth(10, sheet: s)
            e.setColumnWidth(-4, columns: 1...1, sheet: s)
            e.setColumnWidth(.nan, columns: 2...2, sheet: s)
            e.setColumnWidth(.infinity, columns: 3...3, sheet: s)
            e.setColumnWidth(5, columns: 0...0, sheet: s)         // no such column
            e.setColumnWidth(5, columns: 20_000...30_000, sheet: s) // past the grid
            e.setColumnWidth(5, columns: 1...1, sheet: 7)         // no such sheet
            e.setDefaultColumnWidth(-1, sheet: s)
        }
        for ref in ["A1", "B1", "C1", "XFD1"] {
            #expect(width("CELL(\"width\",\(ref))", e, sheet: s) == pair(10, true), "\(ref)")
        }
    }

    @Test func withoutAReferenceCellAnswersForTheSelectedCell() {
        let (e, s) = engine { e, s in
            e.setColumnWidth(20, columns: 3...3, sheet: 1)
            e.setValue(.text("picked"), at: CellReference("C4")!, sheet: 1)
            e.setSelectedCell(CellReference("C4")!, sheet: 1)
        }
        #expect(width("CELL(\"width\")", e, sheet: s) == pair(20, false))
        #expect(value("CELL(\"address\")", e, sheet: s) == .text("Other!$C$4"))
        #expect(value("CELL(\"contents\")", e, sheet: s) == .text("picked"))
        #expect(value("CELL(\"row\")+CELL(\"col\")", e, sheet: s) == .number(7))
        // Cleared, out of the grid, on no sheet: no selected cell, #VALUE! as before.
        for cell in [nil, CellReference(row: 0, column: 1), CellReference(row: 1, column: 16_385), CellReference(row: 1_048_577, column: 1)] {
            e.setSelectedCell(cell, sheet: 1)
            #expect(value("CELL(\"row\")", e, sheet: s) == .error(.value), "\(String(describing: cell))")
        }
        e.setSelectedCell(CellReference("A1")!, sheet: 9)
        #expect(value("CELL(\"width\")", e, sheet: s) == .error(.value))
    }
}
