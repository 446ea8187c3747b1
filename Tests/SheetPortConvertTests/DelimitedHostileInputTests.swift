import Foundation
import Testing
@testable import SheetPortConvert
import SheetPortTestSupport

/// Hostile input to the large-buffer CSV scanner (issue 26): quotes left open at the end, NUL
/// bytes, lines that end in CR alone (also split by the buffer's edge), a 100 MB field refused
/// with the buffer still small, invalid UTF-8 and byte order marks, and the 16 to 19 digit
/// decimals the exact quotient rounds.
@Suite struct DelimitedHostileInputTests {
    /// The bytes the reader's first fill holds (its buffer's starting capacity).
    static let firstFill = 1 << 18

    /// Reads `bytes` from a file, record by record.
    static func read(_ bytes: [UInt8], delimiter: UInt8 = UInt8(ascii: ","), dialect: DelimitedWriter.Dialect = .csv) throws -> [[String]] {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("in.csv").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var reader = try DelimitedReader(input: try ByteInput(path: path), dialect: dialect, delimiter: delimiter)
        var records: [[String]] = []
        while let record = try reader.nextRecord() { records.append(record) }
        return records
    }

    /// `count` bytes of short lines (`x` runs, each ending in LF; the last may be empty) and
    /// how many lines they are: what precedes a record placed at the buffer's edge.
    static func filler(_ count: Int) -> (bytes: [UInt8], lines: Int) {
        var bytes: [UInt8] = []
        while bytes.count + 100 <= count { bytes += [UInt8](repeating: UInt8(ascii: "x"), count: 99) + [0x0A] }
        if bytes.count < count { bytes += [UInt8](repeating: UInt8(ascii: "x"), count: count - bytes.count - 1) + [0x0A] }
        return (bytes, bytes.count { $0 == 0x0A })
    }

    static func error(_ bytes: [UInt8], dialect: DelimitedWriter.Dialect = .csv) -> TextInputError? {
        do {
            _ = try read(bytes, dialect: dialect)
            return nil
        } catch let error as TextInputError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    @Test func aQuoteLeftOpenAtTheEndNamesTheLineItOpenedOn() throws {
        for text in ["a,b\n1,\"open", "a,b\n1,\"open\nmore\r\nand more", "a,b\n\"", "a\n\"x\"\"", "\"\"\"\n"] {
            let error = try #require(Self.error(Array(text.utf8)), "\(text.debugDescription)")
            #expect(error.message.contains("not closed before the end"), "\(error)")
            #expect(error.line == (text.hasPrefix("\"") ? 1 : 2), "\(text.debugDescription): \(error)")
        }
        // Past the first buffer: the field is read again once more is read, then refused.
        let long = Array("h\n\"".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 90_000) + Array("\n".utf8)
        let padded = Self.filler(Self.firstFill - 50_000).bytes + long
        #expect(Self.error(padded)?.message.contains("not closed") == true)
    }

    @Test func nulBytesAreKeptInFieldsQuotedOrNot() throws {
        let bytes: [UInt8] = Array("a\u{0}b,\"c\u{0}\n\u{0}\"\n\u{0},\u{0}\u{0}\n".utf8)
        #expect(try Self.read(bytes) == [["a\u{0}b", "c\u{0}\n\u{0}"], ["\u{0}", "\u{0}\u{0}"]])
        // Other control bytes (the scan finds every byte below 0x20, then passes over them) are text too.
        #expect(try Self.read(Array("a\tb,c\u{1}\u{1F}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}x\n\u{7},\"\u{0}\t\"\n".utf8))
                == [["a\tb", "c\u{1}\u{1F}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}x"], ["\u{7}", "\u{0}\t"]])
        #expect(try Self.read(bytes, dialect: .tsv) == [["a\u{0}b,\"c\u{0}"], ["\u{0}\""], ["\u{0},\u{0}\u{0}"]])
    }

