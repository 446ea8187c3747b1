import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortWriter
@testable import SheetPortConvert
import SheetPortTestSupport

/// The buffer-at-a-time CSV reader and the byte rules of type inference (issue 26): the same
/// fields and the same values as the rules on strings, across the read buffer's edges, and the
/// shared-string table a conversion bounds.
@Suite struct DelimitedScanTests {
    /// RFC 4180 text of `records` with `delimiter`: a field is quoted when it holds the
    /// delimiter, a quote or a line break, or starts with a quote; lines end in `ending`.
    static func csv(_ records: [[String]], delimiter: Character, ending: String) -> [UInt8] {
        var text = ""
        for record in records {
            text += record.map { field in
                let quoted = field.contains(delimiter) || field.contains("\"") || field.contains("\n") || field.contains("\r")
                return quoted ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
            }.joined(separator: String(delimiter))
            text += ending
        }
        return Array(text.utf8)
    }

    /// Reads `bytes` from a file (so the reader refills its 64 KiB buffer) field by field.
    static func read(_ bytes: [UInt8], delimiter: UInt8) throws -> [[String]] {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("in.csv").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var reader = try DelimitedReader(input: try ByteInput(path: path), dialect: .csv, delimiter: delimiter)
        var records: [[String]] = []
        while let record = try reader.nextRecord() { records.append(record) }
        return records
    }

