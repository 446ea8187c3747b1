import Testing
import SheetPortCalc
import SheetPortCore
@testable import SheetPortServer

/// A write of many cells renders each stored line straight into bytes (`StoredCell.putLine`)
/// and writes its history entries without a `JSON` tree (`CellHistory.EntryWriter`): each must
/// give the bytes the general way gives, whatever the strings hold.
@Suite struct StoredCellWriteTests {
    /// Texts JSON must escape or that look like the line's own syntax.
    static let texts = ["plain", "", "\"quoted\"", "back\\slash", "\u{0}\u{1}\u{1F}\u{7F}", "tab\tline\nreturn\r\u{8}\u{C}",
                        "sep\u{2028}para\u{2029}", "\u{2027}\u{2030}€", "é😀👩‍👩‍👧", "\",\"value\":1,\"type\":\"number\"}", "{[\"style\":{}]}",
                        "/slash/", String(repeating: "long\"", count: 3_000)]

    /// Values of every kind, numbers at the edges of the integral and shortest forms.
    static let values: [CalcValue] = [.empty, .number(0), .number(-0.0), .number(42), .number(-0.1), .number(1e300), .number(-1e-300),
                                      .number(9_007_199_254_740_992), .number(9_007_199_254_740_991), .number(123_456_789_012_345_678_901),
                                      .number(.greatestFiniteMagnitude), .number(.leastNonzeroMagnitude), .number(45_000.5),
                                      .boolean(true), .boolean(false), .error(.divisionByZero), .error(.notAvailable)]
        + texts.map { .text($0) }

    /// Cells with the hostile texts in every string member, each value, and styles (a date format turns numbers into dates).
    static var cells: [StoredCell] {
        var cells: [StoredCell] = []
        let styles: [[String: Any]] = [[:], ["bold": true, "numFmt": "0.00%"], ["numFmt": "yyyy-mm-dd"], ["fill": "#FFEE00", "zeta": "\"x\u{2028}"]]
        for (index, text) in texts.enumerated() {
            for (valueIndex, value) in values.enumerated() {
                var cell = StoredCell(row: 1 + index * 1_000 + valueIndex, column: [1, 26, 27, 702, 703, 16_384][valueIndex % 6])
                cell.input = valueIndex % 2 == 0 ? "=" + text : text
                cell.formula = valueIndex % 2 == 0 ? text : nil
                cell.value = value
                cell.style = styles[(index + valueIndex) % styles.count]
                if valueIndex % 3 == 0 { cell.arrayRange = text }
                if valueIndex % 4 == 1 { cell.spill = text }
                cells.append(cell)
            }
        }
        return cells
    }

    @Test func lineBytesMatchTheJSONTree() {
        for cell in Self.cells {
            #expect(cell.line == Array(cell.lineJSON.text.utf8), "\(cell.reference)")
        }
    }

    /// A history entry's bytes are those of the `JSON` tree it was built as before, so entries
    /// written either way read alike (`CellHistory.entries` reads both).
    @Test func historyEntryBytesMatchTheJSONTree() {
        let cells = Self.cells
        let writer = CellHistory.EntryWriter()
        for (index, after) in cells.enumerated() {
            var before = cells[(index * 7) % cells.count]
            before.row = after.row
            before.column = after.column
            if index % 5 == 0 { before = StoredCell(row: after.row, column: after.column) }
            let changed = index % 2 == 0 ? ["input"] : ["input", "style"]
            let at: CellReference? = index % 3 == 0 ? nil : CellReference(row: after.row, column: after.column)
            writer.putCell(before, after, changed: changed, at: at)
            func line(_ stored: StoredCell) -> JSON { stored.isVacant ? .null : .string(String(decoding: stored.lineJSON.text.utf8, as: UTF8.self)) }
            let members: [(String, JSON)] = [("input", .string(after.isVacant ? "" : after.input)),
                                             ("previous", .string(before.isVacant || before.isSpilled ? "" : before.retypeableInput)),
                                             ("changed", .array(changed.map { .string($0) })), ("before", line(before)), ("after", line(after))]
            let expected = JSON.object((at.map { [("row", JSON.int($0.row)), ("col", .int($0.column))] } ?? []) + members)
            #expect(writer.take() == Array(expected.text.utf8), "\(after.reference)")
        }
    }
}
