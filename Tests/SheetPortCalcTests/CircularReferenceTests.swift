import Testing
@testable import SheetPortCalc
import SheetPortCore

/// Circular references computed as Excel does with iteration off: a cycle is found when computing
/// a cell reads one still being computed (not from the static references), its cells are 0 and
/// reported, and the cells reading them are 0 too without being reported.
@Suite struct CircularReferenceTests {
    /// A legacy array formula whose anchor is the cell it is set at.
    private struct LegacyArray {
        var formula: String
        var range: String
    }

    /// An engine with the names defined and the cells set in the order given (cell ids, hence
    /// the roots' order, follow it), recalculated.
    private func ordered(_ cells: [(String, Any)], names: [(String, String)] = [], iterative: IterativeCalculation? = nil) -> CalcEngine {
        let e = CalcEngine(clock: .fixed(unixTime: 0), randomSeed: 1)
        e.iterativeCalculation = iterative
        let s = e.addSheet("S")
        for (name, formula) in names { _ = e.defineName(name, formula: formula) }
        for (ref, content) in cells {
            switch content {
            case let f as String: e.setFormula(f, at: CellReference(ref)!, sheet: s)
            case let a as LegacyArray: e.setFormula(a.formula, at: CellReference(ref)!, sheet: s, arrayRange: CellRange(a.range)!)
            case let b as Bool: e.setValue(.boolean(b), at: CellReference(ref)!, sheet: s)
            case let v as CalcValue: e.setValue(v, at: CellReference(ref)!, sheet: s)
            default: fatalError("bad content")
            }
        }
        e.recalculate()
        return e
    }

    private func values(_ e: CalcEngine, _ refs: [String]) -> [CalcValue] {
        refs.map { e.value(at: CellReference($0)!, sheet: 0) }
    }

    @Test func aStaticCycleNeverReadIsNoCircularReference() {
        // formulas__circular row 6: D6 reads B6 only when A6 is true; in every order of computing.
        let cells: [(String, Any)] = [("A6", false), ("B6", "C6"), ("C6", "D6"), ("D6", "IF(IF(A6,B6,TRUE),1,B6)"), ("E6", "B6+1")]
        for order in [cells, cells.reversed(), [cells[0], cells[3], cells[1], cells[4], cells[2]]] {
            let e = ordered(order)
            #expect(values(e, ["B6", "C6", "D6", "E6"]) == [.number(1), .number(1), .number(1), .number(2)], "\(order.map(\.0))")
            #expect(e.report.circularReferences.isEmpty)
        }
        // The same cells when A6 is true read each other: a cycle, and its reader not computed.
        for order in [cells, cells.reversed()] {
            var on = order
            on[on.firstIndex { $0.0 == "A6" }!] = ("A6", true)
            let e = ordered(on)
            #expect(values(e, ["B6", "C6", "D6", "E6"]) == [.number(0), .number(0), .number(0), .number(0)])
            #expect(e.report.circularReferences.map(\.cell.description) == ["B6", "C6", "D6"])
        }
    }

    @Test func readersOfACycleAreNotComputedAndNotReported() {
        let e = ordered([("B2", "B2"), ("E2", "B2+1"), ("F2", "E2*2+3"), ("G2", "SUM(E2:F2)+1"), ("H2", "IF(FALSE,B2,7)"),
                         ("B5", "C5"), ("C5", "B5"), ("E5", "ISNUMBER(B5)"), ("F5", "ROW(B5)")])
        #expect(values(e, ["B2", "E2", "F2", "G2", "H2"]) == [.number(0), .number(0), .number(0), .number(0), .number(7)])
        // ISNUMBER reads the value (not computed); ROW reads no value.
        #expect(values(e, ["E5", "F5"]) == [.number(0), .number(5)])
        #expect(e.report.circularReferences.map(\.cell.description) == ["B2", "B5", "C5"])
    }

