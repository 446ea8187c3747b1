import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortWriter
@testable import SheetPortConvert
import SheetPortTestSupport

/// `DelimitedWriter` writes fields straight into its output: the same bytes as the committed
/// `String`-per-field writer (`ReferenceDelimitedWriter`), over hostile values and every
/// output option, over the corpus, and through a file in 64 KiB blocks; numbers the same
/// digits as `Double.description`.
@Suite struct DelimitedWriterTests {
    /// `rows` written by the writer and by the reference.
    static func both(_ rows: [Row], dialect: DelimitedWriter.Dialect, system: DateSystem, styles: Styles?,
                     options: TextOutputOptions, columns: ColumnSelection, dimension: String?) throws
        -> (reference: [UInt8], written: [UInt8]) {
        let output = ByteOutput(collectingAs: "written")
        var writer = DelimitedWriter(output: output, dialect: dialect, dateSystem: system, styles: styles, options: options,
                                     columns: columns)
        var reference = ReferenceDelimitedWriter(dialect: dialect, dateSystem: system, styles: styles, options: options,
                                                 columns: columns)
        for row in rows {
            try writer.write(row, dimension: dimension)
            reference.write(row, dimension: dimension)
        }
        return (reference.bytes, output.takeBytes())
    }

    /// Where two byte strings part, for a failure message.
    static func firstDifference(_ expected: [UInt8], _ actual: [UInt8]) -> String {
        let index = (0..<min(expected.count, actual.count)).first { expected[$0] != actual[$0] } ?? min(expected.count, actual.count)
        func around(_ bytes: [UInt8]) -> String {
            String(decoding: bytes[max(0, index - 40)..<min(bytes.count, index + 40)], as: UTF8.self).debugDescription
        }
        return "at byte \(index) of \(expected.count)/\(actual.count): expected \(around(expected)), wrote \(around(actual))"
    }

    /// The text `putNumber` writes.
    static func written(_ number: Double, into output: ByteOutput) -> String {
        output.putNumber(number)
        return String(decoding: output.takeBytes(), as: UTF8.self)
    }

    static let hostileNumbers: [Double] = {
        var numbers: [Double] = [0, -0.0, 1, -1, 0.1, 0.2, 0.3, 0.1 + 0.2, 1.0 / 3, 2.0 / 3, -2.0 / 7, 1e-7, 1e-5, 1e-4,
                                 9.9999e-5, 0.0001220703125, 0x1p-13, 0x1p-14, 1e21, 1e22, 1e23, 1e15 + 0.5, 0x1p52 - 0.5,
                                 0x1p52 + 0.5, 0x1p52 + 1, 0x1p53 - 1, 0x1p53, 0x1p53 + 2, -0x1p53, 0x1p63, -0x1p63, 0x1p64,
                                 .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude,
                                 .leastNormalMagnitude, .leastNormalMagnitude.nextDown, 1 + .ulpOfOne, 1 - .ulpOfOne / 2,
                                 123456789.12345678, 0.999_999_999_999_999_9, 9.999_999_999_999_998, 99.999_999_999_999_99,
                                 45000.5, 2.5, 12.375, 0.015625, 4503599627370495.5, 1234567890123.4567,
                                 .infinity, -.infinity, .nan, 5e-324, 2.2250738585072014e-308]
        for exponent in -30...30 {
            let power = Double("1e\(exponent)")!
            numbers += [power, power.nextUp, power.nextDown, -power]
        }
        for exponent in -70...70 {
            let power = Double(sign: .plus, exponent: exponent, significand: 1)
            numbers += [power, power.nextUp, power.nextDown, power * 3, power * 1.5, (power * 1.5).nextUp]
        }
        return numbers
    }()

    @Test func hostileNumbersHaveDescriptionsDigits() {
        let output = ByteOutput(collectingAs: "number")
        for number in Self.hostileNumbers {
            #expect(Self.written(number, into: output) == ReferenceDelimitedWriter.number(number), "\(number.bitPattern)")
        }
    }

    @Test func randomNumbersHaveDescriptionsDigits() {
        var random = SeededGenerator(state: 16)
        let output = ByteOutput(collectingAs: "number")
        var failures = 0
        func check(_ number: Double) {
            let written = Self.written(number, into: output), expected = ReferenceDelimitedWriter.number(number)
            if written != expected, failures < 10 {
                failures += 1
                Issue.record("\(number.bitPattern): wrote \(written), description \(expected)")
            }
        }
        for _ in 0..<100_000 {
            // Any bit pattern with an exponent from 2^-24 to 2^66: the shortest-digit path and around it.
            let exponent = UInt64.random(in: 999...1089, using: &random)
            check(Double(bitPattern: random.next() & (1 << 63 | (1 << 52 - 1)) | exponent << 52))
            // Every bit pattern: subnormals, infinities, NaNs and huge values too.
            check(Double(bitPattern: random.next()))
            // Spreadsheet-like: quotients and scaled integers.
            let integer = Double(Int.random(in: -10_000_000...10_000_000, using: &random))
            check(integer / 7)
            check(integer / [3, 100, 1000, 86_400][Int(random.next() % 4)])
            check(integer * [1.25, 0.1, 0.01, 1.1][Int(random.next() % 4)])
            // Decimals of 1 to 17 digits, read as Double.
            let digits = String(UInt64.random(in: 1...99_999_999_999_999_999, using: &random))
            let text = String(digits.prefix(Int.random(in: 1...17, using: &random))) + "e\(Int.random(in: -25...20, using: &random))"
            check(Double(text)!)
        }
        #expect(failures == 0)
    }

