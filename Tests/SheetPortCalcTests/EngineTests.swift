import Testing
@testable import SheetPortCalc
import SheetPortCore

/// Hostile workbooks: each finishes without recursion or materialising huge ranges (results asserted, never timings).
@Suite struct HostileTests {
    @Test func longChainAndRunningTotal() {
        let e = CalcEngine()
        let s = e.addSheet("S")
        let n: Int32 = 200_000
        // Column A counts up from the bottom (A1 needs all 199,999 cells below it first: a deep
        // dependency path walked with an explicit stack); column B is a running total downwards.
        for r in 1...n {
            if r == n {
                e.setValue(.number(1), at: CellReference(row: Int(r), column: 1), sheet: s)
            } else {
                e.setFormula("A\(r + 1)+1", at: CellReference(row: Int(r), column: 1), sheet: s)
            }
            e.setFormula(r == 1 ? "A1" : "B\(r - 1)+1", at: CellReference(row: Int(r), column: 2), sheet: s)
        }
        e.recalculate()
        #expect(e.value(at: CellReference("A1")!, sheet: s) == .number(Double(n)))
        #expect(e.value(at: CellReference(row: Int(n), column: 2), sheet: s) == .number(Double(n) + Double(n - 1)))
        #expect(e.compiledFormulaCount == 3)
        #expect(e.report.circularReferences.isEmpty)
        #expect(e.evaluationCount == Int(2 * n - 1))
    }

    @Test func wholeSheetRangesReadOnlyStoredCells() {
        let e = engine(["A1": 1, "XFD1048576": 2, "M500000": 3, "B2": "=SUM(A:XFD)", "B3": "=SUM(A:A)", "B4": "=COUNTA(1:1048576)",
                        "B5": "=SUMPRODUCT((A1:A1048576>0)*1)", "B6": "=MATCH(3,M:M,0)", "B7": "=COUNTBLANK(A:A)"])
        #expect(e.value(at: CellReference("B2")!, sheet: 0) == .error(.reference) || e.value(at: CellReference("B2")!, sheet: 0) == .number(0))
        #expect(e.value(at: CellReference("B3")!, sheet: 0) == .number(1))
        #expect(e.value(at: CellReference("B6")!, sheet: 0) == .number(500_000))
        #expect(e.value(at: CellReference("B7")!, sheet: 0) == .number(1_048_575))
    }

    @Test func sumOfEverySheetCellOutsideItself() {
        let e = engine(["A1": 1, "XFD1048576": 2, "M500000": 3, "B2": "=SUM(C:XFD)+SUM(A:A)", "B3": "=COUNT(C:XFD)"])
        #expect(e.value(at: CellReference("B2")!, sheet: 0) == .number(6))
        #expect(e.value(at: CellReference("B3")!, sheet: 0) == .number(2))
    }

    @Test func selfReferenceIsCircular() {
        let e = engine(["A1": "=A1+1", "B1": "=A1+5", "C1": "=SUM(C1:C2)"])
        #expect(e.value(at: CellReference("A1")!, sheet: 0) == .number(0))
        // B1 reads a circular reference: with iteration off Excel does not compute it either (0).
        #expect(e.value(at: CellReference("B1")!, sheet: 0) == .number(0))
        #expect(e.report.circularReferences.map(\.cell.description) == ["A1", "C1"])
    }

    @Test func longCycle() {
        let e = CalcEngine()
        let s = e.addSheet("S")
        let n: Int32 = 10_000
        for r in 0..<n {
            let next = (r + 1) % n
            e.setFormula("A\(next + 1)+1", at: CellReference(row: Int(r) + 1, column: 1), sheet: s)
        }
        e.setFormula("SUM(A1:A10000)+1", at: CellReference(row: 1, column: 2), sheet: s)
        e.recalculate()
        #expect(e.report.circularReferences.count == Int(n))
        #expect(e.value(at: CellReference("A5000")!, sheet: s) == .number(0))
        #expect(e.value(at: CellReference("B1")!, sheet: s) == .number(0), "a reader of the cycle is not computed")
    }

    @Test func indirectToItselfIsCircularNotAHang() {
        let e = engine(["A1": "=INDIRECT(\"A1\")+1", "B1": "=INDIRECT(\"C1\")", "C1": "=INDIRECT(\"B1\")", "D1": "=INDIRECT(\"E1\")*2", "E1": "=F1+1", "F1": 4])
        #expect(e.value(at: CellReference("A1")!, sheet: 0) == .number(0))
        #expect(e.value(at: CellReference("B1")!, sheet: 0) == .number(0))
        #expect(e.value(at: CellReference("D1")!, sheet: 0) == .number(10))
        #expect(e.report.circularReferences.count == 3)
    }