    @Test func anErrorConditionReadsNeitherBranch() {
        // formulas__circular rows 14 and 15: the condition's error comes first, the cycle is never read.
        let e = ordered([("A14", CalcValue.error(.reference)), ("B14", CalcValue.number(1)), ("C14", "D14"),
                         ("D14", "IF(A14=\"\",0,3000-SUM(B14:C14)+(-SUM($A14:A14)-3000))"),
                         ("A15", CalcValue.error(.reference)), ("C15", "IF(A15=\"\",0,3000-SUM(C15:C15)+(-SUM($A15:A15)-3000))"),
                         ("A16", CalcValue.text("x")), ("C16", "IF(A16,C16+1,C16-1)"), ("D16", "IF(A16,1)+IF(A16,D16*2)")])
        #expect(values(e, ["C14", "D14", "C15", "C16", "D16"]) == [.error(.reference), .error(.reference), .error(.reference), .error(.value), .error(.value)])
        #expect(e.report.circularReferences.isEmpty)
    }

    @Test func ifsReturnsItsValueWithoutReadingTheOthers() {
        // formulas__circular rows 16 and 17.
        let e = ordered([("A16", false), ("B16", "IFS(NOT(A16),1,TRUE,C16)"), ("C16", "D16"), ("D16", "B16"), ("E16", "B16+1"),
                         ("A17", true), ("B17", "IFS(NOT(A17),1,TRUE,C17)"), ("C17", "D17"), ("D17", "B17"), ("E17", "B17+1")])
        #expect(values(e, ["B16", "C16", "D16", "E16"]) == [.number(1), .number(1), .number(1), .number(2)])
        #expect(values(e, ["B17", "C17", "D17", "E17"]) == [.number(0), .number(0), .number(0), .number(0)])
        #expect(e.report.circularReferences.map(\.cell.description) == ["B17", "C17", "D17"])
    }

    @Test func selfReferencesThroughOffsetIndirectAndNames() {
        let e = ordered([("A1", "OFFSET(A1,0,0)+1"), ("B1", "INDIRECT(\"B\"&ROW())*2"), ("C1", "Me+1"), ("D1", "Guarded+1"),
                         ("E1", "A1+B1+C1+1"), ("F1", "OFFSET(F1,0,1)"), ("G1", CalcValue.number(9)), ("Z1", false)],
                        names: [("Me", "S!$C$1"), ("Guarded", "IF(S!$Z$1,S!$D$1,5)")])
        let s = 0
        #expect(values(e, ["A1", "B1", "C1", "D1", "E1", "F1"]) == [.number(0), .number(0), .number(0), .number(6), .number(0), .number(9)])
        #expect(e.report.circularReferences.map(\.cell.description) == ["A1", "B1", "C1"])
        // The name's guard opened: D1 reads itself through it.
        e.setInputs([CellInput(location: CellLocation(sheet: s, cell: CellReference("Z1")!), content: .value(.boolean(true)))])
        #expect(values(e, ["D1"]) == [.number(0)])
        #expect(e.report.circularReferences.map(\.cell.description) == ["A1", "B1", "C1", "D1"])
    }

    @Test func aHundredThousandCellStaticCycleIsCheckedInLinearTime() {
        // Each cell reads the next only when Z1 is true; the last reads the first.
        let n = 100_000
        func build(guardOpen: Bool, reversed: Bool) -> CalcEngine {
            let e = CalcEngine(clock: .fixed(unixTime: 0), randomSeed: 1)
            let s = e.addSheet("S")
            e.setValue(.boolean(guardOpen), at: CellReference("Z1")!, sheet: s)
            let rows = reversed ? Array((1...n).reversed()) : Array(1...n)
            for r in rows { e.setFormula("IF($Z$1,A\(r % n + 1)+1,\(r))", at: CellReference(row: r, column: 1), sheet: s) }
            e.setFormula("A1+1", at: CellReference("B1")!, sheet: s)
            e.recalculate()
            return e
        }
        for reversed in [false, true] {
            let closed = build(guardOpen: false, reversed: reversed)
            #expect(closed.value(at: CellReference("A\(n)")!, sheet: 0) == .number(Double(n)))
            #expect(closed.value(at: CellReference("B1")!, sheet: 0) == .number(2))
            #expect(closed.report.circularReferences.isEmpty)
            #expect(closed.evaluationCount <= 2 * n + 2)
            let open = build(guardOpen: true, reversed: reversed)
            #expect(open.value(at: CellReference("A500")!, sheet: 0) == .number(0))
            #expect(open.value(at: CellReference("B1")!, sheet: 0) == .number(0))
            #expect(open.report.circularReferences.count == n)
            #expect(open.evaluationCount <= 3 * n + 2, "\(open.evaluationCount)")
        }
    }

