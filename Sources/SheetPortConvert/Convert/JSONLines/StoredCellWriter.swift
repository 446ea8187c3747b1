import SheetPortCore
import SheetPortReader
/// The server's stored rows (Docs/Reference/HTTP.md, "Cell objects"), appended to a row block's bytes: each
/// row's header as `RowBlock.header` writes it, then its cells in the same bytes as
/// `JSONLWriter.write(_:input:)` given the input the import stores (`=` and the formula, else
/// the value as a CSV field). A row is built in a `ByteSink` with no `String` per cell, each
/// number formatted and each string scanned for escapes once for both of its members.
package final class StoredCellWriter {
    private let styleMembers: [[UInt8]?]
    private let dateSystem: DateSystem
    /// Where a row is built before it is appended whole.
    private let sink = ByteSink()

    /// A writer of cells of a workbook with `styles` and `dateSystem`.
    package init(styles: Styles, dateSystem: DateSystem) {
        let base = styles.format(0)
        styleMembers = styles.cellFormats.map { format in
            var style = format.keptStyle(relativeTo: base)
            // A code Excel would not take is not kept: the cell keeps its value in General (the
            // pre-flight's `bad-number-format` finding names it).
            if !NumberFormat.isValid(style.numberFormat) { style.numberFormat = "General" }
            return JSONLWriter.styleMember(style).map { Array($0.utf8) }
        }
        self.dateSystem = dateSystem
    }

    /// The kept style of cell format `index` as its JSON object (`{"bold":true,...}`), nil for
    /// the plain one: what a cell of that format stores as its `style` member.
    package func styleObject(_ index: Int) -> ArraySlice<UInt8>? {
        guard index > 0, index < styleMembers.count, let members = styleMembers[index] else { return nil }
        return members[Literal.styleKey.utf8CodeUnitCount...]
    }

    /// Appends `RowBlock.header` of `row`: `#ROW HEIGHT HIDDEN` and a line break.
    package func appendHeader(_ row: Row, to bytes: inout [UInt8]) {
        defer { flush(into: &bytes) }
        sink.put(UInt8(ascii: "#"))
        sink.putDecimal(Int64(row.index))
        sink.put(UInt8(ascii: " "))
        if let height = row.height {
            sink.putNumber(height)
        } else {
            sink.put(UInt8(ascii: "-"))
        }
        sink.put(UInt8(ascii: " "))
        sink.put(row.isHidden ? UInt8(ascii: "1") : UInt8(ascii: "0"))
        sink.put(UInt8(ascii: "\n"))
    }

    /// Appends one JSON object, and a line break, for every cell of `row` (an empty text alone
    /// is left out, as `JSONLWriter` leaves it out).
    package func append(_ row: Row, to bytes: inout [UInt8]) {
        for cell in row.cells where !cell.isEmptyText {
            append(cell, row: row.index)
        }
        flush(into: &bytes)
    }

    private func flush(into bytes: inout [UInt8]) {
        bytes.append(contentsOf: sink.bytes)
        sink.removeAll()
    }

    private func append(_ cell: Cell, row: Int) {
        sink.put(Literal.openColumn)
        sink.putDecimal(Int64(cell.column))
        sink.put(Literal.input)
        if let formula = cell.formula {
            sink.put(Literal.quoteEquals) // "=" needs no escape: `"=` and the formula's escaped text
            sink.putEscaped(formula, quoted: false)
            sink.put(UInt8(ascii: "\""))
            appendReference(cell.column, row: row)
            appendValue(cell.value)
            sink.put(Literal.formula)
            sink.putEscaped(formula)
            // As JSONLWriter: an array formula's range, when it starts at this cell.
            if let text = cell.formulaKind.arrayRange, let range = CellRange(text),
               range.start.column == cell.column, range.start.row == row {
                sink.put(Literal.arrayRange)
                sink.put(range.description)
                sink.put(UInt8(ascii: "\""))
                // A dynamic array's anchor names itself as its spill's anchor (the server's `"spill"`).
                if case .dynamicArray = cell.formulaKind {
                    sink.put(Literal.spill)
                    sink.put(range.start.description)
                    sink.put(UInt8(ascii: "\""))
                }
            }
        } else {
            switch cell.value {
            case .number(let number):
                // The field and the value are the same text; an integral one is put with no `String`.
                let integral = Self.integral(number), text = integral == nil ? number.description : ""
                func putNumber() { if let integral { sink.putDecimal(integral) } else { sink.put(text) } }
                sink.put(UInt8(ascii: "\""))
                putNumber()
                sink.put(UInt8(ascii: "\""))
                appendReference(cell.column, row: row)
                sink.put(Literal.numberValue)
                putNumber()
            case .string(let text):
                sink.putEscaped(text)
                appendReference(cell.column, row: row)
                sink.put(Literal.stringValue)
                sink.putEscaped(text)
            case .date(let serial):
                // The calendar's date-time, worked out once for the field and the value.
                guard let dateTime = ExcelDateTime(serial: serial, system: dateSystem) else { fallthrough }
                sink.put(UInt8(ascii: "\""))
                putDateInput(dateTime, serial: serial)
                sink.put(UInt8(ascii: "\""))
                appendReference(cell.column, row: row)
                appendDate(dateTime)
            default:
                sink.putEscaped(ValueText.field(cell.value, system: dateSystem))
                appendReference(cell.column, row: row)
                appendValue(cell.value)
            }
        }
        if cell.styleIndex > 0, cell.styleIndex < styleMembers.count, let members = styleMembers[cell.styleIndex] {
            sink.put(members)
        }
        sink.put(Literal.close)
    }

    /// `,"ref":"B2",`
    private func appendReference(_ column: Int, row: Int) {
        sink.put(Literal.reference)
        sink.putColumnName(column)
        sink.putDecimal(Int64(row))
        sink.put(Literal.quoteComma)
    }

    /// `"type":...,"value":...` as `JSONLWriter.writeValue` spells it.
    private func appendValue(_ value: CellValue) {
        switch value {
        case .empty:
            sink.put(Literal.emptyValue)
        case .number(let number):
            appendNumber(number)
        case .string(let text):
            sink.put(Literal.stringValue)
            sink.putEscaped(text)
        case .boolean(let flag):
            sink.put(flag ? Literal.trueValue : Literal.falseValue)
        case .error(let code):
            sink.put(Literal.errorValue)
            sink.putEscaped(code)
        case .date(let number), .duration(let number):
            if let dateTime = ValueText.dateTime(value, system: dateSystem) {
                appendDate(dateTime)
            } else {
                appendNumber(number) // outside the calendar: the serial itself
            }
        case .isoDate(let text):
            if let dateTime = ValueText.dateTime(value, system: dateSystem) {
                appendDate(dateTime)
            } else {
                sink.put(Literal.stringValue)
                sink.putEscaped(text)
            }
        }
    }

    private func appendNumber(_ number: Double) {
        sink.put(Literal.numberValue)
        sink.putNumber(number) // an integer, or the shortest text that reads back (`ValueText.number`)
    }

    /// The input a date cell of `serial` stores: the date, with its time when it has one, or the
    /// time alone (`ValueText.isTimeOfDay`: below 1, but the 1904 system's day 0 is a date).
    private func putDateInput(_ dateTime: ExcelDateTime, serial: Double) {
        if ValueText.isTimeOfDay(serial, system: dateSystem, showsTime: false) {
            sink.putTime(dateTime, milliseconds: false)
        } else {
            sink.putDate(dateTime)
            if dateTime.hasTime {
                sink.put(UInt8(ascii: " "))
                sink.putTime(dateTime, milliseconds: false)
            }
        }
    }

    /// A date cell's stored input and value texts (no quotes: neither needs an escape), as the
    /// line `append` writes holds them; nil when `serial` is outside the calendar (the line
    /// then holds the serial).
    package func dateTexts(serial: Double) -> (input: [UInt8], value: [UInt8])? {
        guard let dateTime = ExcelDateTime(serial: serial, system: dateSystem) else { return nil }
        putDateInput(dateTime, serial: serial)
        let input = Array(sink.bytes)
        sink.removeAll()
        sink.putDate(dateTime)
        sink.put(UInt8(ascii: "T"))
        sink.putTime(dateTime, milliseconds: true)
        let value = Array(sink.bytes)
        sink.removeAll()
        return (input, value)
    }

    /// `"type":"date","value":"YYYY-MM-DDTHH:MM:SS.sss"` (`ExcelDateTime.iso8601`).
    private func appendDate(_ dateTime: ExcelDateTime) {
        sink.put(Literal.dateValue)
        sink.putDate(dateTime)
        sink.put(UInt8(ascii: "T"))
        sink.putTime(dateTime, milliseconds: true)
        sink.put(UInt8(ascii: "\""))
    }

    /// The number as the integer `ValueText.number` writes for it, nil when it writes the double.
    @inline(__always)
    private static func integral(_ number: Double) -> Int64? {
        number == number.rounded() && abs(number) < 9_007_199_254_740_992 ? Int64(number) : nil
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
        static let spill: StaticString = ",\"spill\":\""
        static let numberValue: StaticString = "\"type\":\"number\",\"value\":"
        static let stringValue: StaticString = "\"type\":\"string\",\"value\":"
        static let emptyValue: StaticString = "\"type\":\"empty\",\"value\":null"
        static let trueValue: StaticString = "\"type\":\"boolean\",\"value\":true"
        static let falseValue: StaticString = "\"type\":\"boolean\",\"value\":false"
        static let errorValue: StaticString = "\"type\":\"error\",\"value\":"
        static let dateValue: StaticString = "\"type\":\"date\",\"value\":\""
        static let close: StaticString = "}\n"
        static let styleKey: StaticString = ",\"style\":"
    }
}
