import Foundation
import SheetPortCore
import SheetPortCalc
import SheetPortReader
import SheetPortConvert

/// One cell as a row block stores it (`RowBlock`): its input, formula, value and kept style,
/// read from and written back to its JSON object line (Docs/Reference/Formats.md and Docs/Reference/HTTP.md), and the
/// text Excel shows for it (`display`).
package struct StoredCell {
    /// 1-based row and column.
    package var row: Int
    package var column: Int
    /// What was typed: `=` and the formula, or the constant's text.
    package var input: String
    /// The formula without `=`, nil for a constant.
    package var formula: String?
    /// The value, as the engine holds it (dates as serials of the 1900 system).
    package var value: CalcValue
    /// The kept style members (`bold`, `numFmt`, ...), empty for the plain style.
    package var style: [String: Any]
    /// The range of the array formula anchored here (a legacy one, or a dynamic array's spill).
    package var arrayRange: String?
    /// The anchor of the dynamic array this cell's value spilled from (`G1`; the anchor names
    /// itself), nil for a cell of its own.
    package var spill: String?

    /// The server's sheets use the 1900 date system (dates are stored as calendar dates).
    package static let dateSystem = DateSystem.excel1900

    /// The cell's number format code (`General` when the style sets none).
    package var numberFormat: String { style["numFmt"] as? String ?? "General" }

    /// `B2`.
    package var reference: String { CellReference.columnName(column) + String(row) }

    /// A cell with nothing in it.
    package init(row: Int, column: Int) {
        self.row = row
        self.column = column
        input = ""
        value = .empty
        style = [:]
    }

    /// Reads a stored object line; nil when it is not one.
    package init?(line: some Collection<UInt8>, row: Int) {
        // The server's own flat lines are read without Foundation (`parsedFlat`); the rest below.
        let flat: StoredCell? = line.withContiguousStorageIfAvailable { Self.parsedFlat($0, row: row) }
            ?? Array(line).withUnsafeBufferPointer { Self.parsedFlat($0, row: row) }
        guard let flat else {
            self.init(parsing: line, row: row)
            return
        }
        self = flat
    }

    /// Reads a stored object line through the general JSON parser (any JSON object with a
    /// `col`); nil when it is not one.
    package init?(parsing line: some Collection<UInt8>, row: Int) {
        guard let object = JSON.parseObject(Array(line)), let column = object["col"] as? Int else { return nil }
        self.row = row
        self.column = column
        input = object["input"] as? String ?? ""
        formula = object["formula"] as? String
        style = object["style"] as? [String: Any] ?? [:]
        arrayRange = object["arrayRange"] as? String
        spill = object["spill"] as? String
        value = Self.value(type: object["type"] as? String, object["value"])
    }

    private static func value(type: String?, _ raw: Any?) -> CalcValue {
        switch type {
        case "number": return (raw as? NSNumber).map { .number($0.doubleValue) } ?? .empty
        case "string": return .text(raw as? String ?? "")
        case "boolean": return .boolean((raw as? NSNumber)?.boolValue ?? false)
        case "error": return .error(ExcelError(literal: raw as? String ?? "") ?? .value)
        case "date":
            guard let text = raw as? String, let dateTime = ExcelDateTime(iso: text) else { return .empty }
            return .number(dateTime.serial(in: dateSystem))
        default: return .empty
        }
    }

    /// The input as text that types back to the same content (`TypedInput`): the formula, or
    /// the value (text that would read as something else gets its apostrophe).
    package var retypeableInput: String { formula.map { "=" + $0 } ?? TypedInput.text(of: value) }

    /// Whether the cell holds a value a dynamic array spilled into it (nothing typed there).
    package var isSpilled: Bool { spill != nil && formula == nil }

    /// Whether nothing is left to store: no input and no style.
    package var isVacant: Bool { input.isEmpty && formula == nil && style.isEmpty && value == .empty && spill == nil }

    /// The value's JSON `type` and `value` members: a number in a date format is a date.
    package var typedValue: (type: String, value: JSON) { Self.typedValue(value, numberFormat: numberFormat) }

    /// The JSON `type` and `value` members of `value` in a cell of `numberFormat` (an array
    /// answers its first element).
    package static func typedValue(_ value: CalcValue, numberFormat: String) -> (type: String, value: JSON) {
        switch value {
        case .empty: return ("empty", .null)
        case .number(let n):
            if numberFormat != "General", NumberFormat.isDateFormat(numberFormat), let dateTime = ExcelDateTime(serial: n, system: dateSystem) {
                return ("date", .string(dateTime.iso8601))
            }
            return ("number", .number(n))
        case .text(let t): return ("string", .string(t))
        case .boolean(let b): return ("boolean", .bool(b))
        case .error(let e): return ("error", .string(e.rawValue))
        case .array(let a): return typedValue(a.values.first ?? .empty, numberFormat: numberFormat)
        }
    }

    /// The text Excel shows for the value in the cell's number format.
    package var display: String { Self.display(value, numberFormat: numberFormat) }

    /// The text Excel shows for `value` in `numberFormat`.
    package static func display(_ value: CalcValue, numberFormat: String) -> String {
        switch value {
        case .empty: return ""
        case .number(let n): return NumberFormatRenderer.text(.number(n), code: numberFormat, system: dateSystem)
        case .text(let t): return NumberFormatRenderer.text(.string(t), code: numberFormat, system: dateSystem)
        case .boolean(let b): return b ? "TRUE" : "FALSE"
        case .error(let e): return e.rawValue
        case .array(let a): return display(a.values.first ?? .empty, numberFormat: numberFormat)
        }
    }

    /// The cell as the API shows it: the stored object with `display`.
    package var apiJSON: JSON {
        let (type, value) = typedValue
        var members: [(String, JSON)] = [("ref", .string(reference)), ("input", .string(input)), ("value", value),
                                         ("type", .string(type)), ("display", .string(display))]
        if let formula { members.append(("formula", .string(formula))) }
        if let arrayRange { members.append(("arrayRange", .string(arrayRange))) }
        if let spill { members.append(("spill", .string(spill))) }
        return .object(members)
    }

    /// The style members in a fixed order (the ones Sheets keeps first, then any other sorted).
    package static func styleJSON(_ style: [String: Any]) -> JSON {
        let known = ["bold", "italic", "horizontal", "numFmt", "fill", "color"]
        let keys = known.filter { style[$0] != nil } + style.keys.filter { !known.contains($0) }.sorted()
        return .object(keys.map { key in (key, jsonValue(style[key]!, key: key)) })
    }

    /// Style members that are flags (the rest are texts or numbers).
    private static let flags: Set<String> = ["bold", "italic", "underline", "strike", "wrap"]

    private static func jsonValue(_ value: Any, key: String) -> JSON {
        if let text = value as? String { return .string(text) }
        if flags.contains(key) { return .bool((value as? NSNumber)?.boolValue ?? (value as? Bool ?? false)) }
        if let number = value as? NSNumber { return .number(number.doubleValue) }
        if let object = value as? [String: Any] { return styleJSON(object) }
        return .null
    }

    /// A stored object line with its `display` member added (the rows window shows it); the
    /// line unchanged when it does not read as a cell.
    package static func withDisplay(_ line: ArraySlice<UInt8>, row: Int) -> [UInt8] {
        guard line.last == UInt8(ascii: "}"), let cell = StoredCell(line: line, row: row) else { return Array(line) }
        var bytes = Array(line.dropLast())
        bytes += Array(",\"display\":".utf8)
        bytes += Array(JSON.string(cell.display).text.utf8)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
