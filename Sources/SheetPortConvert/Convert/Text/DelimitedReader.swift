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
/// Memory is bounded: a field longer than any cell can hold, or a record with more fields than
/// a sheet has columns, is an error as soon as it is seen.
public struct DelimitedReader {
    private let input: ByteInput
    private let dialect: DelimitedWriter.Dialect
    /// The CSV field delimiter (a tab for TSV).
    public let delimiter: UInt8
    private var line = 1
    private var field: [UInt8] = []
    private var fieldStart: Int64 = 0
    /// The line the last record started on.
    public private(set) var recordLine = 0

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
        } else if let delimiter {
            self.delimiter = delimiter
        } else {
            let (start, isAll) = try input.lookAhead()
            self.delimiter = DelimiterSniffer.delimiter(start: start, isAll: isAll, preferSemicolon: preferSemicolon)
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
        guard try input.peek() != nil else { return nil }
        recordLine = line
        var fields: [String] = []
        while true {
            let (text, ended) = dialect == .csv ? try csvField() : try tsvField()
            fields.append(text)
            if ended { return fields }
            guard fields.count < CellReference.maxColumn else {
                throw TextInputError(file: input.name, line: recordLine, "over 16,384 fields: Excel's grid has 16,384 columns")
            }
        }
    }

    /// One CSV field; `ended` when it was the record's last.
    private mutating func csvField() throws -> (String, ended: Bool) {
        field.removeAll(keepingCapacity: true)
        fieldStart = input.bytesRead
        if try input.peek() == UInt8(ascii: "\"") { return try quotedField() }
        while let byte = try input.peek() {
            if byte == delimiter { _ = try input.next(); return (try text(), false) }
            if byte == 0x0A || byte == 0x0D { let value = try text(); try endLine(); return (value, true) }
            try append(byte) // a quote inside an unquoted field is kept, as Excel and Python's csv keep it
            _ = try input.next()
        }
        return (try text(), true)
    }

    /// A field in double quotes (the next byte is the opening quote): `""` is a quote, and
    /// delimiters and line breaks are text; `ended` when it was the record's last.
    private mutating func quotedField() throws -> (String, ended: Bool) {
        let quote = UInt8(ascii: "\"")
        _ = try input.next()
        fieldStart = input.bytesRead
        let startLine = line
        while true {
            guard let byte = try input.next() else {
                throw TextInputError(file: input.name, line: startLine, "a quoted field is not closed before the end of the input")
            }
            if byte == quote {
                if try input.peek() == quote { _ = try input.next(); try append(quote); continue }
                break
            }
            if byte == 0x0A { line += 1 } else if byte == 0x0D, try input.peek() != 0x0A { line += 1 }
            try append(byte)
        }
        guard let after = try input.peek() else { return (try text(), true) }
        if after == delimiter { _ = try input.next(); return (try text(), false) }
        if after == 0x0A || after == 0x0D { let value = try text(); try endLine(); return (value, true) }
        let shown = after >= 0x20 && after < 0x7F ? String(Character(Unicode.Scalar(after))) : String(format: "\\x%02X", after)
        throw TextInputError(file: input.name, line: line,
                             "unexpected \"\(shown)\" after a closing quote; quotes inside a quoted field are written twice")
    }

    /// One TSV field; `ended` when it was the record's last.
    private mutating func tsvField() throws -> (String, ended: Bool) {
        field.removeAll(keepingCapacity: true)
        fieldStart = input.bytesRead
        if try input.peek() == UInt8(ascii: "\"") { return try quotedField() }
        while let byte = try input.next() {
            switch byte {
            case 0x09: return (try text(), false)
            case 0x0A:
                let value = try text()
                line += 1
                return (value, true)
            case 0x0D:
                let value = try text()
                if try input.peek() == 0x0A { _ = try input.next() }
                line += 1
                return (value, true)
            case UInt8(ascii: "\\"):
                switch try input.next() {
                case UInt8(ascii: "t"): try append(0x09)
                case UInt8(ascii: "n"): try append(0x0A)
                case UInt8(ascii: "r"): try append(0x0D)
                case UInt8(ascii: "\\"): try append(UInt8(ascii: "\\"))
                case let other?: try append(UInt8(ascii: "\\")); try append(other) // not an escape: kept
                case nil: try append(UInt8(ascii: "\\"))
                }
            default: try append(byte)
            }
        }
        return (try text(), true)
    }

    private mutating func endLine() throws {
        if try input.next() == 0x0D, try input.peek() == 0x0A { _ = try input.next() }
        line += 1
    }

    private mutating func append(_ byte: UInt8) throws {
        guard field.count < Self.maxFieldBytes else {
            throw TextInputError(file: input.name, line: line, "a field of over \(Self.maxFieldBytes) bytes: a cell holds at most 32,767 characters")
        }
        field.append(byte)
    }

    private func text() throws -> String {
        if let text = String(validating: field, as: UTF8.self) { return text }
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
        throw TextInputError(file: input.name, line: line,
                             "the text is not valid UTF-8 at byte offset \(fieldStart + Int64(index)); if it is in another encoding, name it with --encoding")
    }
}
