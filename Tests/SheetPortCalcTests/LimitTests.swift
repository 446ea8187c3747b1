import Testing
@testable import SheetPortCalc
import SheetPortCore

/// The engine's limits (CONTRACTS section 8, "Limits"): each at its boundary, exactly the cap
/// passes and one more fails with Excel's error, never an abort.
@Suite struct LimitTests {
    /// A one-sheet engine with the given limits, recalculated; formulas are entered as current
    /// Excel (and the server) enters them: dynamic-array formulas.
    static func engine(_ cells: [String: Any], limits: CalcLimits = CalcLimits()) -> CalcEngine {
        let e = CalcEngine()
        e.limits = limits
        let s = e.addSheet("S")
        for (ref, content) in cells {
            let a = CellReference(ref)!
            switch content {
            case let f as String where f.hasPrefix("="): e.setFormula(String(f.dropFirst()), at: a, sheet: s, isDynamicArray: true)
            case let t as String: e.setValue(.text(t), at: a, sheet: s)
            case let n as Int: e.setValue(.number(Double(n)), at: a, sheet: s)
            default: fatalError("bad content")
            }
        }
        e.recalculate()
        return e
    }

    static func value(_ e: CalcEngine, _ ref: String) -> CalcValue { e.value(at: CellReference(ref)!, sheet: 0) }

    static func textLength(_ v: CalcValue) -> Int? { if case .text(let t) = v { return t.utf16.count }; return nil }

    // MARK: maxArrayCells

    @Test func aBroadcastPastMaxArrayCellsIsNumBeforeItIsAllocated() {
        var cells: [String: Any] = [:]
        for r in 1...10 { cells["A\(r)"] = r }
        for c in ["B", "C", "D", "E", "F", "G", "H", "I", "J", "K"] { cells["\(c)1"] = 1 }
        cells["M1"] = "=SUM(A1:A10+A1:J1)"   // 10 x 10 = 100 cells: the cap
        cells["M2"] = "=SUM(A1:A10+A1:K1)"   // 10 x 11 = 110 cells
        cells["M3"] = "=SUM(-A1:J10)"        // a range of 100 cells read as an array, negated
        cells["M4"] = "=SUM(-A1:K10)"
        cells["M5"] = "=IFERROR(SUM(A1:A10+A1:K1),-1)"   // an array error, as Excel's, is caught
        let e = Self.engine(cells, limits: CalcLimits(maxArrayCells: 100))
        #expect(Self.value(e, "M1").number != nil)
        #expect(Self.value(e, "M2") == .error(.number))
        #expect(Self.value(e, "M3").number != nil)
        #expect(Self.value(e, "M4") == .error(.number))
        #expect(Self.value(e, "M5") == .number(-1))
    }

    /// Attack 2: XFD1 and A1048576 written, `=SUM(A:A+1:1)` would broadcast 17 billion cells.
    @Test func theWholeGridBroadcastIsNum() {
        let e = Self.engine(["XFD1": 1, "A1048576": 2, "B2": "=SUM(A:A+1:1)", "B3": "=SUM(A:A*1:1)+1", "B4": "=ROWS(A:A+1:1)"])
        #expect(Self.value(e, "B2") == .error(.number))
        #expect(Self.value(e, "B3") == .error(.number))
        #expect(Self.value(e, "B4") == .error(.number))
    }

    /// A formula that widens its ranges later (INDIRECT reading a cell a collaborator edits).
    @Test func anIndirectRangeThatWidensLaterIsNum() {
        let e = Self.engine(["XFD1": 1, "A1048576": 2, "C1": 2, "B2": "=SUM(INDIRECT(\"A1:A\"&C1)+INDIRECT(\"1:1\"))"])
        #expect(Self.value(e, "B2").number != nil)
        e.setInputs([CellInput(location: CellLocation(sheet: 0, cell: CellReference("C1")!), content: .value(.number(1_048_576)))])
        #expect(Self.value(e, "B2") == .error(.number))
    }

