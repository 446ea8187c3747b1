import SheetPortCore

/// A number's display fitted to a column `width` characters wide, as Excel draws a number that does
/// not fit: a `General` number is rounded to the digits that fit (`0.689655172413793` in 8
/// characters is `0.689655`), then shown in scientific form (`1.23E+15`); a number in any other
/// format (a date, a currency, a percent), or one that fits no way, fills the column with `#`.
/// Text is never changed here: it is cut or overflows as the grid draws it.
public enum ColumnFit {
    /// The text to draw for a number whose display is `display` in `width` characters.
    public static func number(_ display: String, width: Int) -> String {
        guard width > 0 else { return "" }
        guard display.count > width else { return display }
        let hashes = String(repeating: "#", count: width)
        guard isGeneral(display), let value = Double(display), value.isFinite else { return hashes }
        return NumberFormatRenderer.general(value, fittingWidth: width) ?? hashes
    }

    /// Whether `display` is a number as `General` writes it: digits, a point, an exponent.
    static func isGeneral(_ display: String) -> Bool {
        var sawDigit = false
        for (index, c) in display.utf8.enumerated() {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
            case UInt8(ascii: "."), UInt8(ascii: "E"), UInt8(ascii: "+"): continue
            case UInt8(ascii: "-") where index == 0 || display.utf8.dropFirst(index - 1).first == UInt8(ascii: "E"): continue
            default: return false
            }
        }
        return sawDigit
    }
}
