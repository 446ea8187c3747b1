@testable import SheetPortCalc
import Testing
import SheetPortCore

/// A recalculation stopped once its answer is known (`setInputs(_:stoppingAfter:)`), then
/// continued, or taken up by the next write: the values end as a full recalculation's, and every
/// cell whose value changed is answered by one of the calls.
@Suite struct SuspendedRecalculationTests {
    private func input(_ ref: String, _ content: CellContent) -> CellInput {
        CellInput(location: CellLocation(sheet: 0, cell: CellReference(ref)!), content: content)
    }

    private func runningTotal(rows: Int) -> [String: Any] {
        var cells: [String: Any] = ["A1": 1, "B1": "=A1", "C1": "=B1*2"]
        for r in 2...rows {
            cells["A\(r)"] = r % 7
            cells["B\(r)"] = "=B\(r - 1)+A\(r)"
        }
        return cells
    }

    /// Each formula cell's value in `e` equals a fresh engine's full recalculation of the same cells.
    private func expectSettled(_ e: CalcEngine, _ cells: [String: Any], rows: Int) {
        let fresh = engine(cells)
        for r in 1...rows {
            for column in ["A", "B", "C"] {
                let a = CellReference("\(column)\(r)")!
                #expect(e.value(at: a, sheet: 0) == fresh.value(at: a, sheet: 0), "\(column)\(r)")
            }
        }
    }

    @Test func stopsOnceTheAnswerIsKnownAndContinuesToTheEnd() {
        var cells = runningTotal(rows: 3_000)
        let e = engine(cells)
        let evaluated = e.evaluationCount
        let first = e.setInputs([input("A1", .value(.number(11)))], stoppingAfter: 100)
        #expect(e.hasPendingRecalculation)
        #expect(first.count == 102) // 101 dependents and the input
        #expect(e.evaluationCount - evaluated < 200)
        // Not reached yet: the previous value.
        #expect(e.value(at: CellReference("B3000")!, sheet: 0) == engine(cells).value(at: CellReference("B3000")!, sheet: 0))
        var rest: [CellChange] = []
        while e.hasPendingRecalculation { rest += e.continueRecalculation(cells: 500) }
        cells["A1"] = 11
        expectSettled(e, cells, rows: 3_000)
        let answered = Set((first + rest).map(\.location))
        #expect(answered.count == first.count + rest.count) // each once
        #expect(answered.count == 3_000 + 1 + 1) // B1...B3000, C1, A1
    }

    @Test func continuesOnlyAsFarAsAWindowNeeds() {
        var cells = runningTotal(rows: 20_000)
        let e = engine(cells)
        let before = engine(cells)
        let first = e.setInputs([input("A1", .value(.number(11)))], stoppingAfter: 100)
        cells["A1"] = 11
        let after = engine(cells)
        let window = CellRange(CellReference("A1200")!, CellReference("C1260")!)
        let reached = e.continueRecalculation(until: window, sheet: 0)
        // The window's cells are computed; the chain well past it is not.
        for r in 1_200...1_260 {
            let a = CellReference("B\(r)")!
            #expect(e.value(at: a, sheet: 0) == after.value(at: a, sheet: 0), "B\(r)")
        }
        #expect(e.hasPendingRecalculation)
        #expect(reached.count < 1_260 + 2_048)
        #expect(e.value(at: CellReference("B20000")!, sheet: 0) == before.value(at: CellReference("B20000")!, sheet: 0))
        // A window already computed, and one of cells outside the pass, compute nothing.
        #expect(e.continueRecalculation(until: CellRange(CellReference("B1")!, CellReference("B50")!), sheet: 0).isEmpty)
        #expect(e.continueRecalculation(until: CellRange(CellReference("D1")!, CellReference("Z3000")!), sheet: 0).isEmpty)
        #expect(e.continueRecalculation(until: window, sheet: 7).isEmpty)
        // The rest, and every change answered once.
        var rest: [CellChange] = []
        while e.hasPendingRecalculation { rest += e.continueRecalculation(cells: 700) }
        expectSettled(e, cells, rows: 20_000)
        let answered = Set((first + reached + rest).map(\.location))
        #expect(answered.count == first.count + reached.count + rest.count)
        #expect(answered.count == 20_000 + 1 + 1)
        // A window at the end of the chain takes the whole pass.
        _ = e.setInputs([input("A1", .value(.number(2)))], stoppingAfter: 10)
        _ = e.continueRecalculation(until: CellRange(CellReference("B20000")!, CellReference("B20000")!), sheet: 0)
        #expect(!e.hasPendingRecalculation)
        cells["A1"] = 2
        expectSettled(e, cells, rows: 20_000)
    }