    /// CR alone ends a line, as CRLF and LF do; a CRLF cut by the buffer's edge is one line end.
    @Test(arguments: [-2, -1, 0, 1])
    func linesEndingInCRAloneAndCRLFAcrossTheBuffersEdge(_ offset: Int) throws {
        #expect(try Self.read(Array("a,b\r1,2\r\r3,4".utf8)) == [["a", "b"], ["1", "2"], [""], ["3", "4"]])
        // The CR of a CRLF is the first fill's last byte (offset 0), or near it.
        let (filler, lines) = Self.filler(Self.firstFill + offset - 2)
        var bytes = filler + Array("x\r\n2\r3\n\"q\r\nq\"\r\n4".utf8)
        bytes += [UInt8(ascii: ","), 0xFF]
        let error = try #require(Self.error(bytes))
        // Lines after the filler: x, 2, 3, "q\r\nq" (two), then 4 with a bad byte.
        #expect(error.line == lines + 6 && error.message.contains("not valid UTF-8 at byte offset \(bytes.count - 1)"), "\(error)")
        bytes.removeLast(2)
        let records = try Self.read(bytes)
        #expect(records.count == lines + 5)
        #expect(Array(records.suffix(5)) == [["x"], ["2"], ["3"], ["q\r\nq"], ["4"]])
    }

    /// TSV fields with escapes and quotes, each byte of a record in turn at the first fill's
    /// edge: the record is read again whole once more is read (a tab as the buffer's last byte
    /// ends a field, not the record).
    @Test func tsvRecordsAcrossTheBuffersEdge() throws {
        let record = "1\t2\t\t\"a\tb\"\tx\\ty\tz\r\n"
        let expected = ["1", "2", "", "a\tb", "x\ty", "z"]
        for cut in 0...record.utf8.count {
            let (lead, lines) = Self.filler(Self.firstFill - cut)
            let records = try Self.read(lead + Array(record.utf8) + Array("3\t".utf8), dialect: .tsv)
            #expect(Array(records.dropFirst(lines)) == [expected, ["3", ""]], "cut \(cut)")
        }
    }

