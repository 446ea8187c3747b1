import SheetPortCore
import SheetPortCalc
import SheetPortReader
import SheetPortConvert

/// A stored cell read from the typed form a write already holds of its line (`RowBlock.TypedLines`:
/// a decoded block's cells): a write clearing or overwriting many cells reads each one's old
/// line, and the typed form has it taken apart already, with no JSON to scan. Only the plain
/// case is read this way; a member the line escapes or styles goes to the line's own reader.
extension StoredCell {
    /// The cell stored as `line` (none: an empty cell) at `column` of `row`, read from its typed
    /// form when `typed` holds one, and then `line` too: a typed line is spelled as `line`
    /// renders its cell, so a history entry keeps its bytes instead of rendering them again.
    static func reading(_ line: ArraySlice<UInt8>?, row: Int, column: Int, typed: RowBlock.TypedLines) -> (cell: StoredCell, line: ArraySlice<UInt8>?) {
        guard let line else { return (StoredCell(row: row, column: column), nil) }
        if let cell = typed.cell(of: line).flatMap({ StoredCell($0, row: row) }) { return (cell, line) }
        return (StoredCell(line: line, row: row) ?? StoredCell(row: row, column: column), nil)
    }

    /// The cell of a typed line at `row`, as `init(line:row:)` reads its line; nil when a member
    /// holds an escape, a byte JSON would refuse raw, text that is not UTF-8 or an unknown
    /// error, and for a styled cell or a date (whose line a cell without a date format spells
    /// as a number): those are left to the line's reader.
    init?(_ typed: TypedLine, row: Int) {
        guard typed.style == nil, typed.kind != .date else { return nil }
        func text(_ bytes: ArraySlice<UInt8>) -> String? {
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return nil }
            return String(validating: bytes, as: UTF8.self)
        }
        self.init(row: row, column: typed.column)
        var valueText = ""
        switch typed.kind {
        case .string, .error:
            guard let read = text(typed.text) else { return nil }
            valueText = read
        default: break
        }
        switch typed.kind {
        case .empty: value = .empty
        case .double: value = .number(typed.number)
        case .integer: value = .number(Double(typed.integer))
        case .string: value = .text(valueText)
        case .isFalse: value = .boolean(false)
        case .isTrue: value = .boolean(true)
        case .error:
            // An error no cell spells so (a damaged block's) reads as `#VALUE!`: left to the line's reader.
            guard let error = ExcelError(literal: valueText) else { return nil }
            value = .error(error)
        case .date: return nil
        }
        if let bytes = typed.formula {
            guard let read = text(bytes) else { return nil }
            formula = read
        }
        if let bytes = typed.arrayRange {
            guard let read = text(bytes) else { return nil }
            arrayRange = read
        }
        if let bytes = typed.input {
            guard let read = text(bytes) else { return nil }
            input = read
        } else {
            // The input the value gives (`TypedLine.classify`): the formula's, or the value's text.
            switch typed.kind {
            case _ where formula != nil: input = "=" + formula!
            case .integer: input = String(typed.integer)
            case .double: input = ValueText.number(typed.number)
            case .string, .error: input = valueText
            case .isTrue: input = "TRUE"
            case .isFalse: input = "FALSE"
            case .empty, .date: input = ""
            }
        }
    }
}
