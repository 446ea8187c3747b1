import SheetPortCore
import SheetPortReader
import SheetPortWriter
/// Writes rows as CSV (RFC 4180: `,`, CRLF or LF, fields with `,` `"` CR or LF quoted, `"`
/// doubled) or TSV (tab, LF, with `\t` `\n` `\r` `\\` escaped, as PostgreSQL and
/// linear TSV read them; a field that starts with `"` is written in quotes, its quotes
/// doubled, as Excel writes it, so that `DelimitedReader` reads it back).
///
/// Record N is row N of the sheet: a row with no cells is a record of separators only (`,,,`),
/// unless empty rows are skipped. Every record has the same number of fields, the width given
/// (`SheetConverter` gives the used range's, found from the cells), or the columns kept when
/// empty columns are skipped; with neither, the `<dimension>` handed to `write(_:dimension:)`.
public struct DelimitedWriter {
    /// The two flavours.
    public enum Dialect: Sendable { case csv, tsv }

    private let output: ByteOutput
    private let dialect: Dialect
    private let dateSystem: DateSystem
    // What the options say, each kept apart: reading them from a stored `TextOutputOptions`
    // copied the whole struct on every row.
    private let skipsEmptyRows: Bool
    private let limit: Int
    private let writesDisplayed: Bool
    private let dateFormat: DateFormat?
    private let columns: ColumnSelection
    /// Per cell format: whether its number format shows a time.
    private let showsTime: [Bool]
    /// The cell formats, for `--values displayed`.
    private let formats: [CellFormat]
    private let newline: [UInt8]
    private let separator: UInt8
    /// Whether dates in `dateFormat` are written with no quoting check.
    private let dateFormatIsPlain: Bool
    private var linesWritten = 0
    /// Fields per record; set before the first record when the used range's scan ends late (`RowsAwaitingWidth`).
    var width: Int?
    /// Records written so far (rows with no cells between others included).
    private(set) var records = 0

    /// A writer of `dialect` for a workbook in `dateSystem`.
    public init(output: ByteOutput, dialect: Dialect, dateSystem: DateSystem) {
        self.init(output: output, dialect: dialect, dateSystem: dateSystem, styles: nil, options: TextOutputOptions())
    }

    /// A writer of `dialect` with `options`; `styles` tell which date cells show a time.
    public init(output: ByteOutput, dialect: Dialect, dateSystem: DateSystem, styles: Styles?, options: TextOutputOptions) {
        self.init(output: output, dialect: dialect, dateSystem: dateSystem, styles: styles, options: options, columns: ColumnSelection())
    }

    /// A writer whose records have `width` fields each (the used range's width), or the columns
    /// kept by `columns`.
    init(output: ByteOutput, dialect: Dialect, dateSystem: DateSystem, styles: Styles?, options: TextOutputOptions,
         columns: ColumnSelection, width: Int? = nil) {
        self.output = output
        self.width = columns.keptCount ?? width
        self.dialect = dialect
        self.dateSystem = dateSystem
        skipsEmptyRows = options.skipEmptyRows
        limit = options.limit ?? Int.max
        writesDisplayed = options.values == .displayed
        dateFormat = options.dateFormat
        self.columns = columns
        showsTime = styles?.cellFormats.map { $0.isDate && NumberFormat.showsTime($0.numberFormat) } ?? []
        formats = styles?.cellFormats ?? []
        newline = dialect == .csv && options.lineEnding == .crlf ? [0x0D, 0x0A] : [0x0A]
        dateFormatIsPlain = Self.isPlain(options.dateFormat, in: dialect)
        separator = dialect == .csv ? UInt8(ascii: ",") : 0x09
    }

    /// Writes `row` (and empty lines for the rows skipped before it); rows with no cells are deferred.
    public mutating func write(_ row: Row, dimension: String?) throws {
        try write(row, dimensionOnce: dimension)
    }

    /// `write(_:dimension:)` with the dimension taken only for the first row written (the
    /// reader's metadata is a struct copied on every read).
    mutating func write(_ row: Row, dimensionOnce dimension: @autoclosure () -> String?) throws {
        guard !row.cells.isEmpty else { return }
        if skipsEmptyRows,
           !row.cells.contains(where: { UsedRange.hasValue($0.value) && columns.position(of: $0.column) != nil }) { return }
        guard records < limit else { return }
        if width == nil { width = columns.keptCount ?? dimension().flatMap(Self.width(ofDimension:)) ?? 0 }
        while !skipsEmptyRows, linesWritten < row.index - 1 {
            guard records < limit else { return }
            if width! > 1 { try output.put(separator, times: width! - 1) }
            output.put(newline)
            try output.flushIfFull()
            linesWritten += 1
            records += 1
        }
        guard records < limit else { return }
        var column = 1
        // Cells are read in place: `for cell in row.cells` copies each whole cell, formula and all.
        // The output is written out once per record, not per field (each check cost an
        // exclusivity check of its own): the buffer may pass its block by one record, whose
        // cells are in memory anyway.
        try row.cells.withUnsafeBufferPointer { cells in
            for index in cells.indices {
                let cell = cells.baseAddress! + index
                guard let position = columns.position(of: cell.pointee.column) else { continue }
                if column < position { try output.put(separator, times: position - column); column = position }
                try writeValue(cell)
            }
        }
        if column < width ?? 0 { try output.put(separator, times: width! - column) }
        output.put(newline)
        try output.flushIfFull()
        linesWritten = row.index
        records += 1
    }

