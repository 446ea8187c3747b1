import Testing
@testable import SheetPortCalc
import SheetPortCore

/// `G1#`, the spill range reference (issue 35): it parses, reads the range the anchor's dynamic
/// array spills into and follows it as it grows; a blocked or absent spill is `#REF!`; a spill
/// obeys `maxArrayCells`.
@Suite struct SpillRangeTests {
    static func engine(_ cells: [String: Any], limits: CalcLimits = CalcLimits()) -> CalcEngine {
        LimitTests.engine(cells, limits: limits)
    }

    static func value(_ e: CalcEngine, _ ref: String) -> CalcValue { LimitTests.value(e, ref) }

    @Test func aSpillRangeReferenceReadsTheSpill() {
        let e = Self.engine(["A1": 1, "A2": 2, "A3": 3, "C1": "=A1:A3*10", "D1": "=SUM(C1#)", "D2": "=ROWS($C$1#)",
                             "D3": "=SUM(S!C1#)", "D4": "=INDEX(C1#,3)", "F1": "=C1#+1", "D5": "=A1#", "D6": "=SUM(Z9#)"])
        #expect(Self.value(e, "D1") == .number(60))
        #expect(Self.value(e, "D2") == .number(3))
        #expect(Self.value(e, "D4") == .number(30))
        #expect([Self.value(e, "F1"), Self.value(e, "F2"), Self.value(e, "F3")] == [.number(11), .number(21), .number(31)])
        #expect(Self.value(e, "D3") == .number(60))
        // Not the anchor of a dynamic array (a constant, an empty cell): #REF!.
        #expect(Self.value(e, "D5") == .error(.reference))
        #expect(Self.value(e, "D6") == .error(.reference))
        // The spill grows: its readers follow.
        e.setInputs([CellInput(location: CellLocation(sheet: 0, cell: CellReference("C1")!), content: .formula("A1:A3*100"))])
        #expect(Self.value(e, "D1") == .number(600))
        e.setInputs([CellInput(location: CellLocation(sheet: 0, cell: CellReference("A4")!), content: .value(.number(4))),
                     CellInput(location: CellLocation(sheet: 0, cell: CellReference("C1")!), content: .formula("A1:A4*100"))])
        #expect(Self.value(e, "D2") == .number(4))
        #expect(Self.value(e, "D1") == .number(1000))
    }

    /// A spill that shrinks takes back its old cells and spills into the new ones: the changes
    /// answer each cell once, with its final value (they answered G2 emptied, as its freed cell
    /// held, and the server stored that over "pen").
    @Test func aShrinkingSpillAnswersEachCellsFinalValue() {
        let e = Self.engine(["A1": "pen", "A2": "ink", "A3": "pad", "A4": "pen", "B1": 3, "B2": 10, "B3": 3, "B4": 7, "C1": 2,
                             "G1": "=FILTER(A1:A4,B1:B4>C1)"])
        #expect((1...4).map { Self.value(e, "G\($0)") } == [.text("pen"), .text("ink"), .text("pad"), .text("pen")])
        let changes = e.setInputs([CellInput(location: CellLocation(sheet: 0, cell: CellReference("C1")!), content: .value(.number(6)))])
        let answered = Dictionary(changes.map { ($0.location.cell.description, $0.value) }, uniquingKeysWith: { _, _ in .error(.value) })
        #expect(answered.count == changes.count, "each cell once: \(changes)")
        #expect(answered["G2"] == .text("pen") && answered["G3"] == .empty && answered["G4"] == .empty, "\(answered)")
        #expect((1...4).map { Self.value(e, "G\($0)") } == [.text("ink"), .text("pen"), .empty, .empty])
    }

    @Test func aBlockedSpillIsSpillAndItsRangeRefIsRef() {
        let e = Self.engine(["H1": "={1,2;3,4}", "I2": "in the way", "J1": "=SUM(H1#)"])
        #expect(Self.value(e, "H1") == .error(.spill))
        #expect(Self.value(e, "I1") == .empty && Self.value(e, "H2") == .empty)
        #expect(Self.value(e, "J1") == .error(.reference))
        e.setInputs([CellInput(location: CellLocation(sheet: 0, cell: CellReference("I2")!), content: .empty)])
        #expect(Self.value(e, "J1") == .number(10))
    }

    /// `C2#` on the anchor of a legacy array formula (Ctrl+Shift+Enter) is that formula's range,
    /// as Excel computes it (calc-suite spill_operator G2: `SUM(C2#)` over `{=123}` in C2:C5 is
    /// 492; dynamic_arrays M1); a cell inside it, or an error anchor, stays `#REF!`.
    @Test func aLegacyArrayFormulaAnchorsItsRange() {
        let e = CalcEngine()
        let s = e.addSheet("S")
        e.setFormula("123", at: CellReference("C2")!, sheet: s, arrayRange: CellRange("C2:C5")!)
        e.setFormula("{\"Hola\";\"me \";\"llamo\";\"x\"}", at: CellReference("K1")!, sheet: s, arrayRange: CellRange("K1:K3")!)
        e.setFormula("NA()", at: CellReference("A1")!, sheet: s, arrayRange: CellRange("A1:A2")!)
        for (ref, formula) in [("G2", "SUM(C2#)"), ("G3", "SUM(C3#)"), ("G4", "CONCAT(K1#)"), ("G5", "ROWS(A1#)")] {
            e.setFormula(formula, at: CellReference(ref)!, sheet: s)
        }
        e.recalculate()
        let value = { (ref: String) in e.value(at: CellReference(ref)!, sheet: s) }
        #expect(value("G2") == .number(492))
        #expect(value("G3") == .error(.reference))
        #expect(value("G4") == .text("Holame llamo"))
        #expect(value("G5") == .number(2), "an error in a legacy array does not move its range")
    }

    @Test func aSpillPastMaxArrayCellsIsNum() {
        var cells: [String: Any] = ["M1": "=A1:A10+A1:J1", "M20": "=A1:A10+A1:K1"]
        for r in 1...10 { cells["A\(r)"] = r }
        for c in ["B", "C", "D", "E", "F", "G", "H", "I", "J", "K"] { cells["\(c)1"] = 1 }
        let e = Self.engine(cells, limits: CalcLimits(maxArrayCells: 100))
        #expect(Self.value(e, "M1") == .number(2) && Self.value(e, "V10") == .number(11))
        #expect(Self.value(e, "M20") == .error(.number) && Self.value(e, "N20") == .empty)
    }

    @Test(arguments: ["G1#", "$G$1#", "Sheet1!G1#", "SUM(G1#)", "G1#*2", "G1# + 1"])
    func parses(_ formula: String) throws {
        _ = try CalcEngine.compile(formula, at: CellIndex(row: 0, column: 0))
    }
}
