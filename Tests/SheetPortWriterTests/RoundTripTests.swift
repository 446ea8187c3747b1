import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortWriter
@testable import SheetPortConvert
import SheetPortTestSupport

/// reader(writer(cells)) == cells: over generated cells (a seeded property test) and over
/// the cell JSONL of every corpus workbook the reader reads.
@Suite struct RoundTripTests {
    /// A small deterministic generator (SplitMix64), so a failure names a seed that repeats it.
    static let texts = ["plain", "naïve café", "emoji 👍🏽 and 中文", " leading", "trailing ", "two  spaces",
                        "line\nbreak", "tab\there", "cr\rlf\r\n", "<tag> & \"quotes\" 'apos'", "_x0041_ literal",
                        "_x005F_x0041_", "control \u{1}\u{1F}", "=not a formula", "", "ends with backslash \\",
                        "\u{FFFE}\u{FFFF} noncharacters", String(repeating: "long ", count: 2000)]
    static let formats = ["General", "0.00", "#,##0", "0%", "yyyy-mm-dd", "d-mmm-yy", "[h]:mm:ss", "hh:mm:ss",
                          "\"quoted\" 0", "[Red]0.0;[Blue]-0.0", "@"]
    static let colors: [String?] = [nil, "#FF0000", "#00FF00", "#123ABC", "#FFFFFF"]

    static func randomStyle(_ random: inout SeededGenerator) -> CellStyle {
        CellStyle(isBold: Bool.random(using: &random), isItalic: Bool.random(using: &random),
                  horizontalAlignment: [nil, "left", "center", "right", "justify"].randomElement(using: &random)!,
                  numberFormat: formats.randomElement(using: &random)!,
                  fillColor: colors.randomElement(using: &random)!, textColor: colors.randomElement(using: &random)!)
    }

