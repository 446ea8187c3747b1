import Testing
import SheetPortCalc
import SheetPortCore
@testable import SheetPortServer

/// A write of many cells renders each stored line straight into bytes (`StoredCell.putLine`),
/// reads the server's own lines without Foundation (`StoredCell.parsedFlat`) and writes its
/// history entries without a `JSON` tree (`CellHistory.EntryWriter`): each must give the bytes,
/// and read the cells, the general way gives and reads, whatever the strings hold.
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

    /// Every line reads back the same through the flat reader and the general parser.
    @Test func flatReadMatchesTheGeneralParser() throws {
        var flat = 0
        for cell in Self.cells {
            let line = cell.line
            let general = try #require(StoredCell(parsing: line, row: cell.row), "\(cell.reference)")
            let read = try #require(StoredCell(line: line, row: cell.row))
            if line.withUnsafeBufferPointer({ StoredCell.parsedFlat($0, row: cell.row) }) != nil { flat += 1 }
            // A flat line reads back exactly; Foundation's parser (styled lines) may be an ulp off
            // on a long number (1.2345678901234568e+20 reads as ...567e+20): compared member by member.
            #expect(!cell.style.isEmpty || read.line == line, "\(cell.reference): \(String(decoding: line.prefix(200), as: UTF8.self))")
            #expect(read.column == general.column && read.input == general.input && read.formula == general.formula
                    && read.arrayRange == general.arrayRange && read.spill == general.spill && read.style.keys.sorted() == general.style.keys.sorted())
            if case .number(let number) = read.value, case .number(let other) = general.value {
                #expect(abs(number - other) <= number.ulp, "\(cell.reference)")
            } else {
                #expect(read.value == general.value, "\(cell.reference)")
            }
            #expect(read.input == cell.input && read.formula == cell.formula && read.arrayRange == cell.arrayRange && read.spill == cell.spill)
        }
        #expect(flat == Self.cells.filter(\.style.isEmpty).count, "the unstyled lines go the flat way")
    }

    /// Lines the flat reader must leave to the general parser (or refuse as it does): other
    /// shapes, whitespace, escapes and numbers JSON spells other ways, damaged bytes.
    @Test(arguments: [#"{"col":3,"input":"a","type":"string","value":"\u00e9\ud83d\ude00\/"}"#, #"{ "col":3,"input":"x"}"#,
                      #"{"col":3.0,"input":"x","type":"number","value":1E2}"#, #"{"col":true,"input":"x"}"#, #"{"col":"3"}"#,
                      #"{"col":3,"input":7,"type":"number","value":"7"}"#, #"{"col":3,"type":"number","value":true}"#,
                      #"{"col":3,"type":"number","value":null}"#, #"{"col":3,"type":"string"}"#, #"{"col":3,"type":"boolean","value":1}"#,
                      #"{"col":3,"type":"date","value":"2024-02-30T00:00:00"}"#, #"{"col":3,"type":"date","value":"2024-02-03"}"#,
                      ##"{"col":3,"type":"error","value":"#BOGUS!"}"##, #"{"col":3,"value":1e999,"type":"number"}"#, #"{"col":3,"input":"\ud800"}"#,
                      #"{"col":3,"input":"a"}x"#, #"{"col":3,"input":"a""#, "{\"col\":3,\"input\":\"tab\traw\"}", #"{"col":-2,"input":"\q"}"#,
                      #"{"col":3,"input":"a","style":{"bold":true}}"#, #"{"col":3,"nested":[1]}"#, #"{"col":03}"#, #"{"col":3,"value":-.5}"#, "", "{}", "[]"])
    func unusualLinesReadAsTheGeneralParserReadsThem(_ text: String) {
        let line = Array(text.utf8)
        let general = StoredCell(parsing: line, row: 7), read = StoredCell(line: line, row: 7)
        #expect((general == nil) == (read == nil), "\(text)")
        if let general, let read {
            #expect(read.line == general.line && read.column == general.column && read.input == general.input, "\(text)")
        }
    }

    @Test func invalidUTF8IsNotReadFlat() {
        for bytes: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xE2, 0x80]] {
            let line = Array(#"{"col":3,"input":""#.utf8) + bytes + Array(#""}"#.utf8)
            #expect(line.withUnsafeBufferPointer { StoredCell.parsedFlat($0, row: 1) } == nil)
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

    /// A row block's history entry, as the JSON tree wrote it before, reads the same without
    /// Foundation (`CellHistory.batchCells`) as through `JSONSerialization`; other shapes are
    /// left to it.
    @Test func batchEntriesReadAsFoundationReadsThem() throws {
        let cells = Self.cells
        func line(_ stored: StoredCell) -> JSON { stored.isVacant ? .null : .string(String(decoding: stored.lineJSON.text.utf8, as: UTF8.self)) }
        let objects: [JSON] = cells.enumerated().map { index, after in
            let before = index % 4 == 0 ? StoredCell(row: after.row, column: after.column) : cells[(index * 5) % cells.count]
            return .object([("row", .int(after.row)), ("col", .int(after.column)), ("input", .string(after.input)),
                            ("previous", .string(before.isSpilled ? "" : before.retypeableInput)),
                            ("changed", .array((index % 3 == 0 ? ["input", "style"] : ["style"]).map { .string($0) })),
                            ("before", line(before)), ("after", index % 7 == 0 ? .null : line(after))])
        }
        let json = Array(JSON.object([("cells", .array(objects))]).text.utf8)
        let read = try #require(CellHistory.batchCells(json)).map(\.dictionary)
        let general = try #require(JSON.parseObject(json)?["cells"] as? [[String: Any]])
        #expect(read.count == general.count && read.count == cells.count)
        for (mine, theirs) in zip(read, general) {
            #expect(mine["row"] as? Int == theirs["row"] as? Int && mine["col"] as? Int == theirs["col"] as? Int)
            for key in ["input", "previous", "before", "after"] { #expect(mine[key] as? String == theirs[key] as? String, "\(key)") }
            #expect(mine["changed"] as? [String] == theirs["changed"] as? [String])
        }
        #expect(CellHistory.batchCells(Array(#"{"cells":[]}"#.utf8))?.isEmpty == true)
        // Spaces are read as the general parser reads them (the one scanner, `JSONScanner`, allows them).
        #expect(CellHistory.batchCells(Array(#" { "cells" : [ ] } "#.utf8))?.isEmpty == true)
        for other in [#"{"cells":[{"row":1,"changed":[1]}]}"#, #"{"cells":[{"row":1}]"#, #"{"cells":[{"row":1}],}"#,
                      #"{"cells":[{"row":1,"before":{"col":1}}]}"#, #"{"cells":[{"row":1}]}x"#, #"{"other":[]}"#] {
            #expect(CellHistory.batchCells(Array(other.utf8)) == nil, "\(other)")
        }
    }
}