    @Test func functionArraysAreMeasuredFirst() {
        let e = Self.engine(["A1": "=SUM(MUNIT(10))", "A2": "=SUM(MUNIT(11))", "A3": "=SUM(MUNIT(1E9))",
                             "A4": "=SUM(MUNIT(3037000500))"], limits: CalcLimits(maxArrayCells: 100))
        #expect(Self.value(e, "A1") == .number(10))
        #expect(Self.value(e, "A2") == .error(.number))
        #expect(Self.value(e, "A3") == .error(.number))
        #expect(Self.value(e, "A4") == .error(.number))
        let d = Self.engine(["A1": "=SUM(MUNIT(1E9))", "A2": "=SUM(MUNIT(3162))", "A3": "=SUM(MUNIT(3163))"])
        #expect(Self.value(d, "A1") == .error(.number))
        #expect(Self.value(d, "A2") == .number(3162))   // 9,998,244 cells
        #expect(Self.value(d, "A3") == .error(.number)) // 10,004,569 cells
    }

    // MARK: maxEvalSteps and maxEvalBytes

    @Test func stepsPastMaxEvalStepsAreNumAndNotCaught() {
        // `1+2`: two operands and the operator, three steps.
        #expect(Self.value(Self.engine(["A1": "=1+2"], limits: CalcLimits(maxEvalSteps: 3)), "A1") == .number(3))
        #expect(Self.value(Self.engine(["A1": "=1+2"], limits: CalcLimits(maxEvalSteps: 2)), "A1") == .error(.number))
        // Array cells count as steps; IFERROR cannot turn an exhausted formula into more work.
        var cells: [String: Any] = ["B1": "=IFERROR(SUM(A1:A100*2),0)", "B2": "=1"]
        for r in 1...100 { cells["A\(r)"] = r }
        let e = Self.engine(cells, limits: CalcLimits(maxEvalSteps: 150))
        #expect(Self.value(e, "B1") == .error(.number))
        #expect(Self.value(e, "B2") == .number(1))   // each formula has its own budget
    }

    @Test func bytesPastMaxEvalBytesAreNum() {
        let stride = MemoryLayout<CalcValue>.stride
        var cells: [String: Any] = ["B1": "=SUM(A1:A10*2)"]
        for r in 1...10 { cells["A\(r)"] = r }
        // The range read as an array (10 values) and the product (10 more).
        #expect(Self.value(Self.engine(cells, limits: CalcLimits(maxEvalBytes: 20 * stride)), "B1") == .number(110))
        #expect(Self.value(Self.engine(cells, limits: CalcLimits(maxEvalBytes: 20 * stride - 1)), "B1") == .error(.number))
        // A text result's bytes count too.
        #expect(Self.value(Self.engine(["A1": "=REPT(\"x\",100)"], limits: CalcLimits(maxEvalBytes: 100)), "A1") == .text(String(repeating: "x", count: 100)))
        #expect(Self.value(Self.engine(["A1": "=REPT(\"x\",101)"], limits: CalcLimits(maxEvalBytes: 100)), "A1") == .error(.number))
        // Texts made element by element count: 1,000 copies of 1,000 characters is 1 MB.
        var texts: [String: Any] = ["C1": "=SUM(LEN(REPT(\"y\",1000)&A1:A1000))"]
        for r in 1...1000 { texts["A\(r)"] = "" }
        #expect(Self.value(Self.engine(texts, limits: CalcLimits(maxEvalBytes: 1 << 20)), "C1") == .error(.number))
        #expect(Self.value(Self.engine(texts), "C1") == .number(1_000_000))
    }

    // MARK: text length

    static let max = CalcLimits.maxTextLength

