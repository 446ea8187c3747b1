/// Numbers appended to a `ByteSink` (a `ByteOutput`'s block, the import's stored cells) in the
/// text `JSON.numberText` (and `ValueText.number`) gives, without a `String`.
extension ByteSink {
    /// Appends the decimal digits of `value`, with `-` when negative (as `String(value)`).
    package func putDecimal(_ value: Int64) {
        if value < 0 { put(UInt8(ascii: "-")) }
        putDigits(value.magnitude)
    }

    /// Appends `value` with zeros before it up to `width` characters, as the `pad` of
    /// `ExcelDateTime` and `DateFormat` (which never see a negative: it would read `00-5`).
    @inline(__always)
    package func putPadded(_ value: Int, width: Int) {
        if width == 2, value >= 0, value < 100 { return putTwoDigits(value) } // months, days, hours, ...
        if width == 4, value >= 0, value < 10_000 { putTwoDigits(value / 100); return putTwoDigits(value % 100) } // years
        putPaddedDigits(value, width: width)
    }

    private func putPaddedDigits(_ value: Int, width: Int) {
        let magnitude = value.magnitude
        let length = Self.digitCount(UInt64(magnitude)) + (value < 0 ? 1 : 0)
        if width > length { room(width - length).update(repeating: UInt8(ascii: "0"), count: width - length); advance(by: width - length) }
        if value < 0 { put(UInt8(ascii: "-")) }
        putDigits(UInt64(magnitude))
    }

    /// Appends a number as `JSON.numberText` spells it: integral values under 2^53 as integers,
    /// others in Swift's shortest round-trip form (`Double.description`).
    package func putNumber(_ value: Double) {
        // Integral and under 2^53: the conversion to Int64 and back is exact.
        if value.magnitude < 9_007_199_254_740_992, Double(Int64(value)) == value {
            return putDecimal(Int64(value))
        }
        if putExactDecimal(value) || putShortest(value) { return }
        put(value.description)
    }

    /// Appends a non-integral double from 2^-13 up to 2^52 whose exact value is a short
    /// decimal (`12.5`, `0.375`), as `Double.description` writes it; false, with nothing
    /// appended, for any other value. The cheap case of `putShortest`.
    ///
    /// Such a value is `N / 2^f` (N odd), exactly `N * 5^f / 10^f`: f decimals, the last not 0.
    /// Any decimal with fewer significant digits is at least 10^-f away from it; when that is
    /// more than half an ulp, no shorter decimal reads back as the value, and of those as
    /// short the exact one is the closest: Swift's choice.
    private func putExactDecimal(_ value: Double) -> Bool {
        let bits = value.bitPattern
        let biasedExponent = Int(truncatingIfNeeded: (bits >> 52) & 0x7FF)
        guard biasedExponent >= 1023 - 13, biasedExponent < 1023 + 52 else { return false }
        let significand = (bits & (1 << 52 - 1)) | (1 << 52)
        let exponent = biasedExponent - 1075 // value = significand * 2^exponent; the ulp is 2^exponent
        let trailingZeros = significand.trailingZeroBitCount
        let decimals = -(exponent + trailingZeros)
        // Integral values are not for this path; 10^19 is the largest power of ten in a UInt64.
        guard decimals > 0, decimals <= 19 else { return false }
        let powerOfTen = Self.powersOfTen[decimals]
        // Half an ulp below 10^-f: 10^f < 2^(1 - exponent), the shift at most 66.
        let shift = 1 - exponent
        guard shift >= 64 || powerOfTen < UInt64(1) &<< UInt64(shift) else { return false }
        // value * 10^f < 2^(53 + exponent) * 2^(1 - exponent) = 2^54: no overflow.
        let scaled = (significand &>> UInt64(trailingZeros)) &* Self.powersOfFive[decimals]
        // Its last decimal is not 0 and it is no integer: written whole.
        return putDecimals(scaled, decimals: decimals, negative: value < 0)
    }

