import Testing
@testable import SheetPortCalc
import SheetPortCore

/// The `:` operator between functions returning references builds the range between them.
@Suite struct ReferenceFunctionRangeTests {
    static let cells: [String: Double] = ["A1": 1, "B1": 2, "C1": 4, "D1": 8, "A2": 16, "E1": 3]

    @Test(arguments: [
        ("SUM(INDEX(A1:D1,1,1):INDEX(A1:D1,1,E1-1))", 3.0), ("SUM(INDEX(A1:D1,1,2):INDEX(A1:D1,1,4))", 14),
        ("SUM(OFFSET(A1,0,1):OFFSET(A1,0,3))", 14), ("SUM(INDIRECT(\"B1\"):D1)", 14), ("SUM(A1:INDEX(A1:D2,2,1))", 17),
        ("SUM(INDEX(A1:D1,1,3):A1)", 7),
    ])
    func sums(_ formula: String, _ expected: Double) {
        #expect(eval(formula, Self.cells) == .number(expected), "\(formula)")
    }
}

extension ReferenceFunctionRangeTests {
    /// The workbook's case: a defined name (or a table) for the list, another for the index, the
    /// list's cells themselves formulas computed after the sum asks for them.
    @Test(arguments: [false, true]) func namesAndTables(_ asTable: Bool) {
        let e = CalcEngine(clock: .fixed(unixTime: 0), randomSeed: 1)
        let s = e.addSheet("Données")
        let t = e.addSheet("Calc")
        for (k, ref) in ["A2", "B2", "C2", "D2"].enumerated() {
            e.setFormula("\(1 << k)*Calc!$A$1", at: CellReference(ref)!, sheet: s)
        }
        e.setValue(.number(1), at: CellReference("A1")!, sheet: t)
        e.setValue(.number(3), at: CellReference("B1")!, sheet: t)
        if asTable {
            e.addTable(CalcTable(name: "Liste3", sheet: s, range: CellRange("A1:D2")!, columnNames: ["a", "b", "c", "d"]))
        } else {
            e.defineName("Liste3", formula: "'Données'!$A$2:$D$2")
        }
        e.defineName("Indice", formula: "Calc!$B$1")
        e.setFormula("SUM(INDEX(Liste3,1,1):INDEX(Liste3,1,Indice-1))", at: CellReference("C1")!, sheet: t)
        e.recalculate()
        #expect(e.value(at: CellReference("C1")!, sheet: t) == .number(3))
        _ = e.setInputs([CellInput(location: CellLocation(sheet: t, cell: CellReference("B1")!), content: .value(.number(5)))])
        #expect(e.value(at: CellReference("C1")!, sheet: t) == .number(15))
    }
}
