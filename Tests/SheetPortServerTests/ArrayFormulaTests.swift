import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortWriter
@testable import SheetPortClient
import SheetPortTestSupport
@testable import SheetPortServer

extension ServerTests {
    /// An imported array formula (one cell, and one over a range) is stored with its kind and
    /// comes back from export as an array formula over the same range, next to a plain one.
    @Test func arrayFormulasComeBackAsArrayFormulas() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let path = fixture.folder.appendingPathComponent("array.xlsx").path
        let writer = try WorkbookWriter(path: path)
        let sheet = try writer.addWorksheet(named: "Arrays")
        for row in 1...3 {
            var cells = [Cell(column: 2, value: .number(Double(row))), Cell(column: 3, value: .number(Double(row) * 10))]
            if row == 1 { cells.insert(Cell(column: 1, value: .number(140), formula: "SUM(B1:B3*C1:C3)", formulaKind: .array(range: "A1")), at: 0) }
            cells.append(row == 1 ? Cell(column: 4, value: .number(2), formula: "B1:B3*2", formulaKind: .array(range: "D1:D3"))
                                  : Cell(column: 4, value: .number(Double(row) * 2)))
            cells.append(Cell(column: 5, value: .number(Double(row) + 1), formula: "B\(row)+1"))
            try sheet.append(Row(index: row, cells: cells))
        }
        try writer.close()

        let id = try fixture.api.importSheet(path)
        let exported = fixture.folder.appendingPathComponent("exported.xlsx")
        let answer = try fixture.api.call("GET", "/api/sheets/\(id)/export.xlsx")
        #expect(answer.status == 200)
        try Data(answer.body).write(to: exported)

        let workbook = try Workbook(path: exported.path)
        let rows = try workbook.rows(of: try #require(workbook.firstWorksheet))
        var kinds: [String: FormulaKind] = [:]
        while let row = try rows.nextRow() {
            for cell in row.cells where cell.formula != nil {
                kinds[CellReference(row: row.index, column: cell.column).description] = cell.formulaKind
            }
        }
        #expect(kinds["A1"] == .array(range: "A1"))
        #expect(kinds["D1"] == .array(range: "D1:D3"))
        #expect(kinds["E2"] == .normal)
        #expect(kinds["D2"] == nil, "only the array's first cell holds the formula")
    }
}
