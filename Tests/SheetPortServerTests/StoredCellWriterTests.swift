import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortWriter
@testable import SheetPortConvert
@testable import SheetPortServer
import SheetPortTestSupport

/// The import's row encoding (`StoredCellWriter`) writes the same bytes as `RowBlock.header`
/// and `JSONLWriter.write(_:input:)` with the input the import stored before it: over every
/// corpus workbook's first worksheet, and over hostile values made here.
@Suite struct StoredCellWriterTests {
    /// The bytes of `rows` both ways, with the reference's input: `=` and the formula, else the value as a CSV field.
    static func both(_ rows: [Row], styles: Styles, system: DateSystem) throws -> (reference: [UInt8], stored: [UInt8]) {
        let output = ByteOutput(collectingAs: "reference")
        let reference = JSONLWriter(output: output, styles: styles, dateSystem: system)
        let stored = StoredCellWriter(styles: styles, dateSystem: system)
        var bytes: [UInt8] = []
        for row in rows {
            try output.write(RowBlock.header(row: row.index, height: row.height, isHidden: row.isHidden))
            try reference.write(row) { cell in cell.formula.map { "=" + $0 } ?? ValueText.field(cell.value, system: system) }
            stored.appendHeader(row, to: &bytes)
            stored.append(row, to: &bytes)
        }
        return (output.takeBytes(), bytes)
    }

    @Test func corpusFirstWorksheetsEncodeTheSame() throws {
        var compared = 0, cells = 0
        for name in Project.corpusFiles() where name.hasSuffix(".xlsx") || name.hasSuffix(".xlsm") {
            let path = Project.corpus.appendingPathComponent(name).path
            guard let workbook = try? Workbook(path: path), let sheet = workbook.firstWorksheet,
                  let styles = try? workbook.styles(), let reader = try? workbook.rows(of: sheet) else { continue }
            var rows: [Row] = []
            while rows.count < 2000, let row = try? reader.nextRow() { rows.append(row) }
            let (reference, stored) = try Self.both(rows, styles: styles, system: workbook.dateSystem)
            let same = stored == reference
            #expect(same, "\(name): \(Self.firstDifference(reference, stored))")
            #expect(try Self.binaryIsTheLines(rows, styles: styles, system: workbook.dateSystem, lines: stored), "\(name)")
            compared += 1
            cells += rows.reduce(0) { $0 + $1.cells.count }
        }
        #expect(compared >= 200, "only \(compared) corpus workbooks opened")
        #expect(cells >= 100_000)
    }

    @Test(arguments: [DateSystem.excel1900, DateSystem.excel1904])
    func hostileValuesEncodeTheSame(_ system: DateSystem) throws {
        let workbook = try Workbook(path: Project.fixture("styles_kept.xlsx"))
        let styles = try workbook.styles()
        #expect(styles.cellFormats.count > 2)
        let texts = ["", "plain", "quote \" and \\ back", "back\\slash alone", "C:\\path\\", "line\nbreak\r\ttab", "\u{0}\u{1}\u{1F}\u{7F}", "é ü 漢字 😀",
                     "\u{8}\u{C}", String(repeating: "x\"", count: 300), String(repeating: "long ", count: 20_000), "=not a formula", "1e-05", "arrow → – dash", "line\u{2028}sep", "para\u{2029}", "\u{E2}"]
        let numbers: [Double] = [0, -0.0, 1, -1, 0.1, 1e-05, 123456789012, 9_007_199_254_740_991, 9_007_199_254_740_992,
                                 -9_007_199_254_740_992, 1e300, -1e-300, .nan, .infinity, -.infinity, 2.5, 1.0 / 3]
        var values: [CellValue] = [.empty, .boolean(true), .boolean(false), .error("#N/A"), .error("#DIV/0!"),
                                   .isoDate("2024-02-29T12:30:00"), .isoDate("not a date"), .isoDate("")]
        values += texts.map { .string($0) } + numbers.map { .number($0) }
        values += [45000.5, 0, 0.25, -1, 1e7, 60, 61, .nan, 2_958_465.999, 2_958_465.999_999_999, 45000.123456, 0.999_999_999_99, 1.5, 59, 1462.000_01, 0.000_5].flatMap { [CellValue.date(serial: $0), .duration(days: $0)] }
        let formulas: [(String?, FormulaKind)] = [(nil, .normal), ("A1*2", .normal), ("\"q\"&\"\\\"", .normal), ("SUM(B1:B3)", .array(range: "C7:C9")),
                                                   ("SEQUENCE(3)", .array(range: "B7:B9")), ("X", .array(range: "not a range")), ("line\nbreak", .normal)]
        var rows: [Row] = []
        var index = 7
        for (offset, value) in values.enumerated() {
            let (formula, kind) = formulas[offset % formulas.count]
            let style = [-1, 0, 1, 2, styles.cellFormats.count - 1, styles.cellFormats.count, 1_000_000][offset % 7]
            let column = [1, 2, 3, 26, 27, 702, 703, 16_384][offset % 8]
            let height: Double? = [nil, 15, 0, 12.75, 409.5, 1e-7, -3][offset % 7]
            rows.append(Row(index: index, height: height, isHidden: offset % 3 == 0, cells: [Cell(column: column, value: value, formula: formula, formulaKind: kind, styleIndex: style),
                                                  Cell(column: column + 1, value: value, styleIndex: style)]))
            index = index == 7 ? 1_048_576 : offset + 1
        }
        let (reference, stored) = try Self.both(rows, styles: styles, system: system)
        #expect(reference.count > 10_000)
        let same = stored == reference
        #expect(same, "\(Self.firstDifference(reference, stored))")
        #expect(try Self.binaryIsTheLines(rows, styles: styles, system: system, lines: stored))
    }

