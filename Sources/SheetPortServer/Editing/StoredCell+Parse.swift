import SheetPortCore
import SheetPortCalc
import SheetPortReader

/// A stored line read without Foundation when it is in the server's own shape: one flat object
/// of strings, numbers, `true`/`false` and `null`, no `style` (a write of many cells reads each
/// line it changes). Anything else (a style, a nested or unexpected member) answers nil, and
/// the general parser reads it.
extension StoredCell {
    /// Reads `line` in the server's own flat shape; nil when it is not in that shape (which
    /// says nothing about whether the general parser reads it).
    static func parsedFlat(_ line: UnsafeBufferPointer<UInt8>, row: Int) -> StoredCell? {
        guard let members = FlatObject(line), case .integer(let column)? = members["col"] else { return nil }
        var cell = StoredCell(row: row, column: column)
        func text(_ key: String) -> String?? {
            switch members[key] {
            case nil: return .some(nil)
            case .text(let text)?: return .some(text)
            default: return nil // the general parser's `as? String` answers this
            }
        }
        guard let input = text("input"), let formula = text("formula"), let arrayRange = text("arrayRange"),
              let spill = text("spill"), let type = text("type") else { return nil }
        cell.input = input ?? ""
        cell.formula = formula
        cell.arrayRange = arrayRange
        cell.spill = spill
        switch (type ?? "", members["value"]) {
        case ("number", .number(let number)?): cell.value = .number(number)
        case ("number", .integer(let number)?): cell.value = .number(Double(number))
        case ("number", nil), ("number", .null?): cell.value = .empty
        case ("string", .text(let text)?): cell.value = .text(text)
        case ("boolean", .flag(let flag)?): cell.value = .boolean(flag)
        case ("error", .text(let text)?): cell.value = .error(ExcelError(literal: text) ?? .value)
        case ("date", .text(let text)?): cell.value = ExcelDateTime(iso: text).map { .number($0.serial(in: dateSystem)) } ?? .empty
        case ("number", _), ("string", _), ("boolean", _), ("error", _), ("date", _): return nil
        default: cell.value = .empty
        }
        return cell
    }
}
