import Testing
import SheetPortCalc
@testable import SheetPortServer

/// A recalculated dependent's value spliced into its stored line (`StoredLine`) must read back
/// as the cell `StoredCell` would write with that value, every other member kept, whatever the
/// line's strings hold.
@Suite struct StoredLineTests {
    /// Cells with hostile inputs, formulas and styles, each given new values of every kind.
    static var cells: [StoredCell] {
        var cells: [StoredCell] = []
        let inputs = ["=A1+1", "=\"\\\"type\\\":\\\"x\\\"\"&\"}\"", "=\"a\\\\\"&\"{[\"", "=LEN(\"\u{0}\u{1F}\")", "=\"é😀\"&\",\\\"value\\\":1\""]
        for (index, input) in inputs.enumerated() {
            var cell = StoredCell(row: 3 + index, column: 2 + index)
            cell.input = input
            cell.formula = String(input.dropFirst())
            cell.value = .number(1)
            cells.append(cell)
        }
        var dated = cells[0]
        dated.style = ["numFmt": "yyyy-mm-dd", "bold": true]
        var styled = cells[1]
        styled.style = ["fill": "#FFEE00", "numFmt": "0.00%"]
        return cells + [dated, styled]
    }

    static let values: [CalcValue] = [.number(42), .number(-0.1), .number(1e300), .number(45_000.5), .text("\"type\":\"number\"}"),
                                      .text("\\"), .boolean(true), .error(.divisionByZero), .text("")]

    @Test(arguments: values)
    func splicedLineMatchesTheRenderedOne(_ value: CalcValue) throws {
        for cell in Self.cells {
            let spliced = try #require(StoredLine.replacingValue(in: ArraySlice(cell.line), with: value))
            var expected = cell
            expected.value = value
            #expect(spliced == expected.line, "\(cell.reference) with \(value)")
            let read = try #require(StoredCell(line: spliced, row: cell.row))
            #expect(read.input == cell.input && read.formula == cell.formula && read.column == cell.column)
        }
    }

    @Test func linesItCannotSpliceAreLeftToTheSlowWay() {
        let lines = ["", "{", "not json", "{\"col\":2,\"value\":1,\"type\":\"number\"}", "{\"col\":2,\"type\":\"number\"}",
                     "{\"col\":2,\"input\":\"unterminated,\"type\":\"number\",\"value\":1}", "{\"col\":2,\"type\":\"number\",\"value\":1} trailing"]
        for line in lines {
            #expect(StoredLine.replacingValue(in: ArraySlice(Array(line.utf8)), with: .number(1)) == nil, "\(line)")
        }
    }
}