    static let hostileTexts = ["", "plain", "comma, inside", "quote \" inside", "\"", "\"\"", "ends with quote\"",
                               "line\nbreak", "carriage\rreturn", "crlf\r\nboth", "tab\there", "back\\slash", "\\", "C:\\path\\",
                               "all ,\"\t\\\r\n of them", "\u{0}nul\u{0}", "\u{1}\u{1F}\u{7F}", "é ü 漢字 😀", "café,naïve",
                               "=SUM(A1)", "-1", "1e-05", " leading and trailing ", String(repeating: "x\"", count: 300),
                               String(repeating: "long, text\n", count: 2_000)]

    /// Rows of every kind of value, in hostile shapes: gaps, a row of no cells, a row of only
    /// formula cells with no value, columns repeated, out of order, zero and far to the right.
    static func hostileRows() -> [Row] {
        var values: [CellValue] = [.empty, .boolean(true), .boolean(false), .error("#N/A"), .error("#DIV/0!"), .error("#,\"")]
        values += hostileTexts.map { .string($0) }
        values += hostileNumbers.prefix(60).map { .number($0) }
        let serials: [Double] = [45000.5, 0, 0.25, 0.999_999_999_99, -1, 1, 1.5, 59, 60, 61, 1462.000_01, 45000.123456,
                                 2_958_465.999, 2_958_465.999_999_999, 3_000_000, 1e7, 1e-9, .nan, .infinity, 0.000_5, 100.5]
        values += serials.flatMap { [CellValue.date(serial: $0), .duration(days: $0), .duration(days: -$0)] }
        values += ["2024-02-29T12:30:00", "2024-01-31", "2024-01-31T00:00:00.5Z", "13:45", "T13:45:10,25", "0001-01-01",
                   "9999-12-31T23:59:59.999", "not a date", "", "2024-13-01", "2024-01-31 13:45:00+02:00"].map { .isoDate($0) }
        var rows: [Row] = []
        var index = 2
        let styles = [0, 1, 2, 3, -1, 99]
        for start in stride(from: 0, to: values.count, by: 7) {
            let cells = values[start..<min(start + 7, values.count)].enumerated().map { offset, value in
                Cell(column: offset * 2 + 1, value: value, styleIndex: styles[(start + offset) % styles.count])
            }
            rows.append(Row(index: index, cells: cells))
            index += start % 3 == 0 ? 1 : 3
        }
        rows.append(Row(index: index, cells: []))
        rows.append(Row(index: index + 1, cells: [Cell(column: 2, value: .empty, formula: "NOW()")]))
        rows.append(Row(index: index + 2, cells: [Cell(column: 3, value: .number(1)), Cell(column: 3, value: .string("again")),
                                                  Cell(column: 1, value: .string("left,")), Cell(column: 0, value: .number(0)),
                                                  Cell(column: 40, value: .string("far")), Cell(column: 16_384, value: .boolean(true))]))
        rows.append(Row(index: index + 40_000, cells: [Cell(column: 1, value: .string("after a gap"))]))
        return rows
    }

    /// Formats that show a time, a date alone, and elapsed time.
    static func hostileStyles() -> Styles {
        var styles = Styles()
        var dateTime = CellFormat(), dateOnly = CellFormat(), elapsed = CellFormat()
        (dateTime.isDate, dateTime.numberFormat) = (true, "yyyy-mm-dd hh:mm")
        (dateOnly.isDate, dateOnly.numberFormat) = (true, "d/m/yyyy")
        (elapsed.isDate, elapsed.isDuration, elapsed.numberFormat) = (true, true, "[h]:mm:ss")
        styles.cellFormats = [CellFormat(), dateTime, dateOnly, elapsed]
        return styles
    }

    /// Every combination of the output options, with a date pattern that needs quoting or escaping too.
    static func optionSets() throws -> [TextOutputOptions] {
        let formats: [DateFormat?] = [nil, try DateFormat("%d/%m/%Y %H:%M:%S.%f"), try DateFormat("%Y,%m\"%d\t%%\\%H\r\n%f é")]
        var sets: [TextOutputOptions] = []
        for skip in [false, true] {
            for ending in TextOutputOptions.LineEnding.allCases {
                for format in formats {
                    var options = TextOutputOptions()
                    (options.skipEmptyRows, options.lineEnding, options.dateFormat) = (skip, ending, format)
                    sets.append(options)
                }
            }
        }
        return sets
    }

