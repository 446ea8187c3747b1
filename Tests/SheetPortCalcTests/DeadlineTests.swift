import Foundation
import Testing
@testable import SheetPortCalc
import SheetPortCore

/// `CalcEngine.deadline` (issue 35, attack 4): past it a recalculation stops computing (its cells
/// are `#NUM!` and the owner drops the engine); before it nothing changes, the step budget kept
/// exactly while it is handed out in slices between reads of the clock.
@Suite struct DeadlineTests {
    /// A recalculation whose deadline has passed gives up: the dependents of an input are not
    /// computed; the same engine without one computes them.
    @Test func aPassedDeadlineStopsTheRecalculation() {
        var cells: [String: Any] = [:]
        for r in 1...200 { cells["A\(r)"] = r; cells["B\(r)"] = "=COUNTIF(A1:A200,\">\"&A\(r))" }
        let e = LimitTests.engine(cells)
        #expect(LimitTests.value(e, "B1") == .number(199))
        e.deadline = CalcDeadline(seconds: 0)
        _ = e.setInputs([CellInput(location: CellLocation(sheet: 0, cell: CellReference("A1")!), content: .value(.number(1000)))])
        #expect(LimitTests.value(e, "B1") == .error(.number) && LimitTests.value(e, "B200") == .error(.number))
        // A fresh engine, no deadline: the right values.
        let fresh = LimitTests.engine(cells.merging(["A1": 1000]) { _, new in new })
        #expect(LimitTests.value(fresh, "B1") == .number(0) && LimitTests.value(fresh, "B2") == .number(199))
    }

    /// Before the deadline nothing changes: a budget larger than one slice of steps
    /// (`Evaluator.stepsPerClockRead`) is spent to exactly the same step.
    @Test func aDistantDeadlineKeepsTheStepBudgetExact() {
        let cells: [String: Any] = ["A1": "=ROWS(SEQUENCE(1500000))"]
        // The array's 1,500,000 cells are charged as steps, with the call's few instructions.
        let enough = CalcLimits(maxEvalSteps: 1_500_010)
        let short = CalcLimits(maxEvalSteps: 1_499_999)
        for deadline in [nil, CalcDeadline(seconds: 3600)] {
            let passes = Self.engine(cells, limits: enough, deadline: deadline)
            let fails = Self.engine(cells, limits: short, deadline: deadline)
            #expect(LimitTests.value(passes, "A1") == .number(1_500_000), "\(String(describing: deadline))")
            #expect(LimitTests.value(fails, "A1") == .error(.number), "\(String(describing: deadline))")
        }
    }

    /// Hostile spans: a negative one is a deadline passed already; NaN, infinite and huge ones
    /// are none in practice (no overflow of the clock's nanoseconds).
    @Test func hostileSpansMakeADeadline() {
        #expect(CalcDeadline(seconds: -5).hasPassed && CalcDeadline(seconds: 0).hasPassed && CalcDeadline(seconds: -.infinity).hasPassed)
        for span in [Double.nan, .infinity, 1e300, Double.greatestFiniteMagnitude, 3600] {
            #expect(!CalcDeadline(seconds: span).hasPassed, "\(span)")
        }
    }

    /// An engine of `cells` recalculated under `limits` and `deadline`.
    static func engine(_ cells: [String: Any], limits: CalcLimits, deadline: CalcDeadline?) -> CalcEngine {
        let e = CalcEngine()
        e.limits = limits
        e.deadline = deadline
        let s = e.addSheet("S")
        for (ref, content) in cells {
            e.setFormula(String((content as! String).dropFirst()), at: CellReference(ref)!, sheet: s, isDynamicArray: true)
        }
        e.recalculate()
        return e
    }
}
