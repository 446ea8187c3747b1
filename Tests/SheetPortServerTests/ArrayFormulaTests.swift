import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortWriter
@testable import SheetPortConvert
@testable import SheetPortClient
import SheetPortTestSupport

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

/// The cell JSONL member `arrayRange` (an array formula's range, a key CONTRACTS lets readers
/// add): written for array formulas, read back by `convert IN.jsonl`, refused when hostile.
@Suite struct ArrayRangeJSONLTests {
    @Test func anArrayRangeRoundTripsThroughJSONL() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.jsonl").path
        let output = folder.appendingPathComponent("out.xlsx").path
        let lines = #"{"ref":"A1","type":"number","value":6,"formula":"SUM(B1:B3)","arrayRange":"A1:A3"}"# + "\n"
            + #"{"ref":"B1","type":"number","value":1,"arrayRange":null}"# + "\n"
        try Data(lines.utf8).write(to: URL(fileURLWithPath: input))
        let result = try runSheetport(["convert", input, "-o", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try convert(output, to: .jsonl) == lines.replacingOccurrences(of: #","arrayRange":null"#, with: ""))
    }

    @Test func aHostileArrayRangeIsRefusedWithItsLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let hostile: [Any] = ["B1:B3", "A1:", "A0:A3", "A1:XFE1", "A1:A1048577", "", "A1\u{0}:A3", "A1\u{1B}[2J", "-A1", 12,
                              ["A1"], String(repeating: "A", count: 100_000) + "1", "A1:A3:A4"]
        for (index, range) in hostile.enumerated() {
            let input = folder.appendingPathComponent("bad-\(index).jsonl").path
            let object: [String: Any] = ["ref": "A1", "type": "number", "value": 1, "formula": "B1", "arrayRange": range]
            try (try JSONSerialization.data(withJSONObject: object) + Data("\n".utf8)).write(to: URL(fileURLWithPath: input))
            let result = try runSheetport(["convert", input, "-o", folder.appendingPathComponent("bad-\(index).xlsx").path])
            #expect(result.status != 0, "\(range) was accepted")
            #expect(result.stderr.contains("line 1: \"arrayRange\""), "\(range): \(result.stderr.prefix(300))")
            #expect(!result.stderr.unicodeScalars.contains { $0.isUnsafeControl && $0 != "\n" }, "\(index)")
        }
        // A range on a cell without a formula is refused too.
        let input = folder.appendingPathComponent("no-formula.jsonl").path
        try Data(#"{"ref":"A1","type":"number","value":1,"arrayRange":"A1:A2"}"#.utf8 + Data("\n".utf8)).write(to: URL(fileURLWithPath: input))
        #expect(try runSheetport(["convert", input, "-o", folder.appendingPathComponent("x.xlsx").path]).status != 0)
    }
}