    @Test(arguments: [DelimitedWriter.Dialect.csv, .tsv], [DateSystem.excel1900, .excel1904])
    func hostileRowsWriteTheReferenceBytes(_ dialect: DelimitedWriter.Dialect, _ system: DateSystem) throws {
        let rows = Self.hostileRows()
        let styles = Self.hostileStyles()
        for options in try Self.optionSets() {
            for columns in [ColumnSelection(), ColumnSelection(keeping: [1, 2, 3, 7, 9, 40])] {
                // A row with no cells is a record of separators as wide as the sheet, so a dimension
                // reaching XFD would write 40,000 x 16,384 of them here: AN (40) stands for it.
                for dimension in [nil, "A1:L40", "B2", "A1:AN3"] {
                    let (reference, written) = try Self.both(rows, dialect: dialect, system: system, styles: styles,
                                                             options: options, columns: columns, dimension: dimension)
                    #expect(written == reference, "\(options) \(dimension ?? "-"): \(Self.firstDifference(reference, written))")
                }
            }
        }
    }

    @Test func everyQuoteIsDoubledEvenBeforeACombiningMark() throws {
        let row = Row(index: 1, cells: [Cell(column: 1, value: .string("a\"\u{301}b\"c,d"))])
        let output = ByteOutput(collectingAs: "quote")
        var writer = DelimitedWriter(output: output, dialect: .csv, dateSystem: .excel1900)
        try writer.write(row, dimension: nil)
        #expect(String(decoding: output.takeBytes(), as: UTF8.self) == "\"a\"\"\u{301}b\"\"c,d\"\r\n")
    }

    @Test func corpusFirstWorksheetsWriteTheReferenceBytes() throws {
        var compared = 0, cells = 0
        let options = try Self.optionSets()
        for name in Project.corpusFiles() where name.hasSuffix(".xlsx") || name.hasSuffix(".xlsm") {
            let path = Project.corpus.appendingPathComponent(name).path
            guard let workbook = try? Workbook(path: path), let sheet = workbook.firstWorksheet,
                  let styles = try? workbook.styles(), let reader = try? workbook.rows(of: sheet) else { continue }
            var rows: [Row] = []
            while rows.count < 2000, let row = try? reader.nextRow() { rows.append(row) }
            let dimension = reader.metadata.dimension
            // The defaults (index 3: CRLF, ISO dates), then LF with empty rows skipped and dates in
            // a plain pattern (7), then a pattern that needs quoting (5, 11).
            for (dialect, options) in [(DelimitedWriter.Dialect.csv, options[3]), (.tsv, options[3]), (.csv, options[7]),
                                       (.csv, options[5]), (.tsv, options[11])] {
                let (reference, written) = try Self.both(rows, dialect: dialect, system: workbook.dateSystem, styles: styles,
                                                         options: options, columns: ColumnSelection(), dimension: dimension)
                #expect(written == reference, "\(name) \(dialect): \(Self.firstDifference(reference, written))")
            }
            compared += 1
            cells += rows.reduce(0) { $0 + $1.cells.count }
        }
        #expect(compared >= 200, "only \(compared) corpus workbooks opened")
        #expect(cells >= 100_000)
    }

    /// Written to a file, the output goes out in blocks as the rows cross them: the file holds
    /// exactly the bytes collected in memory, fields and runs of separators longer than a block included.
    @Test func aFileHoldsTheBytesCollected() throws {
        var rows = Self.hostileRows()
        rows.append(Row(index: 50_000, cells: [Cell(column: 1, value: .string(String(repeating: "ü\"", count: 100_000))),
                                               Cell(column: 200_000, value: .number(1.5))]))
        for index in 50_001...52_000 {
            rows.append(Row(index: index, cells: (1...10).map { Cell(column: $0, value: .number(Double(index * $0) / 7)) }))
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sheetport-delimited-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forWritingTo: url)
        let file = ByteOutput(descriptor: handle.fileDescriptor, name: url.path)
        var writer = DelimitedWriter(output: file, dialect: .csv, dateSystem: .excel1900)
        for row in rows { try writer.write(row, dimension: "A1:C3") }
        try file.flush()
        try handle.close()
        let (reference, collected) = try Self.both(rows, dialect: .csv, system: .excel1900, styles: nil,
                                                   options: TextOutputOptions(), columns: ColumnSelection(), dimension: "A1:C3")
        let onDisk = try [UInt8](Data(contentsOf: url))
        #expect(collected == reference, "\(Self.firstDifference(reference, collected))")
        #expect(onDisk == collected, "\(Self.firstDifference(collected, onDisk))")
        #expect(onDisk.count > 1 << 20)
    }
}
