import Testing
@testable import SheetPortCalc
import SheetPortCore

/// SHEET and SHEETS (Microsoft's reference: every sheet counts, hidden or not, chart sheets too;
/// a sheet name that does not exist is #N/A; SHEETS of a value that is no reference is #VALUE!,
/// as IronCalc and LibreOffice answer).
@Suite struct SheetNumberTests {
    /// Three worksheets Data, Stuff, Third; with `chartSecond`, the workbook has a chart sheet in
    /// second place, which the engine does not hold.
    static func evaluate(_ formulas: [String], chartSecond: Bool) -> [CalcValue] {
        let e = CalcEngine(clock: .fixed(unixTime: 0), randomSeed: 1)
        for name in ["Data", "Stuff", "Third"] { _ = e.addSheet(name) }
        if chartSecond { e.numberSheets([1, 3, 4], count: 4) }
        _ = e.defineName("Picked", formula: "Stuff!$B$2", sheet: nil)
        for (k, f) in formulas.enumerated() { e.setFormula(f, at: CellReference(row: k + 1, column: 1), sheet: 1) }
        e.recalculate()
        return formulas.indices.map { e.value(at: CellReference(row: $0 + 1, column: 1), sheet: 1) }
    }

    static let cases: [(String, CalcValue, CalcValue)] = [
        // formula, without the chart sheet, with it
        ("SHEET()", .number(2), .number(3)),
        ("_xlfn.SHEET()", .number(2), .number(3)),
        ("SHEET(Data!C3)", .number(1), .number(1)),
        ("SHEET(Third!A1:B9)", .number(3), .number(4)),
        ("SHEET(Picked)", .number(2), .number(3)),
        ("SHEET(\"third\")", .number(3), .number(4)),
        ("SHEET(\"badSheetName\")", .error(.notAvailable), .error(.notAvailable)),
        ("SHEET(\"\")", .error(.notAvailable), .error(.notAvailable)),
        ("SHEET(1/0)", .error(.divisionByZero), .error(.divisionByZero)),
        ("SHEET(Data:Third!A1)", .number(1), .number(1)),
        ("SHEETS()", .number(3), .number(4)),
        ("SHEETS(A1:B2)", .number(1), .number(1)),
        ("SHEETS(Data:Third!A1)", .number(3), .number(4)),
        ("SHEETS(Stuff:Third!A1:C3)", .number(2), .number(2)),
        ("SHEETS(\"Data\")", .error(.value), .error(.value)),
        ("SHEETS(3)", .error(.value), .error(.value)),
        ("SHEET(2)", .error(.notAvailable), .error(.notAvailable)),
        ("SHEET(TRUE)", .error(.notAvailable), .error(.notAvailable)),
        ("SHEETS(NA())", .error(.notAvailable), .error(.notAvailable)),
    ]

    @Test func sheetNumbersInTabOrder() {
        let formulas = Self.cases.map(\.0)
        let plain = Self.evaluate(formulas, chartSecond: false), charted = Self.evaluate(formulas, chartSecond: true)
        for (k, c) in Self.cases.enumerated() {
            #expect(plain[k] == c.1, "\(c.0) = \(plain[k]), expected \(c.1)")
            #expect(charted[k] == c.2, "\(c.0) with a chart sheet second = \(charted[k]), expected \(c.2)")
        }
    }

    @Test func inconsistentNumberingIsIgnored() {
        let e = CalcEngine(clock: .fixed(unixTime: 0), randomSeed: 1)
        for name in ["A", "B"] { _ = e.addSheet(name) }
        for bad in [([1], 2), ([1, 1], 2), ([0, 2], 2), ([1, 3], 2), ([Int.min, Int.max], Int.max)] { e.numberSheets(bad.0, count: bad.1) }
        e.setFormula("SHEET()*10+SHEETS()", at: CellReference("A1")!, sheet: 1)
        e.recalculate()
        #expect(e.value(at: CellReference("A1")!, sheet: 1) == .number(22))
    }

    @Test func storedWithTheFuturePrefix() {
        #expect(FormulaText.storedName("SHEET") == "_xlfn.SHEET")
        #expect(FormulaText.storedName("SHEETS") == "_xlfn.SHEETS")
    }
}