    @Test func breakingACycleRecomputesItsReadersEvenWhenItsValueStays() {
        // A1 reads itself while Z1 is true; B1 and C1 read it, not computed (0).
        let e = ordered([("Z1", true), ("A1", "IF(Z1,A1,0)"), ("B1", "A1+1"), ("C1", "B1*10")])
        #expect(values(e, ["A1", "B1", "C1"]) == [.number(0), .number(0), .number(0)])
        let changes = e.setInputs([CellInput(location: CellLocation(sheet: 0, cell: CellReference("Z1")!), content: .value(.boolean(false)))])
        // A1 is 0 again, yet its readers are computed now.
        #expect(values(e, ["A1", "B1", "C1"]) == [.number(0), .number(1), .number(10)])
        #expect(changes.map(\.location.cell.description) == ["B1", "C1", "Z1"])
        #expect(e.report.circularReferences.isEmpty)
        // Closing it again: the readers go back to 0, reported only the cycle.
        e.setInputs([CellInput(location: CellLocation(sheet: 0, cell: CellReference("Z1")!), content: .value(.boolean(true)))])
        #expect(values(e, ["A1", "B1", "C1"]) == [.number(0), .number(0), .number(0)])
        #expect(e.report.circularReferences.map(\.cell.description) == ["A1"])
    }

    @Test func eachCellOfAnArrayFormulaIsOnACycleOnItsOwn() {
        // formulas__circular rows 8 to 12: an array IF reads its branch ranges whole; the cycle
        // through D11 alone leaves D10 and D12 computed (from the cycle's zeros), in any order.
        var cells: [(String, Any)] = [("A8", false), ("A9", false), ("B8", "C8"), ("C8", "D8"), ("B9", "C9"), ("C9", "D9"),
                                      ("E8", "B8+1"), ("E9", "B9+1"),
                                      ("A10", false), ("A11", true), ("A12", false), ("B10", "IF(A10,C10,1)"), ("C10", "D10"),
                                      ("B11", "IF(A11,C11,1)"), ("C11", "D11"), ("B12", "IF(A12,C12,1)"), ("C12", "D12"),
                                      ("E10", "B10+1"), ("E11", "B11+1"), ("E12", "B12+1")]
        // The arrays go in among the cells: after their readers one way, before them the other.
        cells.insert(contentsOf: [("D8", LegacyArray(formula: "IF(A8:A9,B8:B9,1)", range: "D8:D9")),
                                  ("D10", LegacyArray(formula: "IF(A10:A12,B10:B12,1)", range: "D10:D12"))], at: 8)
        for reversed in [false, true] {
            if reversed { cells.reverse() }
            let e = ordered(cells)
            let expected: [String: Double] = ["B8": 0, "C8": 0, "D8": 0, "E8": 0, "B9": 0, "C9": 0, "D9": 0, "E9": 0,
                                              "B10": 1, "C10": 1, "D10": 1, "E10": 2, "B11": 0, "C11": 0, "D11": 0, "E11": 0,
                                              "B12": 1, "C12": 1, "D12": 1, "E12": 2]
            for (ref, x) in expected { #expect(values(e, [ref]) == [.number(x)], "\(ref) reversed \(reversed)") }
            #expect(e.report.circularReferences.map(\.cell.description) == ["B8", "C8", "D8", "B9", "C9", "D9", "B11", "C11", "D11"])
        }
    }

    @Test func withIterationOnReadersFollowTheIteratedValues() {
        let e = ordered([("B1", "C1/2+1"), ("C1", "B1"), ("D1", "ROUND(B1*10,2)")],
                        iterative: IterativeCalculation(iterateCount: 50, iterateDelta: 0.0001))
        #expect(values(e, ["D1"]) == [.number(20)])
        #expect(abs((e.value(at: CellReference("B1")!, sheet: 0).number ?? 0) - 2) < 0.001)
    }
}