    @Test func dynamicReferencesIntoLongUncomputedChains() {
        // INDIRECT reaches the end of a 50,000-cell chain that is not computed yet: no recursion.
        let e = CalcEngine()
        let s = e.addSheet("S")
        e.setFormula("INDIRECT(\"B50000\")", at: CellReference("A1")!, sheet: s)
        e.setValue(.number(0), at: CellReference("B1")!, sheet: s)
        for r in 2...50_000 { e.setFormula("B\(r - 1)+1", at: CellReference("B\(r)")!, sheet: s) }
        e.recalculate()
        #expect(e.value(at: CellReference("A1")!, sheet: s) == .number(49_999))
    }

    @Test func nameCyclesAreBounded() {
        let e = CalcEngine()
        let s = e.addSheet("S")
        e.defineName("Loop", formula: "Loop+1")
        e.setFormula("Loop", at: CellReference("A1")!, sheet: s)
        e.recalculate()
        #expect(e.value(at: CellReference("A1")!, sheet: s).isError)
    }
}

@Suite struct IncrementalTests {
    @Test func onlyDependentsAreReevaluated() {
        let e = CalcEngine()
        let s = e.addSheet("S")
        for r in 1...1_000 {
            e.setValue(.number(Double(r)), at: CellReference("A\(r)")!, sheet: s)
            e.setFormula("A\(r)*2", at: CellReference("B\(r)")!, sheet: s)
        }
        e.setFormula("SUM(B1:B1000)", at: CellReference("C1")!, sheet: s)
        e.setFormula("B10+1", at: CellReference("C2")!, sheet: s)
        e.setFormula("C2+1", at: CellReference("C3")!, sheet: s)
        e.recalculate()
        #expect(e.value(at: CellReference("C1")!, sheet: s) == .number(1_001_000))
        let before = e.evaluationCount
        let changes = e.setInputs([CellInput(location: CellLocation(sheet: s, cell: CellReference("A10")!), content: .value(.number(110)))])
        // B10, C1 (range), C2 and C3 (transitively): four evaluations, not 1,003.
        #expect(e.evaluationCount - before == 4)
        #expect(e.value(at: CellReference("C3")!, sheet: s) == .number(222))
        #expect(e.value(at: CellReference("C1")!, sheet: s) == .number(1_001_200))
        #expect(Set(changes.map(\.location.cell.description)) == ["A10", "B10", "C1", "C2", "C3"])
    }

    @Test func volatileFunctionsAlwaysRecompute() {
        let e = CalcEngine(randomSeed: 7)
        let s = e.addSheet("S")
        e.setFormula("RAND()", at: CellReference("A1")!, sheet: s)
        e.setFormula("A1*0+1", at: CellReference("A2")!, sheet: s)
        e.setValue(.number(1), at: CellReference("C1")!, sheet: s)
        e.setFormula("C1+1", at: CellReference("C2")!, sheet: s)
        e.recalculate()
        let first = e.value(at: CellReference("A1")!, sheet: s)
        let before = e.evaluationCount
        e.setInputs([CellInput(location: CellLocation(sheet: s, cell: CellReference("C1")!), content: .value(.number(5)))])
        #expect(e.evaluationCount - before == 3)
        #expect(e.value(at: CellReference("A1")!, sheet: s) != first)
        #expect(e.value(at: CellReference("C2")!, sheet: s) == .number(6))
    }

    @Test func editsOfFormulasAndClearsPropagate() {
        let e = engine(["A1": 1, "A2": 2, "B1": "=A1+A2", "C1": "=B1*10"])
        let changes = e.setInputs([
            CellInput(location: CellLocation(sheet: 0, cell: CellReference("B1")!), content: .formula("=A1*A2+1")),
            CellInput(location: CellLocation(sheet: 0, cell: CellReference("A2")!), content: .value(.number(5))),
        ])
        #expect(e.value(at: CellReference("C1")!, sheet: 0) == .number(60))
        #expect(changes.count == 3)
        e.setInputs([CellInput(location: CellLocation(sheet: 0, cell: CellReference("A1")!), content: .empty)])
        #expect(e.value(at: CellReference("C1")!, sheet: 0) == .number(10))
        #expect(e.value(at: CellReference("A1")!, sheet: 0) == .empty)
    }

    @Test func newCycleFromAnEditIsReported() {
        let e = engine(["A1": 1, "B1": "=A1+1"])
        e.setInputs([CellInput(location: CellLocation(sheet: 0, cell: CellReference("A1")!), content: .formula("B1+1"))])
        #expect(e.value(at: CellReference("A1")!, sheet: 0) == .number(0))
        #expect(e.report.circularReferences.count == 2)
    }
}

