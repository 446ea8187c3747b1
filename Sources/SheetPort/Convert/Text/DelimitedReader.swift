/// Reads CSV (RFC 4180: quoted fields with `""` escapes, which may hold line breaks) or
/// TSV (tab-separated, with the `\t` `\n` `\r` `\\` escapes that `DelimitedWriter` writes),
/// one record at a time. Lines may end in CRLF, LF or CR; a UTF-8 byte order mark is skipped.
public struct DelimitedReader {
    private let input: ByteInput
    private let dialect: DelimitedWriter.Dialect
    private var line = 1
    private var field: [UInt8] = []
    /// The line the last record started on.
    public private(set) var recordLine = 0

    /// A reader of `input` in `dialect`.
    public init(input: ByteInput, dialect: DelimitedWriter.Dialect) throws {
        self.input = input
        self.dialect = dialect
        try input.skipByteOrderMark()
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
        }
    }

    /// One CSV field; `ended` when it was the record's last.
    private mutating func csvField() throws -> (String, ended: Bool) {
        field.removeAll(keepingCapacity: true)
        let quote = UInt8(ascii: "\"")
        if try input.peek() == quote {
            _ = try input.next()
            let startLine = line
            while true {
                guard let byte = try input.next() else {
                    throw TextInputError(file: input.name, line: startLine, "a quoted field is not closed before the end of the input")
                }
                if byte == quote {
                    if try input.peek() == quote { _ = try input.next(); field.append(quote); continue }
                    break
                }
                if byte == 0x0A { line += 1 } else if byte == 0x0D, try input.peek() != 0x0A { line += 1 }
                field.append(byte)
            }
            guard let after = try input.peek() else { return (try text(), true) }
            if after == UInt8(ascii: ",") { _ = try input.next(); return (try text(), false) }
            if after == 0x0A || after == 0x0D { let value = try text(); try endLine(); return (value, true) }
            throw TextInputError(file: input.name, line: line,
                                 "unexpected \"\(Character(Unicode.Scalar(after)))\" after a closing quote; quotes inside a quoted field are written twice")
        }
        while let byte = try input.peek() {
            if byte == UInt8(ascii: ",") { _ = try input.next(); return (try text(), false) }
            if byte == 0x0A || byte == 0x0D { let value = try text(); try endLine(); return (value, true) }
            field.append(byte) // a quote inside an unquoted field is kept, as Excel and Python's csv keep it
            _ = try input.next()
        }
        return (try text(), true)
    }

    /// One TSV field; `ended` when it was the record's last.
    private mutating func tsvField() throws -> (String, ended: Bool) {
        field.removeAll(keepingCapacity: true)
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
                case UInt8(ascii: "t"): field.append(0x09)
                case UInt8(ascii: "n"): field.append(0x0A)
                case UInt8(ascii: "r"): field.append(0x0D)
                case UInt8(ascii: "\\"): field.append(UInt8(ascii: "\\"))
                case let other?: field.append(UInt8(ascii: "\\")); field.append(other) // not an escape: kept
                case nil: field.append(UInt8(ascii: "\\"))
                }
            default: field.append(byte)
            }
        }
        return (try text(), true)
    }

    private mutating func endLine() throws {
        if try input.next() == 0x0D, try input.peek() == 0x0A { _ = try input.next() }
        line += 1
    }

    private func text() throws -> String {
        guard let text = String(validating: field, as: UTF8.self) else {
            throw TextInputError(file: input.name, line: line, "the text is not valid UTF-8")
        }
        return text
    }
}
