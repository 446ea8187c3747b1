import Testing
@testable import SheetPortCalc
import SheetPortCore

/// Structured references whose column names end in a space, hold a line break, or need `'` escapes.
@Suite struct StructuredReferenceEdgeTests {
    /// Table3 on A1:E4: header row, two data rows, a totals row. Columns: "The one", "the two ",
    /// "Qty\nTotal", "#Sh'am[e]", "last".
    static func workbook(_ formula: String, at ref: String = "G2") -> CalcValue {
        let e = CalcEngine(clock: .fixed(unixTime: 0), randomSeed: 1)
        let s = e.addSheet("S")
        let columns = ["The one", "the two ", "Qty\nTotal", "#Sh'am[e]", "last"]
        for (c, name) in columns.enumerated() {
            e.setValue(.text(name), at: CellReference(row: 1, column: c + 1), sheet: s)
            e.setValue(.number(Double(c + 1)), at: CellReference(row: 2, column: c + 1), sheet: s)
            e.setValue(.number(Double(10 * (c + 1))), at: CellReference(row: 3, column: c + 1), sheet: s)
            e.setValue(.number(Double(100 * (c + 1))), at: CellReference(row: 4, column: c + 1), sheet: s)
        }
        e.addTable(CalcTable(name: "Table3", sheet: s, range: CellRange("A1:E4")!, totalsRowCount: 1, columnNames: columns))
        e.setFormula(formula, at: CellReference(ref)!, sheet: s)
        e.recalculate()
        return e.value(at: CellReference(ref)!, sheet: s)
    }

    static let table: [(String, CalcValue)] = [
        ("Table3[[#This Row],[the two ]]", .number(2)), ("SUM(Table3[[#Totals],[the two ]])", .number(200)),
        ("SUM(Table3[[#Totals],[the two ]:[last]])", .number(1400)), ("SUBTOTAL(109,Table3[[the two ]])", .number(22)),
        ("SUM(Table3[the two ])", .number(22)), ("SUM(Table3[[ the two ]])", .number(22)), ("SUM(Table3[THE TWO ])", .number(22)),
        ("SUM(Table3[[Qty\nTotal]])", .number(33)), ("SUM(Table3[[Qty\r\nTotal]])", .number(33)),
        ("Table3[[#This Row],[Qty\nTotal]]", .number(3)), ("SUM(Table3['#Sh''am'[e']])", .number(44)),
        ("SUM(Table3[[#Data],['#Sh''am'[e']]:[last]])", .number(99)), ("SUM(Table3[[the two]])", .number(22)),
        ("SUM(Table3[[the three ]])", .error(.reference)), ("SUM(Table3[[#Totals],[the two ]:[nope]])", .error(.reference)),
    ]

    @Test(arguments: table) func resolves(_ formula: String, _ expected: CalcValue) {
        #expect(Self.workbook(formula) == expected, "\(formula)")
    }

    /// XlsxWriter writes `[@Qty]` as `[[#This Row],Qty]`: a bare column after an item, to the
    /// closing bracket; unqualified, it is the table of the formula's own cell.
    @Test func bareColumnAfterAnItem() {
        #expect(Self.workbook("Table3[[#This Row],the two ]") == .number(2))
        #expect(Self.workbook("SUM(Table3[[#Data],the two ])") == .number(22))
        #expect(Self.workbook("[[#This Row],the two ]*2", at: "E3") == .number(40))
        for hostile in ["Table3[[#This Row],]", "Table3[[#This Row],the two ", "Table3[[#This Row],nope]", "Table3[[#This Row],,]"] {
            let value = Self.workbook(hostile)
            #expect(value == .error(.reference) || value == .error(.name), "\(hostile): \(value)")
        }
    }

    /// Hostile names: unterminated, empty, escapes at the end, only spaces.
    @Test(arguments: ["SUM(Table3[[the two ])", "SUM(Table3[[the two ']])", "SUM(Table3[[   ]])", "SUM(Table3[[]])", "Table3[[#This Row],[']", "Table3['"])
    func hostile(_ formula: String) {
        let value = Self.workbook(formula)
        #expect(value == .error(.reference) || value == .error(.name), "\(formula): \(value)")
    }
}
