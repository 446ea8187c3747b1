import SheetPortCore
import SheetPortReader
import SheetPortWriter
/// Reads CSV (RFC 4180: quoted fields with `""` escapes, which may hold line breaks; the
/// delimiter a comma, a semicolon, a tab, a bar or any given one) or TSV (tab-separated), one
/// record at a time. A TSV field that starts with a double quote is quoted as Excel and pandas
/// write it (it may hold tabs, line breaks and doubled quotes, taken as they are); any other
/// TSV field is read with the `\t` `\n` `\r` `\\` escapes that `DelimitedWriter` (and
/// PostgreSQL) write, so SheetPort's own TSV reads back (its writer quotes a field that starts
/// with a quote).
/// Lines may end in CRLF, LF or CR; a UTF-8 byte order mark is skipped.
///
/// Fields are scanned a buffer at a time (`ByteInput.append(to:upTo:limit:)`) into one
/// `DelimitedRecord`, so reading costs a few instructions a byte and no allocation a field;
/// `nextRecord()` gives them as strings for callers that want those.
///
/// Memory is bounded: a field longer than any cell can hold, or a record with more fields than
/// a sheet has columns, is an error as soon as it is seen.
public struct DelimitedReader {
    private let input: ByteInput
    private let dialect: DelimitedWriter.Dialect
    /// The CSV field delimiter (a tab for TSV).
    public let delimiter: UInt8
    private var line = 1
    /// The input offset where the field being read starts (for UTF-8 errors).
    private var fieldStart: Int64 = 0
    /// The line the field being read starts on (a field is checked once its line has ended).
    private var fieldLine = 1
    /// The line the last record started on.
    public private(set) var recordLine = 0
    /// Where an unquoted field stops: the delimiter and line breaks (and a TSV escape).
    private let fieldStops: ByteSet
    /// Where a quoted field's run of plain bytes stops: the quote and line breaks (counted).
    private static let quotedStops = ByteSet([UInt8(ascii: "\""), 0x0A, 0x0D])
    /// The record `nextRecord()` reads into.
    private var scratch = DelimitedRecord()

    /// The most bytes a field may have: 32,767 characters (Excel's limit for a cell) of up to
    /// 3 UTF-8 bytes each.
    static let maxFieldBytes = 3 * 32_767

    /// A reader of `input` in `dialect`; for CSV, fields are separated by `delimiter`, or by the
    /// one `DelimiterSniffer` tells from the start of the input when it is nil (`preferSemicolon`
    /// breaks its ties, for numbers written with decimal commas).
    public init(input: ByteInput, dialect: DelimitedWriter.Dialect, delimiter: UInt8? = nil, preferSemicolon: Bool = false) throws {
        self.input = input
        self.dialect = dialect
        try input.skipByteOrderMark()
        if dialect == .tsv {
            self.delimiter = 0x09
            fieldStops = ByteSet([0x09, 0x0A, 0x0D, UInt8(ascii: "\\")])
        } else {
            if let delimiter {
                self.delimiter = delimiter
            } else {
                let (start, isAll) = try input.lookAhead()
                self.delimiter = DelimiterSniffer.delimiter(start: start, isAll: isAll, preferSemicolon: preferSemicolon)
            }
            fieldStops = ByteSet([self.delimiter, 0x0A, 0x0D])
        }
    }

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
    /// field checked to be UTF-8; false at the end of the input.
    public mutating func read(into record: inout DelimitedRecord) throws -> Bool {
        record.removeAll()
        guard try input.peek() != nil else { return false }
        recordLine = line
        while true {
            let ended = dialect == .csv ? try csvField(into: &record) : try tsvField(into: &record)
            try endField(of: &record)
            if ended { return true }
            guard record.count < CellReference.maxColumn else {
                throw TextInputError(file: input.name, line: recordLine, "over 16,384 fields: Excel's grid has 16,384 columns")
            }
        }
    }

    /// One CSV field; true when it was the record's last.
    private mutating func csvField(into record: inout DelimitedRecord) throws -> Bool {
        fieldStart = input.bytesRead
        fieldLine = line
        if try input.peek() == UInt8(ascii: "\"") { return try quotedField(into: &record) }
        // A quote inside an unquoted field is kept, as Excel and Python's csv keep it.
        let stop = try scan(into: &record, upTo: fieldStops)
        if stop == delimiter { _ = try input.next(); return false }
        if stop == 0x0A || stop == 0x0D { try endLine() }
        return true
    }

