import Testing
@testable import SheetPortCalc
import SheetPortCore

/// `readCells` and `loadValues`: a loader gives the engine only the constants formulas read,
/// after the formulas, and the results are those of every cell loaded in row order.
@Suite struct ReadCellsTests {
    private func cell(_ text: String) -> CellReference { CellReference(text)! }

    @Test func staticReferencesNameTheCellsRead() {
        let e = CalcEngine()
        let s = e.addSheet("S")
        for r in 2...1_000 { e.setFormula("A\(r)*2+$C$1", at: CellReference(row: r, column: 8), sheet: s) }
        e.setFormula("SUM(E10:E20)", at: cell("J1"), sheet: s)
        e.setFormula("COUNTA(A1:Z1)", at: cell("K1"), sheet: s)
        let read = e.readCells(sheet: s)
        #expect(!read.readsAnyCell && !read.isEmpty)
        #expect(read.contains(row: 2, column: 1) && read.contains(row: 1_000, column: 1))
        #expect(!read.contains(row: 1_001, column: 1) && !read.contains(row: 2, column: 2))
        #expect(read.contains(row: 1, column: 3) && !read.contains(row: 2, column: 3))
        #expect(read.contains(row: 10, column: 5) && read.contains(row: 20, column: 5) && !read.contains(row: 21, column: 5) && !read.contains(row: 9, column: 5))
        // The wide range A1:Z1 is kept whole.
        #expect(read.contains(row: 1, column: 26) && !read.contains(row: 2, column: 26))
        // Hostile coordinates answer false, never trap.
        #expect(!read.contains(row: 0, column: 0) && !read.contains(row: Int.max, column: Int.min) && !read.contains(row: -5, column: 3))
        // Another sheet's cells are not this sheet's.
        let t = e.addSheet("T")
        #expect(e.readCells(sheet: t).isEmpty)
        #expect(e.readCells(sheet: 7).isEmpty && e.readCells(sheet: -1).isEmpty)
    }

    @Test func indirectReadersAndArraysReadEveryCell() {
        for formula in ["INDIRECT(\"B2\")", "SUM(OFFSET(A1,1,1))", "CELL(\"contents\")", "SUM(A1:INDEX(Z:Z,5))", "A1:A3*2"] {
            let e = CalcEngine()
            let s = e.addSheet("S")
            if formula == "A1:A3*2" {
                e.setFormula(formula, at: cell("C1"), sheet: s, arrayRange: CellRange("C1:C3"), isDynamicArray: true)
            } else {
                e.setFormula(formula, at: cell("C1"), sheet: s)
            }
            let read = e.readCells(sheet: s)
            #expect(read.readsAnyCell && read.contains(row: 1_048_576, column: 16_384), "\(formula)")
        }
    }