    /// Appends the field of `cell`: text through `writeField`, everything else straight into the output.
    @inline(__always)
    private func writeValue(_ cell: UnsafePointer<Cell>) throws {
        if writesDisplayed {
            var isDate = false
            switch cell.pointee.value {
            case .date, .isoDate, .duration: isDate = true
            default: break
            }
            if !(isDate && dateFormat != nil) { // --date-format wins for dates
                let style = cell.pointee.styleIndex
                let format = style >= 0 && style < formats.count ? formats[style] : CellFormat()
                return writeField(NumberFormatRenderer.text(cell.pointee.value, format: format, system: dateSystem))
            }
        }
        switch cell.pointee.value {
        case .string(let text), .error(let text):
            writeField(text)
        case .number(let number):
            putNumber(number)
        default:
            let style = cell.pointee.styleIndex
            let time = style >= 0 && style < showsTime.count && showsTime[style]
            if let text = ValueText.putField(cell.pointee.value, system: dateSystem, showsTime: time,
                                             dateFormat: dateFormat, dateFormatIsPlain: dateFormatIsPlain, to: output.buffer) {
                writeField(text)
            }
        }
    }

    /// Appends a number as `ByteSink.putNumber` does, but an integral value from 2^53 up to
    /// 10^21 as the exact integer the double holds (`123456789012345680`), with no exponent.
    @inline(__always)
    private func putNumber(_ number: Double) {
        guard number.magnitude >= 9_007_199_254_740_992, number.magnitude < 1e21, number.rounded(.towardZero) == number else {
            return output.putNumber(number)
        }
        output.put(Self.exactInteger(number))
    }

    /// The decimal digits of an integral double below 10^21 in magnitude, exactly.
    static func exactInteger(_ number: Double) -> String {
        (number < 0 ? "-" : "") + String(UInt128(number.magnitude))
    }

    /// Appends `text` quoted (CSV) or escaped (TSV) when it must be.
    private func writeField(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ writeField(bytes: $0) }) == nil {
            var text = text
            text.withUTF8 { writeField(bytes: $0) }
        }
    }

    private func writeField(bytes: UnsafeBufferPointer<UInt8>) {
        switch dialect {
        case .csv:
            // `,` `"` LF and CR are all at or below 0x2C: one comparison clears most bytes.
            guard bytes.contains(where: { $0 <= UInt8(ascii: ",") && Self.isCSVSpecial($0) }) else { return output.put(bytes) }
            output.put(UInt8(ascii: "\""))
            for byte in bytes {
                if byte == UInt8(ascii: "\"") { output.put(byte) }
                output.put(byte)
            }
            output.put(UInt8(ascii: "\""))
        case .tsv:
            if bytes.first == UInt8(ascii: "\"") {
                // Quoted as Excel writes it, so that the reader does not take it for a quoted field's start.
                output.put(UInt8(ascii: "\""))
                for byte in bytes {
                    if byte == UInt8(ascii: "\"") { output.put(byte) }
                    output.put(byte)
                }
                return output.put(UInt8(ascii: "\""))
            }
            guard bytes.contains(where: { ($0 <= 0x0D || $0 == UInt8(ascii: "\\")) && Self.isTSVSpecial($0) }) else {
                return output.put(bytes)
            }
            for byte in bytes {
                switch byte {
                case 0x09: output.put("\\t" as StaticString)
                case 0x0A: output.put("\\n" as StaticString)
                case 0x0D: output.put("\\r" as StaticString)
                case UInt8(ascii: "\\"): output.put("\\\\" as StaticString)
                default: output.put(byte)
                }
            }
        }
    }

    @inline(__always)
    private static func isCSVSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == 0x0A || byte == 0x0D
    }

    @inline(__always)
    private static func isTSVSpecial(_ byte: UInt8) -> Bool {
        byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "\\")
    }

    /// Whether a date written in `format` never needs quoting or escaping in `dialect`: its
    /// directives are digits, so only its literal text can.
    private static func isPlain(_ format: DateFormat?, in dialect: Dialect) -> Bool {
        guard let format else { return true }
        return format.pieces.allSatisfy { piece in
            guard case .text(let text) = piece else { return true }
            return !text.utf8.contains { dialect == .csv ? isCSVSpecial($0) : isTSVSpecial($0) || $0 == UInt8(ascii: "\"") }
        }
    }

    /// The last column of a `<dimension ref="A1:D20">`, when it is a range.
    package static func width(ofDimension dimension: String) -> Int? {
        guard dimension.contains(":"), let range = CellRange(dimension) else { return nil }
        return range.end.column
    }
}