    /// Appends a non-integral double from 2^-13 up to 2^52 as `Double.description` writes it:
    /// the fewest significant digits that read back as the value, the closest such when
    /// there are several (ties to an even last digit), with no exponent (Swift writes one
    /// below 10^-4 only); false, with nothing appended, for any other value.
    ///
    /// The value is `significand / 2^shift`; candidates with k decimals are integers d over
    /// 10^k, and scaled by `2^shift * 10^k` everything is an integer: the value is
    /// `significand * 10^k`, a candidate `d * 2^shift`, half an ulp `10^k / 2`. A candidate
    /// reads back as the value when it is less than half an ulp away (or exactly half, the
    /// significand even: ties go to even). Fifteen significant digits are tried first: the
    /// ulp is under a fifth of their spacing, so at most one of them is near enough, and
    /// it is the rounded value; a shorter form is that one with zeros dropped. Then 16 and
    /// 17, where the rounded value is the closest (17 always reads back).
    private func putShortest(_ value: Double) -> Bool {
        let bits = value.bitPattern
        let biasedExponent = Int(truncatingIfNeeded: (bits >> 52) & 0x7FF)
        guard biasedExponent >= 1023 - 13, biasedExponent < 1023 + 52 else { return false }
        let fraction = bits & (1 << 52 - 1)
        // A power of two has a narrower interval below it than above: left to `description`.
        guard fraction != 0 else { return false }
        let significand = fraction | (1 << 52)
        let shift = 1075 - biasedExponent // 1...65
        let whole = shift < 53 ? significand >> UInt64(shift) : 0
        // The decimal exponent of the leading digit: 10^lead ≤ |value| < 10^(lead + 1).
        var lead = Self.digitCount(whole) - 1
        if whole == 0 {
            lead = -1
            let one = UInt128(1) << shift
            while UInt128(significand) &* Self.powerOfTen(-lead) < one { lead -= 1 } // ends by -4: 2^-13 > 10^-4
        }
        let tiesIncluded = significand & 1 == 0
        for decimals in max(14 - lead, 1)...(16 - lead) {
            let scale = Self.powerOfTen(decimals)
            // No step overflows: scaled < 2^53 * 10^20 < 2^120, and the candidate is within 2^shift of it.
            let scaled = UInt128(significand) &* scale
            var digits = scaled &>> shift
            let remainder = scaled &- digits &<< shift
            let half = UInt128(1) &<< (shift - 1)
            if remainder > half || (remainder == half && digits & 1 == 1) { digits &+= 1 }
            let candidate = digits &<< shift
            let twiceDistance = (candidate > scaled ? candidate &- scaled : scaled &- candidate) &<< 1
            guard twiceDistance < scale || (tiesIncluded && twiceDistance == scale) else { continue }
            return putDecimals(UInt64(truncatingIfNeeded: digits), decimals: decimals, negative: value < 0)
        }
        return false
    }

    /// Appends `digits / 10^decimals` with its trailing zeros dropped; false, with nothing
    /// appended, when that is an integer (not a form `putShortest` writes).
    private func putDecimals(_ digits: UInt64, decimals: Int, negative: Bool) -> Bool {
        var whole: UInt64 = 0
        var fraction = digits
        if decimals < 20 {
            let divisor = UInt64(truncatingIfNeeded: Self.powerOfTen(decimals))
            (whole, fraction) = digits.quotientAndRemainder(dividingBy: divisor)
        }
        guard fraction != 0 else { return false }
        var decimals = decimals
        // Up to 19 trailing zeros (2.5 found with 15 digits): dropped eight, four, two, one at a time.
        while fraction % 100_000_000 == 0 { fraction /= 100_000_000; decimals -= 8 }
        if fraction % 10_000 == 0 { fraction /= 10_000; decimals -= 4 }
        if fraction % 100 == 0 { fraction /= 100; decimals -= 2 }
        if fraction % 10 == 0 { fraction /= 10; decimals -= 1 }
        if negative { put(UInt8(ascii: "-")) }
        putDigits(whole)
        put(UInt8(ascii: "."))
        let zeros = decimals - Self.digitCount(fraction)
        if zeros > 0 { room(zeros).update(repeating: UInt8(ascii: "0"), count: zeros); advance(by: zeros) }
        putDigits(fraction)
        return true
    }

    /// 10^exponent, for 0 through 20.
    @inline(__always)
    private static func powerOfTen(_ exponent: Int) -> UInt128 {
        exponent < 20 ? UInt128(powersOfTen[exponent]) : UInt128(powersOfTen[19]) &* 10
    }

    /// Appends `value` (0 to 99) as two digits.
    @inline(__always)
    private func putTwoDigits(_ value: Int) {
        let start = room(2)
        start[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
        start[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
        advance(by: 2)
    }

    /// Appends the decimal digits of `value`, two at a time from the right.
    @inline(__always)
    private func putDigits(_ value: UInt64) {
        let digits = Self.digitCount(value)
        let start = room(digits)
        // "00" "01" ... "99": a literal, so no lazily built table.
        let pairs: StaticString = """
            00010203040506070809101112131415161718192021222324252627282930313233343536373839\
            40414243444546474849505152535455565758596061626364656667686970717273747576777879\
            8081828384858687888990919293949596979899
            """
        let pair = pairs.utf8Start
        var rest = value
        var index = digits
        while rest >= 10 {
            let low = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            index &-= 2 // `rest` had `index` digits, at least 2
            start[index] = pair[low]
            start[index &+ 1] = pair[low &+ 1]
        }
        if index > 0 { start[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest) }
        advance(by: digits)
    }

    /// The number of decimal digits of `value` (1 for 0).
    @inline(__always)
    static func digitCount(_ value: UInt64) -> Int {
        var digits = 1
        var rest = value
        while rest >= 10_000 { rest /= 10_000; digits &+= 4 }
        if rest >= 100 { rest /= 100; digits &+= 2 }
        if rest >= 10 { digits &+= 1 }
        return digits
    }

    // Literals, so the tables are built at compile time rather than on first use.
    private static let powersOfTen: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
        100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
        10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ]
    private static let powersOfFive: [UInt64] = [
        1, 5, 25, 125, 625, 3_125, 15_625, 78_125, 390_625, 1_953_125, 9_765_625, 48_828_125, 244_140_625,
        1_220_703_125, 6_103_515_625, 30_517_578_125, 152_587_890_625, 762_939_453_125, 3_814_697_265_625,
        19_073_486_328_125,
    ]
}
