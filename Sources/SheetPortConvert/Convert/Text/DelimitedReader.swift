#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore
/// Reads CSV (RFC 4180: quoted fields with `""` escapes, which may hold line breaks; the
/// delimiter a comma, a semicolon, a tab, a bar or any given one) or TSV (tab-separated), one
/// record at a time. A TSV field that starts with a double quote is quoted as Excel and pandas
/// write it (it may hold tabs, line breaks and doubled quotes, taken as they are); any other
/// TSV field is read with the `\t` `\n` `\r` `\\` escapes that `DelimitedWriter` (and
/// PostgreSQL) write, so SheetPort's own TSV reads back (its writer quotes a field that starts
/// with a quote).
/// Lines may end in CRLF, LF or CR; a UTF-8 byte order mark is skipped.
///
/// The input is read into one large buffer (`ScanBuffer`, 256 KiB, grown only for a record
/// that does not fit) and scanned eight bytes at a time for the bytes that end a field
/// (`ByteStops`); a record's fields are spans of that buffer (`DelimitedRecord`), so reading
/// costs about a cycle a byte and no allocation or copy a field. Only fields whose quotes or
/// escapes must be undone are copied. A record cut by the buffer's end is read again from its
/// start once the buffer holds more. UTF-8 is checked a record at a time (eight ASCII bytes a
/// step); `nextRecord()` gives the fields as strings for callers that want those.
///
/// Memory is bounded: a field longer than any cell can hold, or a record with more fields than
/// a sheet has columns, is an error as soon as it is seen.
public struct DelimitedReader {
    private let input: ByteInput
    private let dialect: DelimitedWriter.Dialect
    /// The CSV field delimiter (a tab for TSV).
    public let delimiter: UInt8
    private let buffer = ScanBuffer()
    /// Where the next record starts in the buffer.
    private var position = 0
    /// Whether the input has no more bytes than the buffer holds.
    private var atEnd = false
    /// The input offset of the buffer's first byte (for UTF-8 errors).
    private var baseOffset: Int64 = 0
    private var line = 1
    /// The line the last record started on.
    public private(set) var recordLine = 0
    /// Where an unquoted field stops: the delimiter and line breaks (and a TSV escape).
    private let fieldStops: ByteStops
    /// Where a quoted field's run of plain bytes stops: the quote and line breaks (counted).
    private let quotedStops = ByteStops([UInt8(ascii: "\""), 0x0A, 0x0D])
    /// The record `nextRecord()` reads into.
    private var scratch = DelimitedRecord()

    /// The most bytes a field may have: 32,767 characters (Excel's limit for a cell) of up to
    /// 3 UTF-8 bytes each (3 x 32,767; computed, because a stored static is read through a
    /// lazy-initialisation check a field).
    static var maxFieldBytes: Int { 98_301 }

    /// A reader of `input` in `dialect`; for CSV, fields are separated by `delimiter`, or by the
    /// one `DelimiterSniffer` tells from the start of the input when it is nil (`preferSemicolon`
    /// breaks its ties, for numbers written with decimal commas).
    public init(input: ByteInput, dialect: DelimitedWriter.Dialect, delimiter: UInt8? = nil, preferSemicolon: Bool = false) throws {
        self.input = input
        self.dialect = dialect
        try input.skipByteOrderMark()
        if dialect == .tsv {
            self.delimiter = 0x09
            fieldStops = ByteStops([0x09, 0x0A, 0x0D, UInt8(ascii: "\\")])
        } else {
            if let delimiter {
                self.delimiter = delimiter
            } else {
                let (start, isAll) = try input.lookAhead()
                self.delimiter = DelimiterSniffer.delimiter(start: start, isAll: isAll, preferSemicolon: preferSemicolon)
            }
            fieldStops = ByteStops([self.delimiter, 0x0A, 0x0D])
        }
        baseOffset = input.bytesRead
    }

    /// How many bytes the reader's buffer holds at most now (tests check it stays bounded).
    var bufferCapacity: Int { buffer.capacity }

