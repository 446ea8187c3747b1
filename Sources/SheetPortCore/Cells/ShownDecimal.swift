import Foundation

/// A finite number's magnitude as Excel shows it: at most 15 significant decimal digits (Excel
/// keeps and shows no more; the binary noise past them is never shown), as digits and a decimal
/// exponent. Scaling by powers of ten (`%`, the thousands-scaling commas) and rounding work on
/// the digits, so no step overflows or traps: 1e308 in `0%` is 309 digits and a `%`, not `inf%`.
struct ShownDecimal: Equatable {
    /// The significant digits (`0`-`9` as values), no leading or trailing zeros; empty for zero.
    private(set) var digits: [UInt8]
    /// The value is `0.d1d2d3... × 10^exponent`.
    private(set) var exponent: Int

    static let zero = ShownDecimal(digits: [], exponent: 0)

    private init(digits: [UInt8], exponent: Int) {
        self.digits = digits
        self.exponent = exponent
        normalize()
    }

    /// The magnitude of `value` (its sign dropped) to 15 significant digits; zero for a
    /// non-finite value (callers show those as errors before they get here).
    init(_ value: Double) {
        let magnitude = abs(value)
        guard magnitude.isFinite, magnitude != 0 else { self = .zero; return }
        // `%.14e`: one digit, a point, 14 digits, `e`, the exponent; rounded from the exact binary value.
        let text = Array(String(format: "%.14e", magnitude).utf8)
        guard let e = text.firstIndex(of: UInt8(ascii: "e")), let power = Int(String(decoding: text[(e + 1)...], as: UTF8.self)) else {
            self = .zero; return
        }
        let mantissa = text[..<e].filter { $0 != UInt8(ascii: ".") }.map { $0 &- UInt8(ascii: "0") }
        self.init(digits: mantissa, exponent: power + 1)
    }

    private mutating func normalize() {
        while digits.last == 0 { digits.removeLast() }
        var leading = 0
        while leading < digits.count, digits[leading] == 0 { leading += 1 }
        if leading > 0 { digits.removeFirst(leading); exponent -= leading }
        if digits.isEmpty { exponent = 0 }
    }

    var isZero: Bool { digits.isEmpty }

    /// The number times `10^power`.
    func scaled(byPowerOfTen power: Int) -> ShownDecimal {
        isZero ? self : ShownDecimal(digits: digits, exponent: exponent + power)
    }

    /// Rounded half away from zero to `decimals` places after the point (Excel rounds the shown
    /// decimal digits: 1.005 with two decimals is 1.01).
    func rounded(decimals: Int) -> ShownDecimal {
        let kept = exponent + decimals
        guard kept < digits.count else { return self }
        guard kept >= 0 else { return .zero }
        var result = Array(digits[..<kept])
        var carry = digits[kept] >= 5
        var index = result.count - 1
        while carry, index >= 0 {
            if result[index] == 9 { result[index] = 0; index -= 1 } else { result[index] += 1; carry = false }
        }
        if carry { return ShownDecimal(digits: [1] + result, exponent: exponent + 1) }
        return ShownDecimal(digits: result, exponent: exponent)
    }

    /// The whole part's digits (`""` below 1): at most `exponent` characters.
    var integerDigits: [Character] {
        guard exponent > 0 else { return [] }
        return (0..<exponent).map { $0 < digits.count ? Character(UnicodeScalar(digits[$0] + 0x30)) : "0" }
    }

    /// The first `count` digits after the point (zeros past the significant ones).
    func fractionDigits(_ count: Int) -> [Character] {
        (0..<max(0, count)).map { place in
            let index = exponent + place
            return index >= 0 && index < digits.count ? Character(UnicodeScalar(digits[index] + 0x30)) : "0"
        }
    }

    /// The whole part, without its fraction.
    var truncated: ShownDecimal {
        exponent >= digits.count ? self : exponent <= 0 ? .zero : ShownDecimal(digits: Array(digits[..<exponent]), exponent: exponent)
    }

    /// The whole number it rounds to, as decimal text (`"0"` for zero).
    var wholeText: String {
        let whole = rounded(decimals: 0).integerDigits
        return whole.isEmpty ? "0" : String(whole)
    }

    /// The value as a double (infinite past the double's range).
    var doubleValue: Double {
        guard !isZero else { return 0 }
        return Double("0." + String(digits.map { Character(UnicodeScalar($0 + 0x30)) }) + "e\(exponent)") ?? 0
    }
}
