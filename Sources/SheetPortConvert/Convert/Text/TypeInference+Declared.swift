import SheetPortCore
import SheetPortCalc
/// The rules for fields of a column whose kind is declared (`--types`) rather than inferred,
/// the exponent shape that inference treats apart, and error values (`#N/A`), which are error
/// cells in any column and decide no column's kind.
extension TypeInference {
    /// The error code a field spells (`#N/A`, `#div/0!`: any case), nil for any other field.
    @inline(__always)
    static func errorCode(_ field: UnsafeBufferPointer<UInt8>) -> String? {
        guard field.first == UInt8(ascii: "#"), (4...14).contains(field.count) else { return nil }
        return ExcelError(literal: String(decoding: field, as: UTF8.self))?.rawValue
    }

    /// Whether a field `number(_:rules:)` reads is written with an exponent (`1E5`, `2.5e-3`).
    static func hasExponent(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        field.contains { $0 | 0x20 == UInt8(ascii: "e") }
    }

    /// The value of `field` in a column declared `kind`, nil when it is not one. A declared
    /// number also takes what inference keeps as text on purpose (`007`, integers of more
    /// than 15 digits, rounded as a double must); never `NaN`, `inf` or hexadecimal.
    static func declaredValue(of field: UnsafeBufferPointer<UInt8>, as kind: Kind,
                              rules: Rules) -> (value: CellValue, numberFormat: String?)? {
        if let typed = value(of: field, as: kind, rules: rules) { return typed }
        guard kind == .number, !rules.decimalComma, isPlainDecimal(field),
              let number = Double(String(decoding: field, as: UTF8.self)), number.isFinite else { return nil }
        return (.number(number), nil)
    }

    /// `[+-]digits[.digits][(e|E)[+-]digits]`, at most 400 bytes.
    private static func isPlainDecimal(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        guard field.count <= 400 else { return false }
        var index = 0
        func digits() -> Int {
            let start = index
            while index < field.count, field[index] &- 0x30 < 10 { index += 1 }
            return index - start
        }
        if index < field.count, field[index] == UInt8(ascii: "+") || field[index] == UInt8(ascii: "-") { index += 1 }
        guard digits() > 0 else { return false }
        if index < field.count, field[index] == UInt8(ascii: ".") {
            index += 1
            _ = digits()
        }
        if index < field.count, field[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < field.count, field[index] == UInt8(ascii: "+") || field[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == field.count
    }
}
