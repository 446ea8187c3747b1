/// The server's stored rows (CONTRACTS section 4), appended straight to a row block's bytes:
/// each row's header as `RowBlock.header` writes it, then its cells, in
/// the same bytes as `JSONLWriter.write(_:input:)` given the input the import stores (`=` and
/// the formula, else the value as a CSV field), built with no `String` per cell and with each
/// number formatted, and each string scanned for escapes, once for both of its members.
struct StoredCellWriter {
    private let styleMembers: [[UInt8]?]
    private let dateSystem: DateSystem

    /// A writer of cells of a workbook with `styles` and `dateSystem`.
    init(styles: Styles, dateSystem: DateSystem) {
        let base = styles.format(0)
        styleMembers = styles.cellFormats.map { JSONLWriter.styleMember($0.keptStyle(relativeTo: base)).map { Array($0.utf8) } }
        self.dateSystem = dateSystem
    }

    /// The input the import stores for `cell`: `=` and its formula, else its value as a CSV field.
    func input(_ cell: Cell) -> String {
        cell.formula.map { "=" + $0 } ?? ValueText.field(cell.value, system: dateSystem)
    }

    /// Appends `RowBlock.header` of `row`: `#ROW HEIGHT HIDDEN` and a line break.
    func appendHeader(_ row: Row, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "#"))
        Self.appendDecimal(Int64(row.index), to: &bytes)
        bytes.append(UInt8(ascii: " "))
        if let height = row.height {
            if let integral = Self.integral(height) {
                Self.appendDecimal(integral, to: &bytes)
            } else {
                bytes.append(contentsOf: height.description.utf8)
            }
        } else {
            bytes.append(UInt8(ascii: "-"))
        }
        bytes.append(UInt8(ascii: " "))
        bytes.append(row.isHidden ? UInt8(ascii: "1") : UInt8(ascii: "0"))
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Appends one JSON object, and a line break, for every cell of `row`.
    func append(_ row: Row, to bytes: inout [UInt8]) {
        for cell in row.cells {
            append(cell, row: row.index, to: &bytes)
        }
    }

    private func append(_ cell: Cell, row: Int, to bytes: inout [UInt8]) {
        Self.append(Literal.openColumn, to: &bytes)
        Self.appendDecimal(Int64(cell.column), to: &bytes)
        Self.append(Literal.input, to: &bytes)
        if let formula = cell.formula {
            Self.append(Literal.quoteEquals, to: &bytes) // "=" needs no escape: `"=` and the formula's escaped text
            Self.appendEscaped(formula, to: &bytes, quoted: false)
            bytes.append(UInt8(ascii: "\""))
            appendReference(cell.column, row: row, to: &bytes)
            appendValue(cell.value, to: &bytes)
            Self.append(Literal.formula, to: &bytes)
            Self.appendEscaped(formula, to: &bytes)
            // As JSONLWriter: an array formula's range, when it starts at this cell.
            if case .array(let text) = cell.formulaKind, let range = CellRange(text),
               range.start.column == cell.column, range.start.row == row {
                Self.append(Literal.arrayRange, to: &bytes)
                bytes.append(contentsOf: range.description.utf8)
                bytes.append(UInt8(ascii: "\""))
            }
        } else {
            switch cell.value {
            case .number(let number):
                // The field and the value are the same text.
                if let integral = Self.integral(number) {
                    bytes.append(UInt8(ascii: "\""))
                    Self.appendDecimal(integral, to: &bytes)
                    bytes.append(UInt8(ascii: "\""))
                    appendReference(cell.column, row: row, to: &bytes)
                    Self.append(Literal.numberValue, to: &bytes)
                    Self.appendDecimal(integral, to: &bytes)
                } else {
                    let text = number.description
                    bytes.append(UInt8(ascii: "\""))
                    bytes.append(contentsOf: text.utf8)
                    bytes.append(UInt8(ascii: "\""))
                    appendReference(cell.column, row: row, to: &bytes)
                    Self.append(Literal.numberValue, to: &bytes)
                    bytes.append(contentsOf: text.utf8)
                }
            case .string(let text):
                Self.appendEscaped(text, to: &bytes)
                appendReference(cell.column, row: row, to: &bytes)
                Self.append(Literal.stringValue, to: &bytes)
                Self.appendEscaped(text, to: &bytes)
            case .date(let serial):
                // The calendar's date-time, worked out once for the field and the value.
                guard let dateTime = ExcelDateTime(serial: serial, system: dateSystem) else { fallthrough }
                bytes.append(UInt8(ascii: "\""))
                if serial < 1 { // a time of day alone
                    Self.appendTime(dateTime, milliseconds: false, to: &bytes)
                } else {
                    Self.appendDay(dateTime, to: &bytes)
                    if dateTime.hasTime {
                        bytes.append(UInt8(ascii: " "))
                        Self.appendTime(dateTime, milliseconds: false, to: &bytes)
                    }
                }
                bytes.append(UInt8(ascii: "\""))
                appendReference(cell.column, row: row, to: &bytes)
                appendDate(dateTime, to: &bytes)
            default:
                Self.appendEscaped(ValueText.field(cell.value, system: dateSystem), to: &bytes)
                appendReference(cell.column, row: row, to: &bytes)
                appendValue(cell.value, to: &bytes)
            }
        }
        if cell.styleIndex > 0, cell.styleIndex < styleMembers.count, let members = styleMembers[cell.styleIndex] {
            bytes.append(contentsOf: members)
        }
        Self.append(Literal.close, to: &bytes)
    }

    /// `,"ref":"B2",`
    private func appendReference(_ column: Int, row: Int, to bytes: inout [UInt8]) {
        Self.append(Literal.reference, to: &bytes)
        CellReference.appendColumnName(column, to: &bytes)
        Self.appendDecimal(Int64(row), to: &bytes)
        Self.append(Literal.quoteComma, to: &bytes)
    }

    /// `"type":...,"value":...` as `JSONLWriter.writeValue` spells it.
    private func appendValue(_ value: CellValue, to bytes: inout [UInt8]) {
        switch value {
        case .empty:
            Self.append(Literal.emptyValue, to: &bytes)
        case .number(let number):
            appendNumber(number, to: &bytes)
        case .string(let text):
            Self.append(Literal.stringValue, to: &bytes)
            Self.appendEscaped(text, to: &bytes)
        case .boolean(let flag):
            Self.append(flag ? Literal.trueValue : Literal.falseValue, to: &bytes)
        case .error(let code):
            Self.append(Literal.errorValue, to: &bytes)
            Self.appendEscaped(code, to: &bytes)
        case .date(let number), .duration(let number):
            if let dateTime = ValueText.dateTime(value, system: dateSystem) {
                appendDate(dateTime, to: &bytes)
            } else {
                appendNumber(number, to: &bytes) // outside the calendar: the serial itself
            }
        case .isoDate(let text):
            if let dateTime = ValueText.dateTime(value, system: dateSystem) {
                appendDate(dateTime, to: &bytes)
            } else {
                Self.append(Literal.stringValue, to: &bytes)
                Self.appendEscaped(text, to: &bytes)
            }
        }
    }

    private func appendNumber(_ number: Double, to bytes: inout [UInt8]) {
        Self.append(Literal.numberValue, to: &bytes)
        if let integral = Self.integral(number) {
            Self.appendDecimal(integral, to: &bytes)
        } else {
            bytes.append(contentsOf: number.description.utf8)
        }
    }

    /// `"type":"date","value":"YYYY-MM-DDTHH:MM:SS.sss"` (`ExcelDateTime.iso8601`).
    private func appendDate(_ dateTime: ExcelDateTime, to bytes: inout [UInt8]) {
        Self.append(Literal.dateValue, to: &bytes)
        Self.appendDay(dateTime, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        Self.appendTime(dateTime, milliseconds: true, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// `YYYY-MM-DD` (`ExcelDateTime.dateText`).
    private static func appendDay(_ dateTime: ExcelDateTime, to bytes: inout [UInt8]) {
        appendPadded(dateTime.year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(dateTime.month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(dateTime.day, width: 2, to: &bytes)
    }

    /// `HH:MM:SS`, with `.sss` when asked for or when there are milliseconds (`ExcelDateTime.timeText`).
    private static func appendTime(_ dateTime: ExcelDateTime, milliseconds: Bool, to bytes: inout [UInt8]) {
        let ms = dateTime.millisecondOfDay % 1000
        let seconds = dateTime.millisecondOfDay / 1000
        appendPadded(seconds / 3600, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(seconds / 60 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(seconds % 60, width: 2, to: &bytes)
        if milliseconds || ms != 0 {
            bytes.append(UInt8(ascii: "."))
            appendPadded(ms, width: 3, to: &bytes)
        }
    }

    /// `value` (a date or time part: never negative) with zeros before it up to `width` digits,
    /// as `ExcelDateTime` pads.
    private static func appendPadded(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        var digits = 1, rest = value
        while rest >= 10 { rest /= 10; digits += 1 }
        for _ in digits..<max(digits, width) { bytes.append(UInt8(ascii: "0")) }
        appendDecimal(Int64(value), to: &bytes)
    }

    /// The number as the integer `ValueText.number` writes for it, nil when it writes the double.
    @inline(__always)
    private static func integral(_ number: Double) -> Int64? {
        number == number.rounded() && abs(number) < 9_007_199_254_740_992 ? Int64(number) : nil
    }

    /// The decimal digits of `value`, with `-` when negative (as `String(value)`).
    static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            repeat {
                digits[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            while count > 0 {
                count -= 1
                bytes.append(digits[count])
            }
        }
    }

    /// `text` as a JSON string literal (`JSONLWriter.writeString`), or its inside alone when
    /// not `quoted`; text with nothing to escape is copied whole.
    static func appendEscaped(_ text: String, to bytes: inout [UInt8], quoted: Bool = true) {
        var text = text
        let copied = text.withUTF8 { utf8 -> Bool in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            if quoted { bytes.append(UInt8(ascii: "\"")) }
            bytes.append(contentsOf: utf8)
            if quoted { bytes.append(UInt8(ascii: "\"")) }
            return true
        }
        guard !copied else { return }
        let start = bytes.count
        JSONLWriter.appendString(text, to: &bytes)
        if !quoted { // drop the quotes appendString put around it
            bytes.remove(at: start)
            bytes.removeLast()
        }
    }

    /// Appends a literal's UTF-8 (no array of its own to retain).
    @inline(__always)
    private static func append(_ literal: StaticString, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// The fixed parts of an object.
    private enum Literal {
        static let openColumn: StaticString = "{\"col\":"
        static let input: StaticString = ",\"input\":"
        static let quoteEquals: StaticString = "\"="
        static let reference: StaticString = ",\"ref\":\""
        static let quoteComma: StaticString = "\","
        static let formula: StaticString = ",\"formula\":"
        static let arrayRange: StaticString = ",\"arrayRange\":\""
        static let numberValue: StaticString = "\"type\":\"number\",\"value\":"
        static let stringValue: StaticString = "\"type\":\"string\",\"value\":"
        static let emptyValue: StaticString = "\"type\":\"empty\",\"value\":null"
        static let trueValue: StaticString = "\"type\":\"boolean\",\"value\":true"
        static let falseValue: StaticString = "\"type\":\"boolean\",\"value\":false"
        static let errorValue: StaticString = "\"type\":\"error\",\"value\":"
        static let dateValue: StaticString = "\"type\":\"date\",\"value\":\""
        static let close: StaticString = "}\n"
    }
}