    /// The delimiter a `--delimiter` value names: one ASCII character other than a quote, a
    /// line break or another control character, or `\t` or `tab` for a tab; nil for anything else.
    public static func delimiter(named name: String) -> UInt8? {
        if name == "\\t" || name.lowercased() == "tab" { return 0x09 }
        guard name.utf8.count == 1, let byte = name.utf8.first, byte == 0x09 || (byte >= 0x20 && byte < 0x7F),
              byte != UInt8(ascii: "\"") else { return nil }
        return byte
    }

    /// The next record's fields, nil at the end of the input.
    public mutating func nextRecord() throws -> [String]? {
        var record = scratch
        scratch = DelimitedRecord()
        defer { scratch = record }
        guard try read(into: &record) else { return nil }
        return (0..<record.count).map { record.string(at: $0) }
    }

    /// Reads the next record into `record` (its fields replaced, its storage kept), every
    /// field checked to be UTF-8; false at the end of the input. The record's fields point into
    /// this reader's buffer until the next call.
    public mutating func read(into record: inout DelimitedRecord) throws -> Bool {
        record.removeAll()
        while true {
            if position == buffer.end {
                if atEnd { return false }
                try fill()
                continue
            }
            if try parse(into: &record) { return true }
            // Cut by the buffer's end: read more, then the record again from its start.
            record.removeAll()
            try fill()
        }
    }

    /// Moves the unread bytes to the buffer's start (growing it when they fill it) and reads
    /// more after them; sets `atEnd` when the input has no more.
    private mutating func fill() throws {
        if position > 0 {
            buffer.shift(position)
            baseOffset += Int64(position)
            position = 0
        }
        // A record that fills most of the buffer gets a larger one, so that it is read again a few times at most.
        if buffer.capacity - buffer.end < buffer.capacity / 4 { buffer.grow() }
        let count = try input.take(into: buffer.pointer + buffer.end, count: buffer.capacity - buffer.end)
        if count == 0 { atEnd = true }
        buffer.end += count
        buffer.pointer[buffer.end] = 0x0A // the sentinel every scan stops at
    }

