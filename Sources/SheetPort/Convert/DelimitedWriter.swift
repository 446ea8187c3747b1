/// Writes rows as CSV (RFC 4180: `,`, CRLF, fields with `,` `"` CR or LF quoted, `"`
/// doubled) or TSV (tab, LF, with `\t` `\n` `\r` `\\` escaped, as PostgreSQL and
/// linear TSV read them).
///
/// Line N is row N of the sheet: missing rows are empty lines. Rows are padded to the
/// sheet's `<dimension>` width when it gives one, so the output is rectangular.
public struct DelimitedWriter {
    /// The two flavours.
    public enum Dialect: Sendable { case csv, tsv }

    private let output: ByteOutput
    private let dialect: Dialect
    private let dateSystem: DateSystem
    private var linesWritten = 0
    private var width: Int?

    /// A writer of `dialect` for a workbook in `dateSystem`.
    public init(output: ByteOutput, dialect: Dialect, dateSystem: DateSystem) {
        self.output = output
        self.dialect = dialect
        self.dateSystem = dateSystem
    }

    /// Writes `row` (and empty lines for the rows skipped before it); rows with no cells are deferred.
    public mutating func write(_ row: Row, dimension: String?) throws {
        guard !row.cells.isEmpty else { return }
        if width == nil { width = dimension.flatMap(Self.width(ofDimension:)) ?? 0 }
        while linesWritten < row.index - 1 {
            try output.write(newline)
            linesWritten += 1
        }
        var column = 1
        for cell in row.cells {
            while column < cell.column { try output.write(byte: separator); column += 1 }
            try writeField(ValueText.field(cell.value, system: dateSystem))
        }
        while column < (width ?? 0) { try output.write(byte: separator); column += 1 }
        try output.write(newline)
        linesWritten = row.index
    }

    private var separator: UInt8 { dialect == .csv ? UInt8(ascii: ",") : 0x09 }
    private var newline: [UInt8] { dialect == .csv ? [0x0D, 0x0A] : [0x0A] }

    private func writeField(_ text: String) throws {
        var text = text
        switch dialect {
        case .csv:
            let needsQuotes = text.withUTF8 { bytes in
                bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            }
            guard needsQuotes else { return try output.write(text) }
            try output.write(byte: UInt8(ascii: "\""))
            try output.write(text.replacing("\"", with: "\"\""))
            try output.write(byte: UInt8(ascii: "\""))
        case .tsv:
            let needsEscapes = text.withUTF8 { bytes in
                bytes.contains { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == UInt8(ascii: "\\") }
            }
            guard needsEscapes else {
                return try output.write(text)
            }
            for byte in text.utf8 {
                switch byte {
                case 0x09: try output.write(Array("\\t".utf8))
                case 0x0A: try output.write(Array("\\n".utf8))
                case 0x0D: try output.write(Array("\\r".utf8))
                case UInt8(ascii: "\\"): try output.write(Array("\\\\".utf8))
                default: try output.write(byte: byte)
                }
            }
        }
    }

    /// The last column of a `<dimension ref="A1:D20">`, when it is a range.
    static func width(ofDimension dimension: String) -> Int? {
        guard dimension.contains(":"), let range = CellRange(dimension) else { return nil }
        return range.end.column
    }
}