    /// A field in double quotes (the next byte is the opening quote): `""` is a quote, and
    /// delimiters and line breaks are text; true when it was the record's last.
    private mutating func quotedField(into record: inout DelimitedRecord) throws -> Bool {
        let quote = UInt8(ascii: "\"")
        _ = try input.next()
        fieldStart = input.bytesRead
        fieldLine = line
        let startLine = line
        while true {
            guard let byte = try scan(into: &record, upTo: Self.quotedStops) else {
                throw TextInputError(file: input.name, line: startLine, "a quoted field is not closed before the end of the input")
            }
            _ = try input.next()
            if byte == quote {
                if try input.peek() == quote { _ = try input.next(); try append(quote, to: &record); continue }
                break
            }
            if byte == 0x0A { line += 1 } else if byte == 0x0D, try input.peek() != 0x0A { line += 1 }
            try append(byte, to: &record)
        }
        guard let after = try input.peek() else { return true }
        if after == delimiter { _ = try input.next(); return false }
        if after == 0x0A || after == 0x0D { try endLine(); return true }
        let shown = after >= 0x20 && after < 0x7F ? String(Character(Unicode.Scalar(after))) : String(format: "\\x%02X", after)
        throw TextInputError(file: input.name, line: line,
                             "unexpected \"\(shown)\" after a closing quote; quotes inside a quoted field are written twice")
    }

    /// One TSV field; true when it was the record's last.
    private mutating func tsvField(into record: inout DelimitedRecord) throws -> Bool {
        fieldStart = input.bytesRead
        fieldLine = line
        if try input.peek() == UInt8(ascii: "\"") { return try quotedField(into: &record) }
        while true {
            guard let stop = try scan(into: &record, upTo: fieldStops) else { return true }
            _ = try input.next()
            switch stop {
            case 0x09: return false
            case 0x0A:
                line += 1
                return true
            case 0x0D:
                if try input.peek() == 0x0A { _ = try input.next() }
                line += 1
                return true
            default: // a backslash
                switch try input.next() {
                case UInt8(ascii: "t"): try append(0x09, to: &record)
                case UInt8(ascii: "n"): try append(0x0A, to: &record)
                case UInt8(ascii: "r"): try append(0x0D, to: &record)
                case UInt8(ascii: "\\"): try append(UInt8(ascii: "\\"), to: &record)
                case let other?: try append(UInt8(ascii: "\\"), to: &record); try append(other, to: &record) // not an escape: kept
                case nil: try append(UInt8(ascii: "\\"), to: &record)
                }
            }
        }
    }

    private mutating func endLine() throws {
        if try input.next() == 0x0D, try input.peek() == 0x0A { _ = try input.next() }
        line += 1
    }

    /// Appends the field's bytes up to one of `stops` (left unread and returned; nil at the end).
    private mutating func scan(into record: inout DelimitedRecord, upTo stops: ByteSet) throws -> UInt8? {
        let limit = record.fieldStart + Self.maxFieldBytes
        let stop = try input.append(to: &record.bytes, upTo: stops, limit: limit)
        guard record.bytes.count <= limit else { throw tooLong() }
        return stop
    }

    private mutating func append(_ byte: UInt8, to record: inout DelimitedRecord) throws {
        guard record.bytes.count - record.fieldStart < Self.maxFieldBytes else { throw tooLong() }
        record.bytes.append(byte)
    }

    private func tooLong() -> TextInputError {
        TextInputError(file: input.name, line: line, "a field of over \(Self.maxFieldBytes) bytes: a cell holds at most 32,767 characters")
    }

    /// Closes the field being read, once its bytes are checked to be UTF-8.
    private func endField(of record: inout DelimitedRecord) throws {
        let start = record.fieldStart
        let valid = record.bytes.withUnsafeBufferPointer { bytes in
            UTF8Check.isValid(UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        guard valid else { throw invalidUTF8(record.bytes[start...]) }
        record.endField()
    }

    private func invalidUTF8(_ field: ArraySlice<UInt8>) -> TextInputError {
        // Where in the field the first invalid byte is (escapes before it aside).
        var parser = Unicode.UTF8.ForwardParser()
        var bytes = field.makeIterator()
        var index = 0
        loop: while true {
            switch parser.parseScalar(from: &bytes) {
            case .valid(let scalar): index += scalar.count
            case .error, .emptyInput: break loop
            }
        }
        return TextInputError(file: input.name, line: fieldLine,
                              "the text is not valid UTF-8 at byte offset \(fieldStart + Int64(index)); if it is in another encoding, name it with --encoding")
    }
}