    /// Reads one record from `position`; false, with nothing consumed, when the buffer ends
    /// before the record does and the input has more.
    private mutating func parse(into record: inout DelimitedRecord) throws -> Bool {
        let p = buffer.pointer
        let end = buffer.end
        let quote = UInt8(ascii: "\"")
        let recordStart = position
        let maxColumns = CellReference.maxColumn
        var line = self.line
        var i = position
        record.base = UnsafePointer(p)
        while true {
            // One field from `i`; `ended` when it was the record's last.
            var ended = false
            if p[i] == quote && i < end {
                let startLine = line
                i += 1
                let contentStart = i
                var unescapedFrom = -1
                var segment = i
                while true {
                    let s = quotedStops.first(in: p, from: i)
                    if s >= end {
                        if !atEnd {
                            let length = unescapedFrom < 0 ? s - contentStart : record.unescaped.count - unescapedFrom + s - segment
                            if length > Self.maxFieldBytes { throw tooLong(line) }
                            return false
                        }
                        throw TextInputError(file: input.name, line: startLine, "a quoted field is not closed before the end of the input")
                    }
                    if p[s] == quote {
                        if s + 1 >= end && !atEnd { return false }
                        if s + 1 < end && p[s + 1] == quote {
                            if unescapedFrom < 0 { unescapedFrom = record.unescaped.count }
                            record.unescaped.append(contentsOf: UnsafeBufferPointer(start: p + segment, count: s + 1 - segment))
                            i = s + 2
                            segment = i
                            if record.unescaped.count - unescapedFrom > Self.maxFieldBytes { throw tooLong(line) }
                            continue
                        }
                        // The closing quote.
                        if unescapedFrom < 0 {
                            if s - contentStart > Self.maxFieldBytes { throw tooLong(line) }
                            record.append(start: contentStart, count: s - contentStart, raw: contentStart)
                        } else {
                            record.unescaped.append(contentsOf: UnsafeBufferPointer(start: p + segment, count: s - segment))
                            if record.unescaped.count - unescapedFrom > Self.maxFieldBytes { throw tooLong(line) }
                            record.appendUnescaped(from: unescapedFrom, raw: contentStart)
                        }
                        i = s + 1
                        break
                    }
                    // A line break inside the field: counted.
                    if p[s] == 0x0A {
                        line += 1
                    } else {
                        if s + 1 >= end && !atEnd { return false }
                        if !(s + 1 < end && p[s + 1] == 0x0A) { line += 1 }
                    }
                    i = s + 1
                }
                if i >= end {
                    if !atEnd { return false }
                    ended = true
                } else if p[i] == delimiter {
                    i += 1
                } else if p[i] == 0x0A || p[i] == 0x0D {
                    guard let next = endLine(p, at: i, end: end) else { return false }
                    i = next
                    line += 1
                    ended = true
                } else {
                    let after = p[i]
                    let shown = after >= 0x20 && after < 0x7F ? String(Character(Unicode.Scalar(after))) : "\\x" + Self.hex(after)
                    throw TextInputError(file: input.name, line: line,
                                         "unexpected \"\(shown)\" after a closing quote; quotes inside a quoted field are written twice")
                }
            } else if dialect == .csv {
                // A quote inside an unquoted field is kept, as Excel and Python's csv keep it.
                let s = fieldStops.first(in: p, from: i)
                if s - i > Self.maxFieldBytes { throw tooLong(line) }
                if s >= end && !atEnd { return false }
                record.append(start: i, count: s - i, raw: i)
                if s >= end {
                    i = s
                    ended = true
                } else if p[s] == delimiter {
                    i = s + 1
                } else {
                    guard let next = endLine(p, at: s, end: end) else { return false }
                    i = next
                    line += 1
                    ended = true
                }
            } else {
                guard let (next, how) = try tsvField(p, from: i, end: end, line: line, into: &record) else { return false }
                i = next
                if how == .line { line += 1 }
                ended = how != .field
            }
            if ended { break }
            guard record.count < maxColumns else {
                throw TextInputError(file: input.name, line: self.line, "over 16,384 fields: Excel's grid has 16,384 columns")
            }
        }
        if !UTF8Check.isASCII(p + recordStart, count: i - recordStart) { try checkUTF8(record, from: recordStart) }
        recordLine = self.line
        self.line = line
        position = i
        return true
    }

    /// Where the line that ends at `index` (a CR or LF) is over: after CRLF, LF or CR; nil when
    /// a CR is the buffer's last byte and the input has more (an LF may follow).
    @inline(__always)
    private func endLine(_ p: UnsafeMutablePointer<UInt8>, at index: Int, end: Int) -> Int? {
        guard p[index] == 0x0D else { return index + 1 }
        if index + 1 >= end { return atEnd ? index + 1 : nil }
        return p[index + 1] == 0x0A ? index + 2 : index + 1
    }

    /// How a TSV field ended: at a tab, a line break, or the end of the input.
    private enum FieldEnd { case field, line, input }

