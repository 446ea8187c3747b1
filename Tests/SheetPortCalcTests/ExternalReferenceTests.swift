import Testing
@testable import SheetPortCalc
import SheetPortCore

/// References to other workbooks (`[1]Sheet1!A1`) read the values the workbook caches for them.
@Suite struct ExternalReferenceTests {
    /// Book 1 (`Source.xlsx`) caches Sheet1!A1 = 2, A2 = 2, B3 = "x"; its sheet Empty caches nothing.
    /// Book 2's name Rate is `'[2]Rates'!$B$2`, 0.5.
    static func workbook(_ formulas: [String: String]) -> CalcEngine {
        let e = CalcEngine(clock: .fixed(unixTime: 0), randomSeed: 1)
        let s = e.addSheet("Here")
        e.setValue(.number(10), at: CellReference("A2")!, sheet: s)
        e.addExternalSheet(book: 1, fileName: "Source.xlsx", name: "Sheet1",
                           values: [(CellReference("A1")!, .number(2)), (CellReference("A2")!, .number(2)), (CellReference("B3")!, .text("x"))])
        e.addExternalSheet(book: 1, fileName: "Source.xlsx", name: "Empty", values: [])
        e.addExternalSheet(book: 2, fileName: nil, name: "Rates", values: [(CellReference("B2")!, .number(0.5))])
        e.defineExternalName(book: 2, fileName: nil, name: "Rate", formula: "'[2]Rates'!$B$2")
        e.defineName("m", formula: "[1]Sheet1!$A$1")
        for (ref, formula) in formulas { e.setFormula(formula, at: CellReference(ref)!, sheet: s) }
        e.recalculate()
        return e
    }

    static let table: [(String, CalcValue)] = [
        ("[1]Sheet1!$A$1+1", .number(3)), ("[1]Sheet1!$A$1+[1]Sheet1!$A$2", .number(4)), ("SUM([1]Sheet1!$A$1:$B$3)", .number(4)),
        ("COUNTA([1]Sheet1!A1:B3)", .number(3)), ("'[1]Sheet1'!B3", .text("x")), ("[Source.xlsx]Sheet1!A1*10", .number(20)),
        ("'[source.xlsx]sheet1'!A2", .number(2)), ("[1]Sheet1!C9", .number(0)), ("m*3", .number(6)), ("[2]!Rate*4", .number(2)),
        ("[1]Empty!A1", .error(.reference)), ("[1]Missing!A1", .error(.reference)), ("[9]Sheet1!A1", .error(.reference)),
        ("[2]!Nope", .error(.name)), ("A2:'[1]Sheet1'!A2", .error(.value)), ("SUM([1]Sheet1!A1:A2,A2)", .number(14)),
        ("IFERROR([7]Sheet1!A1,-1)", .number(-1)),
        // A range between this sheet and one of another workbook is #VALUE!, held or not (calc-suite
        // formulas__test CORE!P18); the missing sheet's reference alone, or a range on it, is #REF!.
        ("A2:'[1]Missing'!A2", .error(.value)), ("A2:[9]Sheet1!A2", .error(.value)), ("SUM(A2:'[1]Missing'!A2)", .error(.value)),
        ("A2:[1]Missing!A2+1", .error(.value)), ("'[1]Missing'!A2:A3", .error(.reference)), ("A2:#REF!", .error(.reference)),
        ("[1]Missing!A2:[1]Missing!A3", .error(.reference)), ("SUM(A2:A2)", .number(10)),
    ]

    @Test(arguments: table) func readsCachedValues(_ formula: String, _ expected: CalcValue) {
        let e = Self.workbook(["B1": formula])
        #expect(e.value(at: CellReference("B1")!, sheet: 0) == expected, "\(formula)")
        #expect(e.report.unsupportedFormulas.isEmpty, "\(formula)")
    }

    /// Without the links loaded, such formulas keep their cached value and are reported, as before.
    @Test func withoutLinksTheCachedValueIsKept() {
        let e = CalcEngine(clock: .fixed(unixTime: 0), randomSeed: 1)
        let s = e.addSheet("Here")
        e.setFormula("[1]Sheet1!A1+1", at: CellReference("A1")!, sheet: s, cachedValue: .number(7))
        e.recalculate()
        #expect(e.value(at: CellReference("A1")!, sheet: s) == .number(7))
        #expect(e.report.unsupportedFormulas.first?.reason.isExternalReference == true)
        #expect(throws: FormulaParseError.self) { try CalcEngine.validateFormula("[1]Sheet1!A1") }
    }

    /// Damaged external syntax is a parse error, never a crash; a link number far out of range is `#REF!`.
    @Test(arguments: ["[1]Sheet1", "[1]!", "[1]Sheet1!", "[]Sheet1!A1+[", "'[1]Sheet1!A1", "[1]Sheet 1!A1",
                      "[" + String(repeating: "9", count: 5_000) + "]S!A1", "[1]S:T!A1"])
    func hostileSyntax(_ formula: String) {
        let e = Self.workbook(["B1": formula])
        let value = e.value(at: CellReference("B1")!, sheet: 0)
        #expect(value == .error(.name) || value == .error(.reference), "\(formula): \(value)")
    }
}
