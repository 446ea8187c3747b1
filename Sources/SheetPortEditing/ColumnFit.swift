import Foundation

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
        let sign = value < 0 ? 1 : 0
        let integerDigits = String(format: "%.0f", Swift.abs(value)).count
        if integerDigits + sign <= width {
            // The most decimals that fit, trailing zeros dropped as General drops them.
            var decimals = max(0, width - integerDigits - sign - 1)
            while decimals >= 0 {
                let text = trimmed(String(format: "%.\(decimals)f", rounded(value, decimals: decimals)))
                if text.count <= width, text != "-0", !(Double(text) == 0 && value != 0) { return text }
                decimals -= 1
            }
        }
        // Scientific, as General writes it: a mantissa, `E`, a sign and at least two exponent digits.
        guard value != 0 else { return "0" }
        var decimals = max(0, width - sign - 6)
        while decimals >= 0 {
            if let text = scientific(value, decimals: decimals), text.count <= width { return text }
            decimals -= 1
        }
        return hashes
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

    /// `1.50` -> `1.5`, `2.00` -> `2`.
    private static func trimmed(_ text: String) -> String {
        guard text.contains(".") else { return text }
        var t = Substring(text)
        while t.last == "0" { t = t.dropLast() }
        if t.last == "." { t = t.dropLast() }
        return String(t)
    }

    /// `value` rounded half away from zero at `decimals`, as Excel rounds what it shows (printf
    /// rounds the binary value: -0.125 would be -0.12), read first at 15 significant digits.
    private static func rounded(_ value: Double, decimals: Int) -> Double {
        let x = Double(String(format: "%.15g", value)) ?? value
        let scale = pow(10, Double(min(decimals, 300)))
        let r = (x * scale).rounded(.toNearestOrAwayFromZero) / scale
        return r.isFinite ? r : x
    }

    /// `1.23E+15`, the mantissa's trailing zeros dropped.
    private static func scientific(_ value: Double, decimals: Int) -> String? {
        var exponent = Int(floor(log10(Swift.abs(value))))
        // Subnormals: 10^-324 is 0 in a Double, so scale in two steps.
        let scaled = value / pow(10, Double(exponent / 2)) / pow(10, Double(exponent - exponent / 2))
        guard scaled.isFinite, var mantissa = Double(String(format: "%.14f", scaled)) else { return nil }
        mantissa = rounded(mantissa, decimals: decimals)
        if Swift.abs(mantissa) >= 10 { mantissa /= 10; exponent += 1 }
        let digits = String(Swift.abs(exponent))
        return trimmed(String(format: "%.\(decimals)f", mantissa)) + (exponent < 0 ? "E-" : "E+") + (digits.count < 2 ? "0" + digits : digits)
    }
}