    /// A 100 MB field (a sparse file: NUL bytes the disk does not hold) is refused as soon as it
    /// passes a cell's most bytes, quoted or not, with the buffer no larger than it started.
    @Test(arguments: [false, true])
    func aHundredMegabyteFieldIsRefusedWithBoundedMemory(_ quoted: Bool) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("huge.csv").path
        try Data(("h\n" + (quoted ? "\"" : "")).utf8).write(to: URL(fileURLWithPath: path))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 100_000_000)
        try handle.close()
        var reader = try DelimitedReader(input: try ByteInput(path: path), dialect: .csv, delimiter: UInt8(ascii: ","))
        #expect(try reader.nextRecord() == ["h"])
        do {
            _ = try reader.nextRecord()
            Issue.record("a 100 MB field was read")
        } catch let error as TextInputError {
            #expect(error.line == 2 && error.message.contains("32,767 characters"), "\(error)")
        }
        #expect(reader.bufferCapacity <= Self.firstFill)
    }

    @Test func byteOrderMarksAndInvalidUTF8() throws {
        // A mark at the start is skipped; one later is a character (U+FEFF) of the text.
        #expect(try Self.read([0xEF, 0xBB, 0xBF] + Array("a,b\n\u{FEFF}c,d\n".utf8)) == [["a", "b"], ["\u{FEFF}c", "d"]])
        #expect(try Self.read([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("a\n".utf8)) == [["\u{FEFF}a"]])
        // Two bytes of a mark are no mark, and not UTF-8.
        #expect(Self.error([0xEF, 0xBB])?.message.contains("byte offset 0") == true)
        // A bad byte inside a quoted field that spans lines: the line the field starts on, and
        // the byte's offset in the input.
        let quoted: [UInt8] = Array("h\n\"x\ny".utf8) + [0xFF] + Array("\"\n".utf8)
        let error = try #require(Self.error(quoted))
        #expect(error.line == 2 && error.message.contains("byte offset 6"), "\(error)")
        // Cut characters, overlong forms, surrogates and bytes past U+10FFFF.
        for bad: [UInt8] in [[0xC3], [0xE2, 0x82], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80], [0xFE]] {
            let found = try #require(Self.error(Array("a,b\n1,".utf8) + bad + Array("\n".utf8)), "\(bad)")
            #expect(found.line == 2 && found.message.contains("byte offset 6"), "\(bad): \(found)")
        }
        // A valid character whose bytes are split by the first fill's edge reads whole.
        let split = Self.filler(Self.firstFill - 2).bytes + [UInt8(ascii: "a"), 0xF0, 0x9D, 0x84, 0x9E] + Array(",1\n".utf8)
        #expect(try Self.read(split).last == ["a𝄞", "1"])
    }

    /// Days at the edges of months and leap years are the days the string rules read, and
    /// the recent-text table gives each field its own string whatever collides in it.
    @Test func daysAndRecentTextAgreeWithTheStringRules() throws {
        let days = ["1900-02-29", "2000-02-29", "2100-02-29", "2024-02-29", "2023-02-29", "2024-04-30", "2024-04-31", "2024-12-31",
                    "2024-13-01", "2024-00-10", "2024-01-00", "1899-12-31", "9999-12-31", "2024-06-31", "2024-07-31", "2024-02-28"]
        for day in days {
            var bytes = Array(day.utf8)
            let (kind, value) = bytes.withUnsafeMutableBufferPointer { buffer in
                (TypeInference.kind(of: UnsafeBufferPointer(buffer), rules: TypeInference.Rules()),
                 TypeInference.value(of: UnsafeBufferPointer(buffer), as: .date, rules: TypeInference.Rules())?.value)
            }
            #expect(kind == TypeInference.kind(of: day, rules: TypeInference.Rules()), "\(day)")
            #expect(value == TypeInference.value(of: day, as: .date, rules: TypeInference.Rules())?.value, "\(day)")
        }
        var recent = RecentText()
        var random = SeededGenerator(state: 256)
        let pool = (0..<2_000).map { _ in String((0..<Int.random(in: 0...20, using: &random)).map { _ in "ab€é𝄞x,7".randomElement(using: &random)! }) }
        var wrong: [String] = []
        for _ in 0..<50_000 {
            let text = pool.randomElement(using: &random)!
            let column = Int.random(in: 0..<3, using: &random)
            var bytes = Array(text.utf8)
            let made = bytes.withUnsafeMutableBufferPointer { recent.string(UnsafeBufferPointer($0), column: column) }
            if made != text { wrong.append(text) }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(3))")
    }

    /// 16 to 19 digit decimals (the exact quotient's range), ties and near-ties included, are
    /// the doubles `Double(String)` makes of them.
    @Test func longDecimalsRoundAsTheStringRulesRound() throws {
        var fields = ["4503599627370496.5", "4503599627370497.5", "9007199254740993.0", "9007199254740995.00", "0.3000000000000000444",
                      "0.2857142857142857", "0.42857142857142855", "-1234567890.123456789", "9999999999999999999.9", "999999999999999.9999",
                      "0.1000000000000000055511151231257827", "1.7976931348623157", "0.0000000000000000001", "-0.0000000000000000000"]
        var random = SeededGenerator(state: 1926)
        for _ in 0..<20_000 {
            let digits = Int.random(in: 16...19, using: &random)
            var text = String((0..<digits).map { _ in "0123456789".randomElement(using: &random)! })
            text.insert(".", at: text.index(text.startIndex, offsetBy: Int.random(in: 0..<digits, using: &random)))
            fields.append(text)
        }
        for field in fields {
            var bytes = Array(field.utf8)
            let value = bytes.withUnsafeMutableBufferPointer { TypeInference.number(UnsafeBufferPointer($0), rules: TypeInference.Rules()) }
            let expected = TypeInference.number(field)
            #expect(value?.bitPattern == expected?.bitPattern, "\(field): \(String(describing: value)) and \(String(describing: expected))")
        }
    }
}