    @Test(arguments: [
        ("REPT(\"x\",\(max))", true), ("REPT(\"x\",\(max + 1))", false), ("REPT(\"ab\",8E15)", false),
        ("REPT(REPT(\"ab\",16000),9E14)", false),
        ("REPT(\"\",1E15)", true), ("REPT(\"\",-1)", false), // empty: no loop (the calc-bombs fuzz target's 20 s)
        ("REPT(\"é\",\(max))", true), ("REPT(\"😀\",16383)&\"x\"", true), ("REPT(\"😀\",16384)", false),
        ("REPT(\"x\",\(max - 1))&\"y\"", true), ("REPT(\"x\",\(max - 1))&\"yz\"", false),
        ("CONCATENATE(REPT(\"x\",\(max - 1)),\"y\")", true), ("CONCATENATE(REPT(\"x\",\(max - 1)),\"y\",\"z\")", false),
        ("CONCAT(REPT(\"x\",\(max - 1)),\"y\")", true), ("CONCAT(REPT(\"x\",\(max)),\"y\")", false),
        ("TEXTJOIN(\",\",TRUE,REPT(\"x\",16383),REPT(\"x\",16383))", true),
        ("TEXTJOIN(\",\",TRUE,REPT(\"x\",16383),REPT(\"x\",16384))", false),
        ("SUBSTITUTE(REPT(\"x\",16383)&\"z\",\"x\",\"yy\")", true),
        ("SUBSTITUTE(REPT(\"x\",16384),\"x\",\"yy\")", false),
        ("SUBSTITUTE(REPT(\"x\",\(max)),\"x\",REPT(\"y\",\(max)))", false),
        ("REPLACE(REPT(\"x\",\(max)),1,0,\"y\")", false), ("REPLACE(REPT(\"x\",\(max)),1,1,\"y\")", true),
        ("ARRAYTOTEXT(REPT(\"x\",\(max - 2)))", true), ("ARRAYTOTEXT({1,2}&REPT(\"x\",16383))", false),
    ])
    func textsPastExcelsLimitAreValue(_ formula: String, _ fits: Bool) {
        let v = Self.value(Self.engine(["A1": "=" + formula]), "A1")
        if fits {
            #expect(Self.textLength(v) != nil && Self.textLength(v)! <= Self.max, "\(formula)")
        } else {
            #expect(v == .error(.value), "\(formula)")
        }
    }

    /// Attack 3: a doubling chain stops at the first text past 32,767 characters.
    @Test func aDoublingChainEndsInValue() {
        var cells: [String: Any] = ["A1": "x"]
        for r in 2...40 { cells["A\(r)"] = "=A\(r - 1)&A\(r - 1)" }
        let e = Self.engine(cells)
        #expect(Self.textLength(Self.value(e, "A15")) == 16_384)
        #expect(Self.value(e, "A16") == .error(.value))
        #expect(Self.value(e, "A40") == .error(.value))
    }

    /// A stored text longer than Excel allows (an import can hold one) is #VALUE! through any function.
    @Test func anyFunctionsLongTextIsValue() {
        let long = String(repeating: "a", count: Self.max + 1)
        let e = Self.engine(["A1": long, "B1": "=UPPER(A1)", "B2": "=A1&\"\"", "B3": "=LEN(A1)", "B4": "=TRIM(A1)",
                             "B5": "=UPPER(LEFT(A1,\(Self.max)))"])
        #expect(Self.value(e, "B1") == .error(.value))
        #expect(Self.value(e, "B2") == .error(.value))
        #expect(Self.value(e, "B3") == .number(Double(Self.max + 1)))
        #expect(Self.value(e, "B4") == .error(.value))
        #expect(Self.textLength(Self.value(e, "B5")) == Self.max)
    }
}

extension LimitTests {
    /// Reading cells is work too: a criteria walk over the grid's far corners (17 billion cells)
    /// is #NUM!, charged before it starts, and a long range read counts against the steps. A
    /// numeric comparison is answered from the range's sorted numbers (its stored cells) and
    /// walks nothing: Excel's 2.
    @Test func rangeWalksCountAsSteps() {
        let e = Self.engine(["XFD3": 1, "B1048576": 2, "B3": -1, "A1": "=COUNTIF(B3:XFD1048576,\"<>0\")", "A2": "=COUNTIF(B3:C4,\"<0\")",
                             "A3": "=COUNTIF(B3:XFD1048576,\">0\")"])
        #expect(Self.value(e, "A1") == .error(.number))
        #expect(Self.value(e, "A2") == .number(1))
        #expect(Self.value(e, "A3") == .number(2))
        var cells: [String: Any] = ["C1": "=SUM(A1:A1000)"]
        for r in 1...1000 { cells["A\(r)"] = 1 }
        // Two instructions and the 1,000 cells read.
        #expect(Self.value(Self.engine(cells, limits: CalcLimits(maxEvalSteps: 1_002)), "C1") == .number(1000))
        #expect(Self.value(Self.engine(cells, limits: CalcLimits(maxEvalSteps: 1_001)), "C1") == .error(.number))
    }
}