    @Test func theNextWriteTakesUpWhatWasLeft() {
        var cells = runningTotal(rows: 2_000)
        let e = engine(cells)
        var answered: [CellChange] = e.setInputs([input("A1", .value(.number(5)))], stoppingAfter: 10)
        // Part way: a write of another cell of the chain, a clear and a new formula.
        answered += e.setInputs([input("A1000", .value(.number(100))), input("A1500", .empty), input("C2", .formula("B2000-B1"))], stoppingAfter: 10)
        #expect(e.hasPendingRecalculation)
        answered += e.setInputs([input("A7", .value(.number(3)))], stoppingAfter: 50)
        while e.hasPendingRecalculation { answered += e.continueRecalculation(cells: 300) }
        cells["A1"] = 5
        cells["A1000"] = 100
        cells["A1500"] = nil
        cells["C2"] = "=B2000-B1"
        cells["A7"] = 3
        expectSettled(e, cells, rows: 2_000)
        // Every value changed along the way reached an answer: replaying them over the old values gives the new ones.
        let old = engine(runningTotal(rows: 2_000))
        var replayed: [CellLocation: CalcValue] = [:]
        for change in answered { replayed[change.location] = change.value }
        for r in 1...2_000 {
            for column in ["B", "C"] {
                let a = CellReference("\(column)\(r)")!
                let final = replayed[CellLocation(sheet: 0, cell: a)] ?? old.value(at: a, sheet: 0)
                #expect(final == e.value(at: a, sheet: 0), "\(column)\(r)")
            }
        }
    }

    @Test func aFullRecalculationDropsTheSuspendedPass() {
        let e = engine(runningTotal(rows: 500))
        _ = e.setInputs([input("A1", .value(.number(2)))], stoppingAfter: 5)
        #expect(e.hasPendingRecalculation)
        e.recalculate()
        #expect(!e.hasPendingRecalculation)
        #expect(e.continueRecalculation().isEmpty)
        var cells = runningTotal(rows: 500)
        cells["A1"] = 2
        expectSettled(e, cells, rows: 500)
    }

    @Test func aWriteOutsideTheSuspendedPassLeavesItSuspended() {
        var cells = runningTotal(rows: 3_000)
        let e = engine(cells)
        var answered = e.setInputs([input("A1", .value(.number(4)))], stoppingAfter: 20)
        // Nothing depends on D1: one evaluation at most, the chain stays suspended.
        let evaluated = e.evaluationCount
        let alone = e.setInputs([input("D1", .value(.number(1)))], stoppingAfter: 20)
        #expect(alone.map(\.location.cell.description) == ["D1"])
        #expect(e.evaluationCount == evaluated)
        #expect(e.hasPendingRecalculation)
        // A new formula reading a cell the chain has not reached: computed on the chain's new values.
        let reader = e.setInputs([input("E1", .formula("B2999*2"))], stoppingAfter: 20)
        cells["A1"] = 4
        cells["D1"] = 1
        cells["E1"] = "=B2999*2"
        let expected = engine(cells)
        #expect(reader.first?.value == expected.value(at: CellReference("E1")!, sheet: 0))
        #expect(e.hasPendingRecalculation)
        answered += alone + reader
        while e.hasPendingRecalculation { answered += e.continueRecalculation(cells: 700) }
        expectSettled(e, cells, rows: 3_000)
        #expect(e.value(at: CellReference("E1")!, sheet: 0) == expected.value(at: CellReference("E1")!, sheet: 0))
        // Every B is answered once (B2999 too, though computed ahead of its turn).
        let refs = answered.map(\.location.cell.description).filter { $0.hasPrefix("B") }
        #expect(refs.count == 3_000 && Set(refs).count == 3_000)
    }

    @Test func aCellChangedOutsideSetInputsTakesUpTheSuspendedPass() {
        var cells = runningTotal(rows: 1_000)
        let e = engine(cells)
        _ = e.setInputs([input("A1", .value(.number(3)))], stoppingAfter: 10)
        e.clearCell(at: CellReference("A500")!, sheet: 0)
        e.setValue(.number(50), at: CellReference("Z9")!, sheet: 0)
        #expect(e.hasPendingRecalculation)
        _ = e.recalculateChanged()
        #expect(!e.hasPendingRecalculation)
        cells["A1"] = 3
        cells["A500"] = nil
        expectSettled(e, cells, rows: 1_000)
    }
}