    /// One unquoted TSV field from `start`: where the next field or line starts and how the
    /// field ended; nil when the buffer ends before the field does and the input has more.
    private func tsvField(_ p: UnsafeMutablePointer<UInt8>, from start: Int, end: Int, line: Int,
                          into record: inout DelimitedRecord) throws -> (next: Int, how: FieldEnd)? {
        var i = start
        var unescapedFrom = -1
        var segment = start
        var s = start
        while true {
            s = fieldStops.first(in: p, from: i)
            let length = unescapedFrom < 0 ? s - start : record.unescaped.count - unescapedFrom + s - segment
            if length > Self.maxFieldBytes { throw tooLong(line) }
            if s >= end {
                if !atEnd { return nil }
                break
            }
            guard p[s] == UInt8(ascii: "\\") else { break }
            if s + 1 >= end && !atEnd { return nil }
            if unescapedFrom < 0 { unescapedFrom = record.unescaped.count }
            record.unescaped.append(contentsOf: UnsafeBufferPointer(start: p + segment, count: s - segment))
            if s + 1 >= end {
                record.unescaped.append(UInt8(ascii: "\\"))
                i = s + 1
            } else {
                switch p[s + 1] {
                case UInt8(ascii: "t"): record.unescaped.append(0x09)
                case UInt8(ascii: "n"): record.unescaped.append(0x0A)
                case UInt8(ascii: "r"): record.unescaped.append(0x0D)
                case UInt8(ascii: "\\"): record.unescaped.append(UInt8(ascii: "\\"))
                case let other: record.unescaped.append(UInt8(ascii: "\\")); record.unescaped.append(other) // not an escape: kept
                }
                i = s + 2
            }
            segment = i
        }
        if unescapedFrom < 0 {
            record.append(start: start, count: s - start, raw: start)
        } else {
            record.unescaped.append(contentsOf: UnsafeBufferPointer(start: p + segment, count: s - segment))
            record.appendUnescaped(from: unescapedFrom, raw: start)
        }
        if s >= end { return (s, .input) }
        if p[s] == 0x09 { return (s + 1, .field) }
        guard let next = endLine(p, at: s, end: end) else { return nil }
        return (next, .line)
    }

    private func tooLong(_ line: Int) -> TextInputError {
        TextInputError(file: input.name, line: line, "a field of over \(Self.maxFieldBytes) bytes: a cell holds at most 32,767 characters")
    }

    /// Finds the first field of a record (read from `recordStart`) that is not UTF-8 and
    /// throws, naming its line and the offset of its first bad byte.
    private func checkUTF8(_ record: DelimitedRecord, from recordStart: Int) throws {
        for index in 0..<record.count {
            guard let field = record.withField(index, { UTF8Check.isValid($0) ? nil : Array($0) }) else { continue }
            // The field's line: the line breaks before its raw text, as they were counted.
            let raw = record.span(index).raw
            var fieldLine = self.line
            var at = recordStart
            while at < raw {
                if buffer.pointer[at] == 0x0A || (buffer.pointer[at] == 0x0D && !(at + 1 < buffer.end && buffer.pointer[at + 1] == 0x0A)) {
                    fieldLine += 1
                }
                at += 1
            }
            // Where in the field the first invalid byte is (escapes before it aside).
            var parser = Unicode.UTF8.ForwardParser()
            var bytes = field.makeIterator()
            var valid = 0
            loop: while true {
                switch parser.parseScalar(from: &bytes) {
                case .valid(let scalar): valid += scalar.count
                case .error, .emptyInput: break loop
                }
            }
            throw TextInputError(file: input.name, line: fieldLine,
                                 "the text is not valid UTF-8 at byte offset \(baseOffset + Int64(raw) + Int64(valid)); if it is in another encoding, name it with --encoding")
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}

/// The bytes `DelimitedReader` scans: one allocation, readable 16 bytes past its capacity (a
/// sentinel line feed after the last byte read, and the eight-byte reads of `ByteStops`).
final class ScanBuffer {
    private(set) var pointer: UnsafeMutablePointer<UInt8>
    /// How many bytes it holds at most.
    private(set) var capacity = 1 << 18
    /// How many it holds.
    var end = 0

    init() {
        pointer = .allocate(capacity: capacity + 16)
        pointer.initialize(repeating: 0, count: capacity + 16)
    }

    deinit { pointer.deallocate() }

    /// Drops the first `count` bytes, moving the rest to the start.
    func shift(_ count: Int) {
        memmove(pointer, pointer + count, end - count)
        end -= count
    }

    /// Doubles the capacity, keeping the bytes.
    func grow() {
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2 + 16)
        larger.initialize(repeating: 0, count: capacity * 2 + 16)
        larger.update(from: pointer, count: end)
        pointer.deallocate()
        pointer = larger
        capacity *= 2
    }
}