    /// Whether the import's binary block of `rows` (encoded from the cells, `RowBlock.binary(rows:writer:)`)
    /// is byte for byte the block `RowBlock.stored` makes of their stored lines, and reads back as those lines.
    static func binaryIsTheLines(_ rows: [Row], styles: Styles, system: DateSystem, lines: [UInt8]) throws -> Bool {
        let direct = RowBlock.binary(rows: rows, writer: StoredCellWriter(styles: styles, dateSystem: system))
        let fromLines = RowBlock.stored(lines)
        let payloads = (try RowBlock.decompress(direct), try RowBlock.decompress(fromLines))
        #expect(payloads.0 == payloads.1, "\(firstDifference(payloads.0, payloads.1))")
        let readBack = try RowBlock.entries(stored: direct)
        #expect(readBack.map(\.row) == RowBlock.entries(text: lines).map(\.row))
        return direct == fromLines
    }

    /// The import's block numbers its strings and styles as the lines' reading does, whatever
    /// one block repeats: thousands of distinct strings (the table grows), each met again, texts
    /// that are prefixes of others or another cell's formula, date texts or escapes, the same
    /// serial as a formula's value before a constant's, and constants of every kind, styled or not.
    @Test(arguments: [DateSystem.excel1900, DateSystem.excel1904])
    func repeatedStringsAndDatesNumberTheSame(_ system: DateSystem) throws {
        let workbook = try Workbook(path: Project.fixture("styles_kept.xlsx"))
        let styles = try workbook.styles()
        let writer = StoredCellWriter(styles: styles, dateSystem: system)
        let date = try #require(writer.dateTexts(serial: 45_000))
        let shared = ["", "a", "ab", "abc", "A1*2", "\\n", "\n", "\"", "\u{2028}", "é", String(decoding: date.value, as: UTF8.self),
                      String(decoding: date.input, as: UTF8.self), "#N/A", "TRUE", "45000", String(repeating: "z", count: 5000)]
        var rows: [Row] = []
        for index in 1...400 {
            var cells: [Cell] = []
            let style = [0, 1, 2, styles.cellFormats.count - 1][index % 4]
            // Distinct strings (3,200 in all), then the shared ones and those of earlier rows again.
            for column in 1...8 { cells.append(Cell(column: column, value: .string("s\(index)-\(column)"), styleIndex: style)) }
            cells.append(Cell(column: 9, value: .string(shared[index % shared.count]), formula: index % 3 == 0 ? shared[(index + 5) % shared.count] : nil))
            cells.append(Cell(column: 10, value: .string("s\(max(1, index - 7))-\(index % 8 + 1)")))
            cells.append(Cell(column: 11, value: .date(serial: 45_000 + Double(index % 5)), formula: index % 2 == 0 ? "TODAY()" : nil, styleIndex: style))
            cells.append(Cell(column: 12, value: .error(["#N/A", "#DIV/0!", "\"", "s1-1"][index % 4]), formula: index % 5 == 0 ? "NA()" : nil))
            cells.append(Cell(column: 13, value: .boolean(index % 2 == 0), formula: index % 7 == 0 ? "TRUE()" : nil, styleIndex: style))
            cells.append(Cell(column: 14, value: .empty, formula: index % 3 == 0 ? "" : nil, styleIndex: style))
            cells.append(Cell(column: 15, value: .number(Double(index) / 8), formula: index % 4 == 0 ? "A1*2" : nil))
            rows.append(Row(index: index, cells: cells))
        }
        let (reference, stored) = try Self.both(rows, styles: styles, system: system)
        #expect(stored == reference, "\(Self.firstDifference(reference, stored))")
        #expect(try Self.binaryIsTheLines(rows, styles: styles, system: system, lines: stored))
    }

    @Test func sinkDigitsAndColumnsAreTheStringOnes() {
        let sink = ByteSink(capacity: 1)
        for value: Int64 in [0, 1, -1, 9, 10, 99, 100, -100, 1_048_576, Int64.max, Int64.min + 1, Int64.min] {
            sink.removeAll()
            sink.putDecimal(value)
            #expect(String(decoding: Array(sink.bytes), as: UTF8.self) == String(value))
        }
        for column in [-1, 0, 1, 25, 26, 27, 52, 701, 702, 703, 18_278, 18_279, 16_384, 475_254, 475_255, 1 << 40] {
            sink.removeAll()
            sink.putColumnName(column)
            #expect(String(decoding: Array(sink.bytes), as: UTF8.self) == CellReference.columnName(column), "\(column)")
        }
        // Growth keeps what was written: 100,000 bytes through a buffer that starts at 64.
        sink.removeAll()
        for index in 0..<100_000 { sink.put(UInt8(truncatingIfNeeded: index)) }
        #expect(sink.count == 100_000 && Array(sink.bytes) == (0..<100_000).map { UInt8(truncatingIfNeeded: $0) })
    }

    /// Where two byte strings part, with some text around it.
    static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String {
        guard let index = (0..<min(a.count, b.count)).first(where: { a[$0] != b[$0] }) ?? (a.count == b.count ? nil : min(a.count, b.count)) else { return "same" }
        let from = max(0, index - 80)
        return "at \(index): \(String(decoding: a[from..<min(a.count, index + 80)], as: UTF8.self)) | \(String(decoding: b[from..<min(b.count, index + 80)], as: UTF8.self))"
    }
}