    static func randomValue(_ random: inout SeededGenerator) -> CellValue {
        switch Int.random(in: 0..<7, using: &random) {
        case 0: return .number(Double(Int.random(in: -1_000_000...1_000_000, using: &random)))
        case 1: return .number(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF) * (Bool.random(using: &random) ? 1 : -1))
        case 2: return .string(texts.randomElement(using: &random)! + String(Int.random(in: 0..<5, using: &random)))
        case 3: return .boolean(Bool.random(using: &random))
        case 4: return .error(["#DIV/0!", "#N/A", "#NAME?", "#NULL!", "#NUM!", "#REF!", "#VALUE!"].randomElement(using: &random)!)
        case 5: return .date(serial: Double(Int.random(in: 61...2_958_465, using: &random)) + Double(Int.random(in: 0..<86_400, using: &random)) / 86_400)
        default: return .duration(days: Double(Int.random(in: 0..<10_000_000, using: &random)) / 86_400)
        }
    }

    @Test(arguments: 1...20)
    func generatedCellsReadBack(seed: UInt64) throws {
        var random = SeededGenerator(state: seed)
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("book.xlsx").path
        var options = WriterOptions()
        options.sharedStrings = seed % 2 == 0
        let writer = try WorkbookWriter(path: path, options: options)
        let sheet = try writer.addWorksheet(named: "Seed \(seed)")
        var written: [Row] = []
        var styles: [Int: CellStyle] = [0: .plain]
        var rowIndex = 0
        for _ in 0..<Int.random(in: 1...60, using: &random) {
            rowIndex += Int.random(in: 1...3, using: &random)
            var row = Row(index: rowIndex, height: Bool.random(using: &random) ? Double(Int.random(in: 5...100, using: &random)) : nil)
            var column = 0
            for _ in 0..<Int.random(in: 0...12, using: &random) {
                column += Int.random(in: 1...40, using: &random)
                var cell = Cell(column: column, value: Self.randomValue(&random))
                if Int.random(in: 0..<4, using: &random) == 0 {
                    cell.formula = "SUM(A1:B\(rowIndex))*\(column)"
                    if Int.random(in: 0..<3, using: &random) == 0 { cell.value = .empty }
                }
                if Bool.random(using: &random) {
                    var style = Self.randomStyle(&random)
                    // A date value needs a date format and a number a non-date one, to read back as it was.
                    switch cell.value {
                    case .date: style.numberFormat = ["yyyy-mm-dd", "yyyy-mm-dd hh:mm:ss", "d-mmm-yy"].randomElement(using: &random)!
                    case .duration: style.numberFormat = "[h]:mm:ss"
                    case .number: if NumberFormat.isDateFormat(style.numberFormat) { style.numberFormat = "0.00" }
                    default: break
                    }
                    cell.styleIndex = try writer.style(style)
                    styles[cell.styleIndex] = style
                } else if case .date = cell.value {
                    cell.styleIndex = try writer.style(CellStyle(numberFormat: "yyyy-mm-dd hh:mm:ss"))
                    styles[cell.styleIndex] = CellStyle(numberFormat: "yyyy-mm-dd hh:mm:ss")
                } else if case .duration = cell.value {
                    cell.styleIndex = try writer.style(CellStyle(numberFormat: "[h]:mm:ss"))
                    styles[cell.styleIndex] = CellStyle(numberFormat: "[h]:mm:ss")
                }
                if case .string(let text) = cell.value, text.isEmpty, cell.formula == nil { continue }
                row.cells.append(cell)
            }
            try sheet.append(row)
            written.append(row)
        }
        try writer.close()

        let workbook = try Workbook(path: path)
        let readStyles = try workbook.styles()
        let reader = try workbook.rows(of: try #require(workbook.firstWorksheet))
        var read: [Row] = []
        while let row = try reader.nextRow() { read.append(row) }
        let expected = written.filter { !$0.cells.isEmpty || $0.height != nil }
        #expect(read.map(\.index) == expected.map(\.index), "seed \(seed)")
        for (got, want) in zip(read, expected) {
            #expect(got.height == want.height, "seed \(seed) row \(want.index)")
            #expect(got.cells.map(\.column) == want.cells.map(\.column), "seed \(seed) row \(want.index)")
            for (cell, original) in zip(got.cells, want.cells) {
                #expect(cell.value == original.value, "seed \(seed) \(CellReference.columnName(original.column))\(want.index)")
                #expect(cell.formula == original.formula)
                let style = readStyles.format(cell.styleIndex).keptStyle(relativeTo: readStyles.format(0))
                #expect(style == styles[original.styleIndex], "seed \(seed) \(CellReference.columnName(original.column))\(want.index)")
            }
        }
    }

    static let readableCorpusFiles = Project.corpusFiles().filter { Project.expectedCorpusErrors[$0] == nil }

    /// xlsx -> JSONL -> xlsx -> JSONL gives the same JSONL, but for one documented case: a
    /// date with no number format (an ISO `t="d"` cell) gets `yyyy-mm-dd hh:mm:ss`.
    @Test(arguments: readableCorpusFiles)
    func corpusJSONLReadsBack(_ name: String) throws {
        let original = Project.corpus.appendingPathComponent(name).path
        // The known-bad files are CorpusTests' subject; any other opens, and one without a
        // worksheet (excelize__BadWorkbook.xlsx) has no cells to read back.
        guard try Workbook(path: original).firstWorksheet != nil else { return }
        let first = try convert(original, to: .jsonl)
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jsonl = folder.appendingPathComponent("cells.jsonl").path
        try Data(first.utf8).write(to: URL(fileURLWithPath: jsonl))
        let rewritten = folder.appendingPathComponent("book.xlsx").path
        try TextToWorkbook.convert(TextSource(path: jsonl), format: .jsonl, to: rewritten)
        let second = try convert(rewritten, to: .jsonl)
        let before = try jsonObjects(first), after = try jsonObjects(second)
        #expect(before.count == after.count, "\(name)")
        for (old, new) in zip(before, after) where old != new {
            let defaulted = old["type"] as? String == "date" && old["style"] == nil
                && (new["style"] as? [String: Any])?.keys.sorted() == ["numFmt"]
            var trimmed = new as! [String: Any]
            trimmed["style"] = nil
            #expect(defaulted && old == trimmed as NSDictionary, "\(name): \(old) became \(new)")
        }
    }
}