@Suite struct WorkbookTests {
    @Test func sheetsNamesAndTables() {
        let e = CalcEngine()
        let a = e.addSheet("Data"), b = e.addSheet("My Sheet")
        e.setValue(.number(0.2), at: CellReference("B1")!, sheet: a)
        e.defineName("TaxRate", formula: "Data!$B$1")
        e.defineName("Local", formula: "'My Sheet'!$A$1*2", sheet: b)
        e.setValue(.number(21), at: CellReference("A1")!, sheet: b)
        // A table on Data: header row 3, data 4..6, totals 7.
        for (k, h) in ["Item", "Qty", "Price"].enumerated() { e.setValue(.text(h), at: CellReference(row: 3, column: k + 1), sheet: a) }
        for r in 0..<3 {
            e.setValue(.text("i\(r)"), at: CellReference(row: 4 + r, column: 1), sheet: a)
            e.setValue(.number(Double(r + 1)), at: CellReference(row: 4 + r, column: 2), sheet: a)
            e.setValue(.number(10), at: CellReference(row: 4 + r, column: 3), sheet: a)
            e.setFormula("Table1[[#This Row],[Qty]]*[@Price]", at: CellReference(row: 4 + r, column: 4), sheet: a)
        }
        e.setFormula("SUBTOTAL(109,Table1[Qty])", at: CellReference("B7")!, sheet: a)
        e.addTable(CalcTable(name: "Table1", sheet: a, range: CellRange("A3:D7")!, headerRowCount: 1, totalsRowCount: 1, columnNames: ["Item", "Qty", "Price", "Total"]))
        e.setFormula("TaxRate*100", at: CellReference("C1")!, sheet: b)
        e.setFormula("Local+1", at: CellReference("C2")!, sheet: b)
        e.setFormula("SUM(Table1[Total])", at: CellReference("C3")!, sheet: b)
        e.setFormula("COUNTA(Table1[#All])", at: CellReference("C4")!, sheet: b)
        e.setFormula("INDEX(Table1[[#Headers],[Qty]:[Price]],1,2)", at: CellReference("C5")!, sheet: b)
        e.setFormula("SUM(Data!B4:B6)+'My Sheet'!A1", at: CellReference("C6")!, sheet: b)
        e.setFormula("Table1[#Totals]", at: CellReference("C7")!, sheet: b)
        e.setFormula("Nope+1", at: CellReference("C8")!, sheet: b)
        e.setFormula("Missing!A1", at: CellReference("C9")!, sheet: b)
        e.recalculate()
        func v(_ ref: String) -> CalcValue { e.value(at: CellReference(ref)!, sheet: b) }
        #expect(close(v("C1"), 20))
        #expect(v("C2") == .number(43))
        #expect(v("C3") == .number(60))
        #expect(v("C4") == .number(16))
        #expect(v("C5") == .text("Price"))
        #expect(v("C6") == .number(27))
        #expect(v("C8") == .error(.name))
        #expect(v("C9") == .error(.reference))
        #expect(e.value(at: CellReference("B7")!, sheet: a) == .number(6))
    }

    @Test func unsupportedFunctionsKeepCachedValuesAndAreNamedOnce() {
        let e = CalcEngine()
        let s = e.addSheet("S")
        e.setFormula("_xludf.MYFUNC(1)+1", at: CellReference("A1")!, sheet: s, cachedValue: .number(42))
        e.setFormula("_xludf.MYFUNC(2)", at: CellReference("A2")!, sheet: s)
        e.setFormula("WEBSERVICE(\"x\")", at: CellReference("A3")!, sheet: s, cachedValue: .text("ok"))
        e.setFormula("A1+1", at: CellReference("A4")!, sheet: s)
        let bad = e.setFormula("SUM(1,", at: CellReference("A5")!, sheet: s, cachedValue: .number(7))
        e.setFormula("[1]Other!A1", at: CellReference("A6")!, sheet: s, cachedValue: .number(8))
        let report = e.recalculate()
        #expect(bad != nil)
        #expect(e.value(at: CellReference("A1")!, sheet: s) == .number(42))
        #expect(e.value(at: CellReference("A2")!, sheet: s) == .error(.name))
        #expect(e.value(at: CellReference("A3")!, sheet: s) == .text("ok"))
        #expect(e.value(at: CellReference("A4")!, sheet: s) == .number(43))
        #expect(e.value(at: CellReference("A5")!, sheet: s) == .number(7))
        #expect(e.value(at: CellReference("A6")!, sheet: s) == .number(8))
        #expect(report.unsupportedFunctions.map(\.name) == ["MYFUNC", "WEBSERVICE"])
        #expect(report.unsupportedFunctions[0].cells.count == 2)
        #expect(report.unsupportedFormulas.count == 2)
        #expect(report.unsupportedFormulas.contains { $0.reason.isExternalReference })
        #expect(CalcEngine.implementedFunctions.contains("XLOOKUP"))
        #expect(!CalcEngine.implementedFunctions.contains("MYFUNC"))
    }

