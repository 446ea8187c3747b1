import SheetPortCore
import SheetPortReader
import SheetPortConvert

/// The CSV/TSV writing as committed before fields were written straight into the output
/// (a `String` per field, `Double.description` for numbers): the oracle the byte-writing
/// `DelimitedWriter` is compared with. Kept here, frozen, so a change to `ValueText` cannot
/// move both sides at once. One difference on purpose: see the CSV quoting in `writeField`.
package struct ReferenceDelimitedWriter {
    package let dialect: DelimitedWriter.Dialect
    package let dateSystem: DateSystem
    package let options: TextOutputOptions
    package let columns: ColumnSelection
    package let showsTime: [Bool]
    private var linesWritten = 0
    private var width: Int?
    package private(set) var bytes: [UInt8] = []

    package init(dialect: DelimitedWriter.Dialect, dateSystem: DateSystem, styles: Styles?, options: TextOutputOptions,
         columns: ColumnSelection) {
        self.dialect = dialect
        self.dateSystem = dateSystem
        self.options = options
        self.columns = columns
        showsTime = styles?.cellFormats.map { $0.isDate && NumberFormat.showsTime($0.numberFormat) } ?? []
    }

    private var newline: [UInt8] { dialect == .csv && options.lineEnding == .crlf ? [0x0D, 0x0A] : [0x0A] }
    private var separator: UInt8 { dialect == .csv ? UInt8(ascii: ",") : 0x09 }

    package mutating func write(_ row: Row, dimension: String?) {
        guard !row.cells.isEmpty else { return }
        if options.skipEmptyRows,
           !row.cells.contains(where: { UsedRange.hasValue($0.value) && columns.position(of: $0.column) != nil }) { return }
        if width == nil { width = columns.keptCount ?? dimension.flatMap(DelimitedWriter.width(ofDimension:)) ?? 0 }
        while !options.skipEmptyRows, linesWritten < row.index - 1 {
            // Third deliberate change (issue 22): a row with no cells is a record of separators.
            for _ in 1..<max(1, width!) { bytes.append(separator) }
            bytes += newline
            linesWritten += 1
        }
        var column = 1
        for cell in row.cells {
            guard let position = columns.position(of: cell.column) else { continue }
            while column < position { bytes.append(separator); column += 1 }
            let time = cell.styleIndex >= 0 && cell.styleIndex < showsTime.count && showsTime[cell.styleIndex]
            writeField(Self.field(cell.value, system: dateSystem, showsTime: time, dateFormat: options.dateFormat))
        }
        while column < (width ?? 0) { bytes.append(separator); column += 1 }
        bytes += newline
        linesWritten = row.index
    }

    private mutating func writeField(_ text: String) {
        switch dialect {
        case .csv:
            guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D })
            else { return bytes += text.utf8 }
            // The one deliberate change: the committed code doubled quotes with
            // `text.replacing("\"", with: "\"\"")`, which matches Characters and so missed a
            // quote with a combining mark after it (`"\u{301}`), leaving a field that ends
            // early; every quote byte is doubled now, as RFC 4180 asks (tested apart).
            bytes.append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                if byte == UInt8(ascii: "\"") { bytes.append(byte) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        case .tsv:
            // Second deliberate change (issue 22): a field that starts with a quote is written
            // quoted as Excel writes it, since the reader takes a leading quote for a quoted field.
            if text.utf8.first == UInt8(ascii: "\"") {
                bytes.append(UInt8(ascii: "\""))
                for byte in text.utf8 {
                    if byte == UInt8(ascii: "\"") { bytes.append(byte) }
                    bytes.append(byte)
                }
                return bytes.append(UInt8(ascii: "\""))
            }
            for byte in text.utf8 {
                switch byte {
                case 0x09: bytes += "\\t".utf8
                case 0x0A: bytes += "\\n".utf8
                case 0x0D: bytes += "\\r".utf8
                case UInt8(ascii: "\\"): bytes += "\\\\".utf8
                default: bytes.append(byte)
                }
            }
        }
    }

    /// `ValueText.number` as committed.
    package static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            return String(Int64(value))
        }

        return value.description
    }

    /// `ValueText.elapsed` as committed.
    package static func elapsed(_ days: Double) -> String {
        guard days.isFinite, abs(days) < 1e9 else { return number(days) }
        let milliseconds = Int((abs(days) * 86_400_000).rounded(.toNearestOrEven))
        let seconds = milliseconds / 1000
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        var text = (days < 0 ? "-" : "") + String(seconds / 3600) + ":" + two(seconds / 60 % 60) + ":" + two(seconds % 60)
        if milliseconds % 1000 != 0 {
            let fraction = String(milliseconds % 1000)
            text += "." + String(repeating: "0", count: 3 - fraction.count) + fraction
        }
        return text
    }

    /// `ValueText.field` as committed.
    package static func field(_ value: CellValue, system: DateSystem, showsTime: Bool, dateFormat: DateFormat?) -> String {
        func calendarText(_ dateTime: ExcelDateTime) -> String {
            dateTime.hasTime || showsTime ? dateTime.dateText + " " + dateTime.timeText(milliseconds: false) : dateTime.dateText
        }
        switch value {
        case .empty: return ""
        case .number(let number):
            // Fourth deliberate change (issue 22): an integral value below 10^21 as the exact integer.
            if number == number.rounded(), abs(number) >= 9_007_199_254_740_992, abs(number) < 1e21 {
                return (number < 0 ? "-" : "") + String(UInt128(abs(number)))
            }
            return Self.number(number)
        case .string(let text): return text
        case .boolean(let flag): return flag ? "TRUE" : "FALSE"
        case .error(let code): return code
        case .date(let serial):
            // A negative serial counts back from day zero (dates before 1900); the 1904 system's
            // day 0 is 1904-01-01, a time alone only where the format shows a time.
            guard let dateTime = serial < 0 ? ExcelDateTime(serialBeforeEpoch: serial, system: system)
                                            : ExcelDateTime(serial: serial, system: system) else { return Self.number(serial) }
            if serial >= 0, serial < 1, system == .excel1900 || showsTime { return dateTime.timeText(milliseconds: false) }
            if let dateFormat { return dateFormat.text(dateTime) }
            return calendarText(dateTime)
        case .duration(let days):
            return elapsed(days)
        case .isoDate(let text):
            guard let dateTime = ExcelDateTime(iso: text) else { return text }
            if let dateFormat { return dateFormat.text(dateTime) }
            return calendarText(dateTime)
        }
    }
}
