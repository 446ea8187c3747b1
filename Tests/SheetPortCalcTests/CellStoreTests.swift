import Testing
@testable import SheetPortCalc
import SheetPortCore

/// The engine's sparse cell storage: a sheet's columns by number (ColumnMap) and each column's
/// rows in order (ColumnIndex), filled in any order, at the grid's edges, emptied and refilled.
@Suite struct CellStoreTests {
    @Test func columnMapStoresOnlyWhatIsSet() {
        var map = ColumnMap()
        #expect(map[0] == nil)
        #expect(map[maxColumnIndex] == nil)
        #expect(map[-1] == nil)
        // Removing from a column never stored stores nothing.
        map[16_000]?.remove(3)
        #expect(map[16_000] == nil)
        #expect(map.columns(0, maxColumnIndex).isEmpty)
        map[maxColumnIndex, default: ColumnIndex()].insert(7, 1)
        map[2, default: ColumnIndex()].insert(5, 2)
        map[2, default: ColumnIndex()].insert(1, 3)
        #expect(map.columns(0, maxColumnIndex) == [2, maxColumnIndex])
        #expect(map.columns(3, maxColumnIndex - 1).isEmpty)
        #expect(map.columns(-5, 2) == [2])
        #expect(map[2]?.rows == [1, 5])
        #expect(map[2]?.ids == [3, 2])
        map[2] = nil
        #expect(map.columns(0, maxColumnIndex) == [maxColumnIndex])
        #expect(map[maxColumnIndex]?.find(7) == 1)
    }

    @Test func columnIndexKeepsRowsOrderedWhateverTheInsertionOrder() {
        var column = ColumnIndex()
        for (k, row) in [Int32(9), 3, 12, 0, 7, 12, maxRowIndex, 3].enumerated() { column.insert(row, Int32(k)) }
        #expect(column.rows == [0, 3, 7, 9, 12, maxRowIndex])
        // A row set again keeps its place and takes the new id.
        #expect(column.find(12) == 5)
        #expect(column.find(3) == 7)
        column.remove(9)
        column.remove(4)
        #expect(column.rows == [0, 3, 7, 12, maxRowIndex])
        #expect(column.positions(1, 12) == 1..<4)
        #expect(column.positions(13, 100).isEmpty)
    }

    @Test func engineCellsSetOutOfOrderClearedAndRefilled() {
        let e = CalcEngine()
        let s = e.addSheet("S")
        // Bottom-up and right-to-left, then the grid's last column and row.
        for r in stride(from: Int32(99), through: 0, by: -1) {
            e.setValue(.number(Double(r + 1)), at: CellReference(row: Int(r) + 1, column: 4), sheet: s)
        }
        e.setValue(.number(1000), at: CellReference(row: CellReference.maxRow, column: CellReference.maxColumn), sheet: s)
        e.setFormula("SUM(D:D)", at: CellReference("A1")!, sheet: s)
        e.setFormula("SUM(A2:XFD1048576)", at: CellReference("B1")!, sheet: s)
        e.recalculate()
        #expect(e.value(at: CellReference("A1")!, sheet: s) == .number(5050))
        #expect(e.value(at: CellReference("B1")!, sheet: s) == .number(5050 - 1 + 1000))
        // Emptied cells leave no value behind; cells set again are found.
        for r in Int32(0)..<50 { e.clearCell(at: CellReference(row: Int(r) + 1, column: 4), sheet: s) }
        e.setValue(.number(1), at: CellReference(row: 11, column: 4), sheet: s)
        e.recalculate()
        #expect(e.value(at: CellReference("A1")!, sheet: s) == .number(Double((51...100).reduce(0, +) + 1)))
        #expect(e.value(at: CellReference(row: 21, column: 4), sheet: s) == .empty)
    }

    /// The API takes Core's 1-based references and converts them at its edge: a reference
    /// outside the grid (row or column 0, past XFD1048576, or past Int32) sets nothing, reads
    /// empty and never traps.
    @Test func referencesOutsideTheGridAreIgnored() {
        let e = CalcEngine()
        let s = e.addSheet("S")
        let outside = [(0, 1), (1, 0), (-1, 1), (1_048_577, 1), (1, 16_385), (Int.max, Int.max), (Int.min, Int.min), (Int(Int32.max) + 2, 1)]
        for (row, column) in outside {
            e.setValue(.number(1), at: CellReference(row: row, column: column), sheet: s)
            #expect(e.setFormula("1+1", at: CellReference(row: row, column: column), sheet: s) == nil)
            e.setInputs([CellInput(location: CellLocation(sheet: s, cell: CellReference(row: row, column: column)), content: .value(.number(2)))])
            e.clearCell(at: CellReference(row: row, column: column), sheet: s)
            #expect(e.value(at: CellReference(row: row, column: column), sheet: s) == .empty)
            #expect(e.formula(at: CellReference(row: row, column: column), sheet: s) == nil)
            #expect(!e.hasFormula(at: CellReference(row: row, column: column), sheet: s))
        }
        e.setFormula("SUM(B:XFD)", at: CellReference("A1")!, sheet: s)
        e.setValue(.number(5), at: CellReference("XFD1048576")!, sheet: s)
        e.recalculate()
        #expect(e.value(at: CellReference("A1")!, sheet: s) == .number(5))
        // The corners map to the engine's zero-based indexes and back.
        #expect(CellIndex(inGrid: CellReference("A1")!) == CellIndex(row: 0, column: 0))
        #expect(CellIndex(inGrid: CellReference("XFD1048576")!) == CellIndex(row: maxRowIndex, column: maxColumnIndex))
        #expect(CellIndex(row: maxRowIndex, column: maxColumnIndex).reference == CellReference("XFD1048576")!)
        #expect(CellIndex(CellReference(row: .max, column: .min)) == CellIndex(row: .max, column: .min))
    }
}