    /// Random records of hostile fields (quotes, delimiters, CR, LF, CRLF, multibyte
    /// characters, empty fields), over 300 KB, so fields and characters straddle the buffer's
    /// edges; read back they are the same fields, with each line ending.
    @Test(arguments: ["\r\n", "\n", "\r"])
    func randomRecordsReadBackAcrossBufferEdges(_ ending: String) throws {
        var random = SeededGenerator(state: 26)
        let pieces = ["a", "7", ",", ";", "\"", "\"\"", "\n", "\r\n", "\r", "é", "€", "𝄞", " ", "1.5", "TRUE", "", "x,y", "\u{0}"]
        var records: [[String]] = []
        var size = 0
        while size < 300_000 {
            let record = (0..<Int.random(in: 1...9, using: &random)).map { _ in
                (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            }
            // A record of one empty field is a blank line, which CSV cannot tell from nothing.
            if record == [""] { continue }
            records.append(record)
            size += record.reduce(0) { $0 + $1.utf8.count + 1 }
        }
        let bytes = Self.csv(records, delimiter: ",", ending: ending)
        let read = try Self.read(bytes, delimiter: UInt8(ascii: ","))
        #expect(read.count == records.count)
        for (index, pair) in zip(read, records).enumerated() where pair.0 != pair.1 {
            Issue.record("record \(index): read \(pair.0), written \(pair.1)")
            break
        }
    }

    /// A field of exactly the most bytes a cell holds is read; one byte more is refused with
    /// its line, quoted or not, even when it crosses many buffers.
    @Test(arguments: [false, true])
    func theFieldBoundHoldsAcrossBuffers(_ quoted: Bool) throws {
        let most = String(repeating: "x", count: DelimitedReader.maxFieldBytes)
        let wrap = { (field: String) in quoted ? "\"\(field)\"" : field }
        let fits = try Self.read(Array("a,b\n1,\(wrap(most))\n".utf8), delimiter: UInt8(ascii: ","))
        #expect(fits.last?.last?.utf8.count == DelimitedReader.maxFieldBytes)
        #expect(throws: TextInputError.self) { try Self.read(Array("a,b\n1,\(wrap(most + "y"))\n".utf8), delimiter: UInt8(ascii: ",")) }
        do {
            _ = try Self.read(Array("a,b\n1,\(wrap(most + "y"))\n".utf8), delimiter: UInt8(ascii: ","))
        } catch let error as TextInputError {
            #expect(error.line == 2 && error.message.contains("32,767 characters"), "\(error)")
        }
    }

    /// An invalid UTF-8 byte right at a buffer's edge is found, with its offset.
    @Test func aBadByteAtTheBufferEdgeIsFound() throws {
        var bytes = Array("h\n".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 65_536 - 3) + [0xC3] // cut: é without its second byte
        bytes += Array(",b\n".utf8)
        #expect(throws: TextInputError.self) { try Self.read(bytes, delimiter: UInt8(ascii: ",")) }
        // The same character whole across the edge reads.
        var whole = Array("h\n".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 65_536 - 3) + [0xC3, 0xA9]
        whole += Array(",b\n".utf8)
        #expect(try Self.read(whole, delimiter: UInt8(ascii: ",")).last?.first?.hasSuffix("é") == true)
    }

    /// The byte rules give every field the kind and the value the string rules give:
    /// hostile shapes (19 digits, 2^53 + 1, leading zeros, signs alone, exponents out of
    /// range, decimal commas, dates and times that are almost) and random ones.
    @Test(arguments: [false, true])
    func byteRulesAgreeWithStringRules(_ decimalComma: Bool) throws {
        let rules = TypeInference.Rules(decimalComma: decimalComma)
        var fields = ["0", "-0", "+0", "00", "007", "1.", ".5", "-.5", "+", "-", ".", "1.5", "1,5", "1.234,5", "1.234.567,89",
                      "9007199254740993", "9007199254740992", "123456789012345", "1234567890123456", "0.1234567890123456789",
                      "1234567890.123456789", "99999999999999999999.5", "1e308", "1e309", "-1e-400", "1E5", "1e", "1e+", "2e-3",
                      "0.30000000000000004", "4.35", "1.7976931348623157e308", "5e-324", " 1", "1 ", "1_000", "0x10", "1.2.3",
                      "TRUE", "false", "True", "TRU", "FALSEY", "t", "2024-01-31", "2024-02-30", "2024-01-31T12:00", "2024-01-31 25:00",
                      "1899-12-31", "12:30", "24:00:00", "123456:00", "1234567:00", "7:5", "12:60", "12:30:59.5", "12:30:5",
                      String(repeating: "9", count: 41), "-" + String(repeating: "1", count: 39)]
        var random = SeededGenerator(state: 2026)
        let alphabet = Array("0123456789.,-+eE:T tfFrRuUaAlLsS")
        for _ in 0..<20_000 {
            fields.append(String((0..<Int.random(in: 1...22, using: &random)).map { _ in alphabet.randomElement(using: &random)! }))
        }
        for _ in 0..<5_000 {
            let digits = Int.random(in: 1...18, using: &random)
            let point = Int.random(in: 0...digits, using: &random)
            var text = String((0..<digits).map { _ in "0123456789".randomElement(using: &random)! })
            if point < digits { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
            fields.append(Bool.random(using: &random) ? "-" + text : text)
        }
        for field in fields {
            var bytes = Array(field.utf8)
            let (kind, values) = bytes.withUnsafeMutableBufferPointer { buffer -> (TypeInference.Kind?, [CellValue?]) in
                let field = UnsafeBufferPointer(buffer)
                return (TypeInference.kind(of: field, rules: rules),
                        [TypeInference.Kind.number, .boolean, .date, .time].map { TypeInference.value(of: field, as: $0, rules: rules)?.value })
            }
            #expect(kind == TypeInference.kind(of: field, rules: rules), "kind of \(field)")
            let expected = [TypeInference.Kind.number, .boolean, .date, .time].map { TypeInference.value(of: field, as: $0, rules: rules)?.value }
            #expect(values.map(Self.bits) == expected.map(Self.bits), "values of \(field)")
        }
    }

    /// A value with its number's bits, so -0 and 0 differ.
    static func bits(_ value: CellValue?) -> String {
        switch value {
        case .number(let number)?: return "n\(number.bitPattern)"
        case .date(let serial)?: return "d\(serial.bitPattern)"
        case .duration(let days)?: return "t\(days.bitPattern)"
        case let other?: return "\(other)"
        case nil: return "nil"
        }
    }

    /// With a bounded shared-string table, text first seen after it is full is written
    /// inline and repeated words stay shared: every value reads back the same, and the
    /// table holds no more than the budget.
    @Test func aBoundedSharedStringTableWritesTheRestInline() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bounded.xlsx").path
        var options = WriterOptions()
        options.sharedStringBudget = 4_096
        let writer = try WorkbookWriter(path: path, options: options)
        let sheet = try writer.addWorksheet(named: "Data")
        var expected: [[CellValue]] = []
        for row in 1...2_000 {
            // Hostile text: markup, a line break, leading spaces, a character outside the BMP.
            let values: [CellValue] = [.string(["north", "south"][row % 2]), .string("<b>&\"\(row)\"\n 𝄞</b>  "), .number(Double(row))]
            try sheet.append(Row(index: row, cells: values.enumerated().map { Cell(column: $0.offset + 1, value: $0.element) }))
            expected.append(values)
        }
        try writer.close()
        let workbook = try Workbook(path: path)
        let reader = try workbook.rows(of: try #require(workbook.firstWorksheet))
        var read: [[CellValue]] = []
        while let row = try reader.nextRow() { read.append(row.cells.map(\.value)) }
        #expect(read == expected)
        let strings = try #require(workbook.archive.entry(named: "xl/sharedStrings.xml"))
        var shared: [UInt8] = []
        try workbook.archive.read(strings) { shared += $0 }
        let count = String(decoding: shared, as: UTF8.self).components(separatedBy: "<si>").count - 1
        #expect(count > 2 && count <= 4_096 / 48, "\(count) shared strings")
    }
}
