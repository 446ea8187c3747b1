/// The server's stored cells (CONTRACTS section 4), appended straight to a row block's bytes:
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

    /// Appends one JSON object, and a line break, for every cell of `row`.
    func append(_ row: Row, to bytes: inout [UInt8]) {
        for cell in row.cells {
            append(cell, row: row.index, to: &bytes)
        }
    }

    private func append(_ cell: Cell, row: Int, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: Literal.openColumn)
        Self.appendDecimal(Int64(cell.column), to: &bytes)
        bytes.append(contentsOf: Literal.input)
        if let formula = cell.formula {
            bytes.append(contentsOf: Literal.quoteEquals) // "=" needs no escape: `"=` and the formula's escaped text
            Self.appendEscaped(formula, to: &bytes, quoted: false)
            bytes.append(UInt8(ascii: "\""))
            appendReference(cell.column, row: row, to: &bytes)
            appendValue(cell.value, to: &bytes)
            bytes.append(contentsOf: Literal.formula)
            Self.appendEscaped(formula, to: &bytes)
            // As JSONLWriter: an array formula's range, when it starts at this cell.
            if case .array(let text) = cell.formulaKind, let range = CellRange(text),
               range.start.column == cell.column, range.start.row == row {
                bytes.append(contentsOf: Literal.arrayRange)
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
                    bytes.append(contentsOf: Literal.numberValue)
                    Self.appendDecimal(integral, to: &bytes)
                } else {
                    let text = number.description
                    bytes.append(UInt8(ascii: "\""))
                    bytes.append(contentsOf: text.utf8)
                    bytes.append(UInt8(ascii: "\""))
                    appendReference(cell.column, row: row, to: &bytes)
                    bytes.append(contentsOf: Literal.numberValue)
                    bytes.append(contentsOf: text.utf8)
                }
            case .string(let text):
                Self.appendEscaped(text, to: &bytes)
                appendReference(cell.column, row: row, to: &bytes)
                bytes.append(contentsOf: Literal.stringValue)
                Self.appendEscaped(text, to: &bytes)
            default:
                Self.appendEscaped(ValueText.field(cell.value, system: dateSystem), to: &bytes)
                appendReference(cell.column, row: row, to: &bytes)
                appendValue(cell.value, to: &bytes)
            }
        }
        if cell.styleIndex > 0, cell.styleIndex < styleMembers.count, let members = styleMembers[cell.styleIndex] {
            bytes.append(contentsOf: members)
        }
        bytes.append(contentsOf: Literal.close)
    }

    /// `,"ref":"B2",`
    private func appendReference(_ column: Int, row: Int, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: Literal.reference)
        CellReference.appendColumnName(column, to: &bytes)
        Self.appendDecimal(Int64(row), to: &bytes)
        bytes.append(contentsOf: Literal.quoteComma)
    }

    /// `"type":...,"value":...` as `JSONLWriter.writeValue` spells it.
    private func appendValue(_ value: CellValue, to bytes: inout [UInt8]) {
        switch value {
        case .empty:
            bytes.append(contentsOf: Literal.emptyValue)
        case .number(let number):
            appendNumber(number, to: &bytes)
        case .string(let text):
            bytes.append(contentsOf: Literal.stringValue)
            Self.appendEscaped(text, to: &bytes)
        case .boolean(let flag):
            bytes.append(contentsOf: flag ? Literal.trueValue : Literal.falseValue)
        case .error(let code):
            bytes.append(contentsOf: Literal.errorValue)
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
                bytes.append(contentsOf: Literal.stringValue)
                Self.appendEscaped(text, to: &bytes)
            }
        }
    }

    private func appendNumber(_ number: Double, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: Literal.numberValue)
        if let integral = Self.integral(number) {
            Self.appendDecimal(integral, to: &bytes)
        } else {
            bytes.append(contentsOf: number.description.utf8)
        }
    }

    private func appendDate(_ dateTime: ExcelDateTime, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: Literal.dateValue)
        bytes.append(contentsOf: dateTime.iso8601.utf8)
        bytes.append(UInt8(ascii: "\""))
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

    /// The fixed parts of an object.
    private enum Literal {
        static let openColumn = Array("{\"col\":".utf8)
        static let input = Array(",\"input\":".utf8)
        static let quoteEquals = Array("\"=".utf8)
        static let reference = Array(",\"ref\":\"".utf8)
        static let quoteComma = Array("\",".utf8)
        static let formula = Array(",\"formula\":".utf8)
        static let arrayRange = Array(",\"arrayRange\":\"".utf8)
        static let numberValue = Array("\"type\":\"number\",\"value\":".utf8)
        static let stringValue = Array("\"type\":\"string\",\"value\":".utf8)
        static let emptyValue = Array("\"type\":\"empty\",\"value\":null".utf8)
        static let trueValue = Array("\"type\":\"boolean\",\"value\":true".utf8)
        static let falseValue = Array("\"type\":\"boolean\",\"value\":false".utf8)
        static let errorValue = Array("\"type\":\"error\",\"value\":".utf8)
        static let dateValue = Array("\"type\":\"date\",\"value\":\"".utf8)
        static let close = Array("}\n".utf8)
    }
}
