/// Writes rows as CSV (RFC 4180: `,`, CRLF or LF, fields with `,` `"` CR or LF quoted, `"`
/// doubled) or TSV (tab, LF, with `\t` `\n` `\r` `\\` escaped, as PostgreSQL and
/// linear TSV read them).
///
/// Line N is row N of the sheet: missing rows are empty lines (unless empty rows are skipped).
/// Rows are padded to the sheet's `<dimension>` width when it gives one, or to the columns kept
/// when empty columns are skipped, so the output is rectangular.
public struct DelimitedWriter {
    /// The two flavours.
    public enum Dialect: Sendable { case csv, tsv }

    private let output: ByteOutput
    private let dialect: Dialect
    private let dateSystem: DateSystem
    private let options: TextOutputOptions
    private let columns: ColumnSelection
    /// Per cell format: whether its number format shows a time.
    private let showsTime: [Bool]
    private let newline: [UInt8]
    private var linesWritten = 0
    private var width: Int?

    /// A writer of `dialect` for a workbook in `dateSystem`.
    public init(output: ByteOutput, dialect: Dialect, dateSystem: DateSystem) {
        self.init(output: output, dialect: dialect, dateSystem: dateSystem, styles: nil, options: TextOutputOptions())
    }

    /// A writer of `dialect` with `options`; `styles` tell which date cells show a time.
    public init(output: ByteOutput, dialect: Dialect, dateSystem: DateSystem, styles: Styles?, options: TextOutputOptions) {
        self.init(output: output, dialect: dialect, dateSystem: dateSystem, styles: styles, options: options, columns: ColumnSelection())
    }

    init(output: ByteOutput, dialect: Dialect, dateSystem: DateSystem, styles: Styles?, options: TextOutputOptions,
         columns: ColumnSelection) {
        self.output = output
        self.dialect = dialect
        self.dateSystem = dateSystem
        self.options = options
        self.columns = columns
        showsTime = styles?.cellFormats.map { $0.isDate && NumberFormat.showsTime($0.numberFormat) } ?? []
        newline = dialect == .csv && options.lineEnding == .crlf ? [0x0D, 0x0A] : [0x0A]
    }

    /// Writes `row` (and empty lines for the rows skipped before it); rows with no cells are deferred.
    public mutating func write(_ row: Row, dimension: String?) throws {
        guard !row.cells.isEmpty else { return }
        if options.skipEmptyRows,
           !row.cells.contains(where: { UsedRange.hasValue($0.value) && columns.position(of: $0.column) != nil }) { return }
        if width == nil { width = columns.keptCount ?? dimension.flatMap(Self.width(ofDimension:)) ?? 0 }
        while !options.skipEmptyRows, linesWritten < row.index - 1 {
            try output.write(newline)
            linesWritten += 1
        }
        var column = 1
        for cell in row.cells {
            guard let position = columns.position(of: cell.column) else { continue }
            while column < position { try output.write(byte: separator); column += 1 }
            let time = cell.styleIndex >= 0 && cell.styleIndex < showsTime.count && showsTime[cell.styleIndex]
            try writeField(ValueText.field(cell.value, system: dateSystem, showsTime: time, dateFormat: options.dateFormat))
        }
        while column < (width ?? 0) { try output.write(byte: separator); column += 1 }
        try output.write(newline)
        linesWritten = row.index
    }

    private var separator: UInt8 { dialect == .csv ? UInt8(ascii: ",") : 0x09 }

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