    @Test func arrayFormulas() {
        let e = CalcEngine()
        let s = e.addSheet("S")
        for (k, v) in [1.0, 2, 3].enumerated() {
            e.setValue(.number(v), at: CellReference(row: k + 1, column: 1), sheet: s)
            e.setValue(.number(v * 10), at: CellReference(row: k + 1, column: 2), sheet: s)
        }
        // Legacy CSE: {=A1:A3*B1:B3} over C1:C3, {=TRANSPOSE(A1:A3)} over D1:F1, {=SUM(A1:A3*B1:B3)} in one cell.
        e.setFormula("A1:A3*B1:B3", at: CellReference("C1")!, sheet: s, arrayRange: CellRange("C1:C3")!)
        e.setFormula("TRANSPOSE(A1:A3)", at: CellReference("D1")!, sheet: s, arrayRange: CellRange("D1:F1")!)
        e.setFormula("SUM(A1:A3*B1:B3)", at: CellReference("G1")!, sheet: s, arrayRange: CellRange("G1")!)
        e.setFormula("A1:A2*10", at: CellReference("H1")!, sheet: s, arrayRange: CellRange("H1:H3")!)
        e.setFormula("SUM(C1:C3)+E1", at: CellReference("I1")!, sheet: s)
        e.setFormula("SUM({1,2;3,4}*2)", at: CellReference("J1")!, sheet: s)
        e.setFormula("A1:A3*2", at: CellReference("K2")!, sheet: s)
        e.recalculate()
        func v(_ ref: String) -> CalcValue { e.value(at: CellReference(ref)!, sheet: s) }
        #expect([v("C1"), v("C2"), v("C3")] == [.number(10), .number(40), .number(90)])
        #expect([v("D1"), v("E1"), v("F1")] == [.number(1), .number(2), .number(3)])
        #expect(v("G1") == .number(140))
        #expect([v("H1"), v("H2"), v("H3")] == [.number(10), .number(20), .error(.notAvailable)])
        #expect(v("I1") == .number(142))
        #expect(v("J1") == .number(20))
        // Implicit intersection in an ordinary formula: row 2 of A1:A3.
        #expect(v("K2") == .number(4))
        // Changing an input re-evaluates the array and its readers.
        e.setInputs([CellInput(location: CellLocation(sheet: s, cell: CellReference("A2")!), content: .value(.number(5)))])
        #expect(v("C2") == .number(100))
        #expect(v("I1") == .number(205))
    }
}

@Suite struct SpillTests {
    @Test func dynamicArraysSpillAndBlock() {
        let e = CalcEngine()
        let s = e.addSheet("S")
        for r in 1...3 { e.setValue(.number(Double(r)), at: CellReference("A\(r)")!, sheet: s) }
        e.setFormula("A1:A3*10", at: CellReference("C1")!, sheet: s, isDynamicArray: true)
        e.setFormula("SUM(C1:C3)", at: CellReference("B1")!, sheet: s)
        e.setFormula("TRANSPOSE(A1:A3)", at: CellReference("E1")!, sheet: s, isDynamicArray: true)
        e.setValue(.text("in the way"), at: CellReference("F1")!, sheet: s)
        e.setFormula("{1,2;3,4}", at: CellReference("E5")!, sheet: s, isDynamicArray: true)
        e.recalculate()
        func v(_ ref: String) -> CalcValue { e.value(at: CellReference(ref)!, sheet: s) }
        #expect([v("C1"), v("C2"), v("C3")] == [.number(10), .number(20), .number(30)])
        #expect(v("B1") == .number(60))
        #expect(v("E1") == .error(.spill))
        #expect([v("E5"), v("F5"), v("E6"), v("F6")] == [.number(1), .number(2), .number(3), .number(4)])
        // Unblocking lets it spill; a smaller result takes back the cells it no longer needs.
        e.setInputs([CellInput(location: CellLocation(sheet: s, cell: CellReference("F1")!), content: .empty)])
        #expect([v("E1"), v("F1"), v("G1")] == [.number(1), .number(2), .number(3)])
        e.setInputs([CellInput(location: CellLocation(sheet: s, cell: CellReference("C1")!), content: .formula("A1:A2*10"))])
        #expect(v("C2") == .number(20))
        // Typing over a spilled cell blocks the spill.
        e.setInputs([CellInput(location: CellLocation(sheet: s, cell: CellReference("F5")!), content: .value(.number(9)))])
        #expect(v("E5") == .error(.spill))
        #expect(v("E6") == .empty)
        #expect(v("C3") == .empty)
        #expect(v("B1") == .number(30))
    }
}
