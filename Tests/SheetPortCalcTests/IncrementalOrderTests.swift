@testable import SheetPortCalc
import Testing
import SheetPortCore

/// The incremental recalculation in dependency order (`recalculateInOrder`): each dependent
/// recomputed once, after its precedents, and only when a precedent's value changed.
@Suite struct IncrementalOrderTests {
    private func set(_ e: CalcEngine, _ ref: String, _ content: CellContent) -> [CellChange] {
        e.setInputs([CellInput(location: CellLocation(sheet: 0, cell: CellReference(ref)!), content: content)])
    }

    @Test func runningTotalIsRecomputedOnceEachInRowOrder() {
        var cells: [String: Any] = ["A1": 1, "B1": "=A1"]
        for r in 2...5_000 {
            cells["A\(r)"] = r % 7
            cells["B\(r)"] = "=B\(r - 1)+A\(r)"
        }
        let e = engine(cells)
        let before = e.evaluationCount
        let changes = set(e, "A1", .value(.number(11)))
        #expect(e.evaluationCount - before == 5_000)
        #expect(changes.count == 5_001)
        #expect(changes.map(\.location) == changes.map(\.location).sorted())
        let total = 11 + (2...5_000).reduce(0) { $0 + $1 % 7 }
        #expect(e.value(at: CellReference("B5000")!, sheet: 0) == .number(Double(total)))
        #expect(changes.last?.value == .number(Double(total)))
    }

    @Test func unchangedValueStopsThePropagation() {
        var cells: [String: Any] = ["A1": 1, "B1": "=MIN(A1,100)"]
        for r in 1...1_000 { cells["C\(r)"] = r == 1 ? "=B1" : "=C\(r - 1)+B1" }
        let e = engine(cells)
        var before = e.evaluationCount
        var changes = set(e, "A1", .value(.number(500)))
        #expect(e.evaluationCount - before == 1_001)
        #expect(e.value(at: CellReference("C1000")!, sheet: 0) == .number(100_000))
        // B1 stays 100: computed once, and none of the 1,000 cells reading it.
        before = e.evaluationCount
        changes = set(e, "A1", .value(.number(700)))
        #expect(e.evaluationCount - before == 1)
        #expect(changes.map(\.location.cell.description) == ["A1"])
        // The same value written again: nothing recomputed past the first dependent.
        before = e.evaluationCount
        changes = set(e, "A1", .value(.number(700)))
        #expect(e.evaluationCount - before == 1)
        #expect(changes.map(\.location.cell.description) == ["A1"])
        // A change that passes through: every dependent, each once.
        before = e.evaluationCount
        changes = set(e, "A1", .value(.number(2)))
        #expect(e.evaluationCount - before == 1_001)
        #expect(e.value(at: CellReference("C1000")!, sheet: 0) == .number(2_000))
        #expect(changes.count == 1_002)
    }

    @Test func diamondWaitsForBothSides() {
        let e = engine(["A1": 1, "B1": "=A1*2", "C1": "=A1+1", "D1": "=B1+C1", "E1": "=D1*C1"])
        let before = e.evaluationCount
        _ = set(e, "A1", .value(.number(10)))
        #expect(e.evaluationCount - before == 4)
        #expect(e.value(at: CellReference("D1")!, sheet: 0) == .number(31))
        #expect(e.value(at: CellReference("E1")!, sheet: 0) == .number(341))
    }

    @Test func referenceOutsideTheStaticOnesIsSettledFirst() {
        // INDIRECT is volatile and comes first; the cell it reads is dirty and comes later.
        let e = engine(["A1": 1, "C5": "=A1*2", "D1": "=INDIRECT(\"C5\")+1", "D2": "=D1+C5"])
        _ = set(e, "A1", .value(.number(10)))
        #expect(e.value(at: CellReference("D1")!, sheet: 0) == .number(21))
        #expect(e.value(at: CellReference("D2")!, sheet: 0) == .number(41))
    }

    @Test func brokenCycleIsRecomputedEvenWhenItsFirstCellKeepsItsValue() {
        let e = engine(["A1": "=B1", "B1": "=A1+1"])
        #expect(e.report.circularReferences.count == 2)
        // A1 reads an empty cell now: 0, as it held in the cycle; B1 is no longer circular.
        _ = set(e, "A1", .formula("C1"))
        #expect(e.value(at: CellReference("A1")!, sheet: 0) == .number(0))
        #expect(e.value(at: CellReference("B1")!, sheet: 0) == .number(1))
        #expect(e.report.circularReferences.isEmpty)
    }

    @Test func cellsAfterACycleAreComputedAndTheCycleNamed() {
        let e = engine(["A1": 1, "B1": "=A1", "C1": "=B1+1", "D1": "=C1*2"])
        _ = set(e, "B1", .formula("A1+C1"))
        #expect(e.value(at: CellReference("B1")!, sheet: 0) == .number(0))
        #expect(e.value(at: CellReference("D1")!, sheet: 0) == .number(0))
        #expect(Set(e.report.circularReferences.map(\.cell.description)) == ["B1", "C1"])
        _ = set(e, "B1", .formula("A1*3"))
        #expect(e.value(at: CellReference("D1")!, sheet: 0) == .number(8))
        #expect(e.report.circularReferences.isEmpty)
    }

    @Test func formulaInputIsAnsweredOnceWithItsValue() {
        let e = engine(["A1": 2, "B1": "=A1"])
        let changes = set(e, "B1", .formula("A1*5"))
        #expect(changes.map(\.location.cell.description) == ["B1"])
        #expect(changes.first?.value == .number(10))
    }
}