    /// Constants loaded after the formulas, column by column, interleaved with formulas in one
    /// column: the same values as loading every cell in row order.
    @Test func valuesLoadedAfterFormulasComputeAsInRowOrder() {
        let inOrder = CalcEngine(), later = CalcEngine()
        let a = inOrder.addSheet("S"), b = later.addSheet("S")
        var constants: [(row: Int, value: CalcValue)] = []
        for r in 1...2_001 {
            let at = CellReference(row: r, column: 1)
            if r % 2 == 1 {
                let value = CalcValue.number(Double(r))
                inOrder.setValue(value, at: at, sheet: a)
                constants.append((r, value))
            } else {
                inOrder.setFormula("A\(r - 1)*2", at: at, sheet: a)
                later.setFormula("A\(r - 1)*2", at: at, sheet: b)
            }
        }
        for engine in [inOrder, later] { engine.setFormula("SUM(A:A)", at: cell("B1"), sheet: engine === inOrder ? a : b) }
        #expect(later.readCells(sheet: b).contains(row: 2_001, column: 1))
        // Hostile rows pass over: out of the grid, out of order, an empty value, a row a formula holds.
        let rows = [0, -3] + constants.map(\.row) + [1, 2, 1_048_577, Int.max]
        let values: [CalcValue] = [.number(-1), .number(-1)] + constants.map(\.value) + [.number(-1), .number(-1), .number(-1), .number(-1)]
        later.loadValues(values, rows: rows, column: 1, sheet: b)
        later.loadValues([.number(9), .empty], rows: [1, 2], column: 0, sheet: b)
        later.loadValues([.number(9)], rows: [1], column: 16_385, sheet: b)
        later.loadValues([.number(9)], rows: [1], column: 1, sheet: 5)
        later.loadValues([.empty, .text("x")], rows: [5_000, 5_001], column: 3, sheet: b)
        inOrder.setValue(.text("x"), at: CellReference(row: 5_001, column: 3), sheet: a)
        inOrder.recalculate()
        later.recalculate()
        for r in [1, 2, 3, 1_000, 2_000, 2_001] {
            let at = CellReference(row: r, column: 1)
            #expect(later.value(at: at, sheet: b) == inOrder.value(at: at, sheet: a), "A\(r)")
        }
        #expect(later.value(at: cell("B1"), sheet: b) == inOrder.value(at: cell("B1"), sheet: a))
        #expect(later.value(at: CellReference(row: 5_001, column: 3), sheet: b) == .text("x"))
        // The last row of a column, as the loader asks it before appending; hostile columns and sheets are nil.
        #expect(later.lastRow(ofColumn: 1, sheet: b) == 2_001 && later.lastRow(ofColumn: 3, sheet: b) == 5_001)
        #expect(later.lastRow(ofColumn: 2, sheet: b) == 1 && later.lastRow(ofColumn: 4, sheet: b) == nil)
        for (column, sheet) in [(0, b), (-1, b), (Int.min, b), (Int.max, b), (16_385, b), (1, -1), (1, 9)] {
            #expect(later.lastRow(ofColumn: column, sheet: sheet) == nil, "\(column), \(sheet)")
        }
        #expect(later.value(at: CellReference(row: 2, column: 1), sheet: b) == .number(2))
        // An edit after the load moves the formula reading it.
        _ = later.setInputs([CellInput(location: CellLocation(sheet: b, cell: cell("A1")), content: .value(.number(10)))])
        #expect(later.value(at: cell("A2"), sheet: b) == .number(20))
    }

    /// A sheet loaded in part keeps the used range of all its cells: whole-column references
    /// cut to it answer as with every cell loaded.
    @Test func usedRangeWidensToTheCellsNotLoaded() {
        let whole = CalcEngine(), part = CalcEngine()
        let a = whole.addSheet("S"), b = part.addSheet("S")
        whole.setValue(.number(1), at: cell("T1000"), sheet: a)
        part.extendUsedRange(toRow: 1_000, column: 20, sheet: b)
        // Hostile extents change nothing.
        part.extendUsedRange(toRow: 0, column: -1, sheet: b)
        part.extendUsedRange(toRow: Int.max, column: 3, sheet: b)
        part.extendUsedRange(toRow: 5, column: 5, sheet: 9)
        let formulas = ["ROWS(A:A)", "COUNTBLANK(A:A)", "SUMPRODUCT(--(A:A=\"\"))", "SUMPRODUCT(--(1:1=\"\"))"]
        for (k, formula) in formulas.enumerated() {
            whole.setFormula(formula, at: CellReference(row: 1, column: 30 + k), sheet: a)
            part.setFormula(formula, at: CellReference(row: 1, column: 30 + k), sheet: b)
        }
        whole.recalculate()
        part.recalculate()
        for k in formulas.indices {
            let at = CellReference(row: 1, column: 30 + k)
            #expect(part.value(at: at, sheet: b) == whole.value(at: at, sheet: a), "\(formulas[k])")
        }
    }
}
