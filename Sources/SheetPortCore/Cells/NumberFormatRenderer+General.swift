extension NumberFormatRenderer {
    /// Excel's General: at most 11 characters (the sign aside), scientific past them or where
    /// scientific keeps more significant digits (-2.5E-09, not -0.000000003).
    public static func general(_ number: Double) -> String {
        guard number != 0 else { return "0" }
        guard number.isFinite else { return "#NUM!" }
        // 11 characters always hold the scientific form (`1.2E+308`).
        return (number < 0 ? "-" : "") + (magnitude(ShownDecimal(number), width: 11) ?? "#NUM!")
    }

    /// Excel's General in a column `width` characters wide, the sign counted: the number rounded
    /// to the digits that fit (`0.689655172413793` in 8 characters is `0.689655`), scientific
    /// where the whole part does not fit or scientific keeps more significant digits (`1.2E+08`);
    /// `nil` when it fits no way (Excel fills the column with `#`).
    package static func general(_ number: Double, fittingWidth width: Int) -> String? {
        guard number.isFinite else { return nil }
        guard number != 0 else { return width > 0 ? "0" : nil }
        let sign = number < 0 ? "-" : ""
        return magnitude(ShownDecimal(number), width: width - sign.count).map { sign + $0 }
    }

    /// A nonzero magnitude as General shows it in `width` characters.
    private static func magnitude(_ value: ShownDecimal, width: Int) -> String? {
        guard width > 0 else { return nil }
        // Below 10^-(width-2) decimals would show only the last place's rounding: always scientific.
        let decimal = value.exponent > -(width - 2) ? decimalText(value, width: width) : nil
        let scientific = scientificText(value, width: width)
        guard let decimal else { return scientific }
        guard let scientific, significantDigits(scientific) > significantDigits(decimal) else { return decimal }
        return scientific
    }

    /// The most decimals that fit in `width`, trailing zeros dropped; `nil` when the whole part
    /// does not fit or the number rounds to zero.
    private static func decimalText(_ value: ShownDecimal, width: Int) -> String? {
        var decimals = max(0, width - max(value.exponent, 1) - 1)
        while decimals >= 0 {
            let rounded = value.rounded(decimals: decimals)
            guard !rounded.isZero else { return nil }
            let whole = rounded.integerDigits
            var text = whole.isEmpty ? "0" : String(whole)
            let kept = rounded.fractionDigits(decimals).reversed().drop { $0 == "0" }.reversed()
            if !kept.isEmpty { text += "." + String(kept) }
            if text.count <= width { return text }
            decimals -= 1
        }
        return nil
    }

    /// `1.23457E+12`: the most mantissa decimals that fit in `width`, trailing zeros dropped, and
    /// at least two exponent digits; `nil` when not even `1E+12` fits.
    private static func scientificText(_ value: ShownDecimal, width: Int) -> String? {
        var decimals = max(0, width - 6)
        while decimals >= 0 {
            var exponent = value.exponent - 1
            var mantissa = value.scaled(byPowerOfTen: -exponent).rounded(decimals: decimals)
            if mantissa.exponent > 1 { mantissa = mantissa.scaled(byPowerOfTen: -1); exponent += 1 }
            let kept = mantissa.fractionDigits(decimals).reversed().drop { $0 == "0" }.reversed()
            let digits = String(abs(exponent))
            let text = String(mantissa.integerDigits) + (kept.isEmpty ? "" : "." + String(kept))
                + (exponent < 0 ? "E-" : "E+") + (digits.count < 2 ? "0" + digits : digits)
            if text.count <= width { return text }
            decimals -= 1
        }
        return nil
    }

    /// The digits of a General text from its first nonzero one, the exponent's aside.
    private static func significantDigits(_ text: some StringProtocol) -> Int {
        let mantissa = text.prefix { $0 != "E" }
        return mantissa.drop { $0 == "0" || $0 == "." }.filter(\.isNumber).count
    }
}
