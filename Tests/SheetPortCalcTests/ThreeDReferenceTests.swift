import Testing
@testable import SheetPortCalc
import SheetPortCore

/// 3-D references (`Sheet1:Sheet3!A1`): SUM-like functions read the cell or range on every sheet
/// from the first to the last in workbook order.
@Suite struct ThreeDReferenceTests {
    /// Jan, Feb, Mar, Apr 1 and Summary; A1 = 1, 2, 4, "8" (text), B1 = 10, 20, 40, TRUE.
    static func workbook() -> CalcEngine {
        let e = CalcEngine(clock: .fixed(unixTime: 0, utcOffsetSeconds: 0), randomSeed: 1)
        for name in ["Jan", "Feb", "Mar", "Apr 1", "Summary"] { _ = e.addSheet(name) }
        let a: [CalcValue] = [.number(1), .number(2), .number(4), .text("8")]
        let b: [CalcValue] = [.number(10), .number(20), .number(40), .boolean(true)]
        for s in 0..<4 {
            e.setValue(a[s], at: CellReference("A1")!, sheet: s)
            e.setValue(b[s], at: CellReference("B1")!, sheet: s)
        }
        return e
    }

    static let table: [(String, CalcValue)] = [
        ("SUM(Jan:Mar!A1)", .number(7)), ("SUM(Mar:Jan!A1)", .number(7)), ("SUM(Jan:Mar!A1:B1)", .number(77)),
        ("SUM(jan:MAR!$A$1)", .number(7)), ("SUM('Jan:Apr 1'!A1:B1)", .number(77)), ("SUM(Jan:Mar!A1,Summary!Z1)", .number(7)),
        ("COUNT('Jan:Apr 1'!A1:B1)", .number(6)), ("COUNTA('Jan:Apr 1'!A1:B1)", .number(8)), ("AVERAGE(Jan:Mar!B1)", .number(70.0 / 3)),
        ("MAX(Jan:Mar!A1)", .number(4)), ("MIN(Feb:Mar!A1:B1)", .number(2)), ("SUM(Jan:Jan!A1)", .number(1)),
        ("SUM(Jan:Nope!A1)", .error(.reference)), ("SUM(Nope:Jan!A1)", .error(.reference)), ("Jan:Mar!A1+1", .error(.value)),
        ("SUM(Jan:Mar!Z9)", .number(0)), ("SUM(Jan:Mar!A:A)", .number(7)), ("SUM(Jan:Mar!XFD1048576)", .number(0)),
    ]

    @Test(arguments: table) func evaluates(_ formula: String, _ expected: CalcValue) {
        let e = Self.workbook()
        e.setFormula(formula, at: CellReference("A1")!, sheet: 4)
        e.recalculate()
        let v = e.value(at: CellReference("A1")!, sheet: 4)
        if case .number(let x) = expected {
            #expect(close(v, x), "\(formula) = \(v), expected \(expected)")
        } else {
            #expect(v == expected, "\(formula) = \(v), expected \(expected)")
        }
    }

    @Test func anEditOnAMiddleSheetRecomputesTheSum() {
        let e = Self.workbook()
        e.setFormula("SUM(Jan:Mar!A1)", at: CellReference("A1")!, sheet: 4)
        e.recalculate()
        e.setValue(.number(100), at: CellReference("A1")!, sheet: 1)
        e.recalculate()
        #expect(e.value(at: CellReference("A1")!, sheet: 4) == .number(105))
        e.setValue(.error(.notAvailable), at: CellReference("A1")!, sheet: 2)
        e.recalculate()
        #expect(e.value(at: CellReference("A1")!, sheet: 4) == .error(.notAvailable))
    }

    @Test func theFormulaTextRoundTrips() throws {
        let e = Self.workbook()
        e.setFormula("SUM(Jan:Mar!A1:B2)", at: CellReference("C3")!, sheet: 4)
        let text = try #require(e.formula(at: CellReference("C3")!, sheet: 4))
        #expect(text == "SUM('Jan:Mar'!A1:B2)")
        #expect(try CalcEngine.translateFormula(text, from: CellReference("C3")!, to: CellReference("C4")!) == "SUM('Jan:Mar'!A2:B3)")
        // A 3-D prefix without a reference after it does not parse.
        #expect(throws: FormulaParseError.self) { try CalcEngine.validateFormula("SUM(Jan:Mar!)") }
    }
}
