#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore
/// The rules of `TypeInference` on a field's bytes, as `DelimitedReader` leaves them: the
/// common shapes (plain decimals, `TRUE`/`FALSE`, anything that cannot be a date or a time)
/// are decided without making a string; the rest takes the string rules, so both give the same
/// answer for every field.
extension TypeInference {
    /// The kind of a non-empty field, nil for text.
    static func kind(of field: UnsafeBufferPointer<UInt8>, rules: Rules) -> Kind? {
        guard let first = field.first else { return nil }
        if first | 0x20 == UInt8(ascii: "t") || first | 0x20 == UInt8(ascii: "f") {
            return boolean(field) == nil ? nil : .boolean
        }
        if isNumber(field, rules: rules) { return .number }
        if rules.dateFormat == nil, field.count == 10 {
            if isISODay(field) { return .date }
        } else if mayBeDate(field, rules: rules), date(string(field), rules: rules) != nil {
            return .date
        }
        if mayBeTime(field), time(string(field)) != nil { return .time }
        return nil
    }

    /// Whether `field` is a `kind` (`value(of:as:rules:)` is not nil), without making its value.
    @inline(__always)
    static func matches(_ field: UnsafeBufferPointer<UInt8>, _ kind: Kind, rules: Rules) -> Bool {
        switch kind {
        case .number: return isNumber(field, rules: rules)
        case .boolean: return boolean(field) != nil
        case .date where rules.dateFormat == nil && field.count == 10: return isISODay(field)
        default: return value(of: field, as: kind, rules: rules) != nil
        }
    }

    /// The value of `field` as `kind` and its number format, nil when it is not one.
    static func value(of field: UnsafeBufferPointer<UInt8>, as kind: Kind, rules: Rules) -> (value: CellValue, numberFormat: String?)? {
        switch kind {
        case .number: return number(field, rules: rules).map { (.number($0), nil) }
        case .boolean: return boolean(field).map { (.boolean($0), nil) }
        case .date:
            if rules.dateFormat == nil, field.count == 10 { return isoDay(field) }
            return mayBeDate(field, rules: rules) ? date(string(field), rules: rules) : nil
        case .time: return mayBeTime(field) ? time(string(field)) : nil
        }
    }

    /// `TRUE` or `FALSE`, in any case.
    static func boolean(_ field: UnsafeBufferPointer<UInt8>) -> Bool? {
        func matches(_ word: StaticString) -> Bool {
            guard field.count == word.utf8CodeUnitCount else { return false }
            for index in 0..<field.count where field[index] | 0x20 != word.utf8Start[index] { return false }
            return true
        }
        if matches("true") { return true }
        if matches("false") { return false }
        return nil
    }

    /// `number(_:rules:)` on bytes: a plain decimal (no exponent, no decimal comma) whose digits
    /// fit in 2^53 is computed exactly here (one correctly rounded division, as `Double(String)`
    /// rounds); any other field takes the string rules.
    static func number(_ field: UnsafeBufferPointer<UInt8>, rules: Rules) -> Double? {
        decimal(field, rules: rules, wantsValue: true)
    }

    /// Whether `number(_:rules:)` reads `field` as a number, without computing the value for
    /// the shapes whose value is always finite (no exponent, at most 40 bytes).
    static func isNumber(_ field: UnsafeBufferPointer<UInt8>, rules: Rules) -> Bool {
        decimal(field, rules: rules, wantsValue: false) != nil
    }

    /// `number(_:rules:)`, or with `wantsValue` false any finite stand-in for the value.
    @inline(__always)
    private static func decimal(_ field: UnsafeBufferPointer<UInt8>, rules: Rules, wantsValue: Bool) -> Double? {
        let count = field.count
        guard count > 0, count <= 40 else { return nil }
        if rules.decimalComma { return number(string(field), rules: rules) }
        var index = 0
        let negative = field[0] == UInt8(ascii: "-")
        if negative || field[0] == UInt8(ascii: "+") { index = 1 }
        let integerStart = index
        var mantissa: UInt64 = 0
        var digits = 0
        let base = field.baseAddress!
        while index + 8 <= count, let chunk = eightDigits(base + index) {
            mantissa = mantissa &* 100_000_000 &+ chunk
            index += 8
        }
        while index < count, isDigit(field[index]) {
            mantissa = mantissa &* 10 &+ UInt64(field[index] &- 0x30)
            index += 1
        }
        let integerDigits = index - integerStart
        var fractionDigits = 0
        if index < count, field[index] == UInt8(ascii: ".") {
            index += 1
            while index + 8 <= count, let chunk = eightDigits(base + index) {
                mantissa = mantissa &* 100_000_000 &+ chunk
                index += 8
                fractionDigits += 8
            }
            while index < count, isDigit(field[index]) {
                mantissa = mantissa &* 10 &+ UInt64(field[index] &- 0x30)
                index += 1
                fractionDigits += 1
            }
        }
        digits = integerDigits + fractionDigits
        guard digits > 0 else { return nil }
        if index < count {
            // An exponent, or not a number: the string rules decide.
            guard field[index] | 0x20 == UInt8(ascii: "e") else { return nil }
            return number(string(field), rules: rules)
        }
        if integerDigits > 1 && field[integerStart] == UInt8(ascii: "0") { return nil } // 007: an identifier
        if fractionDigits == 0 && integerDigits > 15 { return nil }                    // would lose digits
        guard wantsValue else { return 0 }
        if digits <= 19, mantissa > 1 << 53, fractionDigits > 0, fractionDigits < powersOfTen.count {
            // 16 to 19 digits (`0.2857142857142857`): the exact quotient, rounded once.
            let magnitude = quotient(mantissa, fractionDigits: fractionDigits)
            return negative ? -magnitude : magnitude
        }
        guard digits <= 19, mantissa <= 1 << 53, fractionDigits < powersOfTen.count else {
            // More digits than a double holds exactly (`0.2857142857142857`): the C library's
            // correctly rounded conversion, as `Double(String)` makes it.
            return cLibraryDouble(field)
        }
        let magnitude = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -magnitude : magnitude
    }

    /// `strtod` on a copy of `field` that ends in NUL. Not inlined: its stack buffer would give
    /// every call of the decimal scan a stack-protector check.
    @inline(never)
    private static func cLibraryDouble(_ field: UnsafeBufferPointer<UInt8>) -> Double {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: field.count + 1) { copy in
            for index in 0..<field.count { copy[index] = CChar(bitPattern: field[index]) }
            copy[field.count] = 0
            return strtod(copy.baseAddress!, nil)
        }
    }

    /// `mantissa` / 10^`fractionDigits` correctly rounded (to nearest, ties to even, as
    /// `strtod` and `Double(String)` round): `mantissa` shifted up to 128 bits is divided by
    /// 5^`fractionDigits` in integers, the quotient (63 bits or more) is rounded to 53 with the
    /// remainder as the sticky bit, and the power of two is put in the exponent. For a
    /// `mantissa` over 2^53 (so not 0) and `fractionDigits` 1 to 22 (5^22 < 2^52).
    static func quotient(_ mantissa: UInt64, fractionDigits: Int) -> Double {
        let shift = 64 + mantissa.leadingZeroBitCount
        // Two hardware divisions: the high word, then the remainder and a zero word.
        let divisor = powersOfFive[fractionDigits]
        let (high, carried) = (mantissa << (shift - 64)).quotientAndRemainder(dividingBy: divisor)
        let (low, remainder) = divisor.dividingFullWidth((high: carried, low: 0))
        let whole = UInt128(high) << 64 | UInt128(low)
        let bits = 128 - whole.leadingZeroBitCount
        let drop = bits - 53
        var significand = UInt64(truncatingIfNeeded: whole >> drop)
        let rest = whole & ((1 << drop) - 1)
        let half = UInt128(1) << (drop - 1)
        if rest > half || (rest == half && (remainder != 0 || significand & 1 == 1)) { significand += 1 }
        // value = whole / 2^(shift + fractionDigits), and whole ~ significand * 2^drop.
        return Double(sign: .plus, exponent: drop - shift - fractionDigits, significand: Double(significand))
    }

    /// 5^0 to 5^22. Literals, so that the optimizer lays the array out statically: a table
    /// computed by a closure is initialised lazily, a `swift_once` check a number field.
    private static let powersOfFive: [UInt64] = [
        1, 5, 25, 125, 625, 3_125, 15_625, 78_125, 390_625, 1_953_125, 9_765_625, 48_828_125,
        244_140_625, 1_220_703_125, 6_103_515_625, 30_517_578_125, 152_587_890_625, 762_939_453_125,
        3_814_697_265_625, 19_073_486_328_125, 95_367_431_640_625, 476_837_158_203_125, 2_384_185_791_015_625,
    ]

    /// 10^0 to 10^22, each exact in a double (literals, as `powersOfFive`).
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// `YYYY-MM-DD` from 1900 on, as `date(_:)` reads a 10-byte field, without making a string.
    static func isoDay(_ field: UnsafeBufferPointer<UInt8>) -> (value: CellValue, numberFormat: String?)? {
        guard field.count == 10, field[4] == UInt8(ascii: "-"), field[7] == UInt8(ascii: "-") else { return nil }
        func digits(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard isDigit(field[index]) else { return nil }
                value = value * 10 + Int(field[index] &- 0x30)
            }
            return value
        }
        guard let year = digits(0..<4), let month = digits(5..<7), let day = digits(8..<10),
              (1...12).contains(month), (1...31).contains(day), year >= 1900 else { return nil }
        let dateTime = ExcelDateTime(year: year, month: month, day: day)
        guard dayExists(year: year, month: month, day: day) else { return nil }
        return (.date(serial: dateTime.serial(in: .excel1900)), "yyyy-mm-dd")
    }

    /// Whether `field` is a `YYYY-MM-DD` day `isoDay(_:)` reads, without its serial.
    static func isISODay(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        guard field.count == 10, field[4] == UInt8(ascii: "-"), field[7] == UInt8(ascii: "-") else { return false }
        var value = 0
        for index in 0..<10 where index != 4 && index != 7 {
            guard isDigit(field[index]) else { return false }
            value = value &* 10 &+ Int(field[index] &- 0x30)
        }
        let (year, month, day) = (value / 10_000, value / 100 % 100, value % 100)
        guard (1...12).contains(month), (1...31).contains(day), year >= 1900 else { return false }
        return dayExists(year: year, month: month, day: day)
    }

    /// `ExcelDateTime.isValidDay` for a month 1 to 12 and a day 1 to 31, without the two day
    /// counts it makes (a third of typing a day): the Gregorian calendar's month lengths.
    @inline(__always)
    static func dayExists(year: Int, month: Int, day: Int) -> Bool {
        guard day > 28 else { return true }
        if month == 2 { return day == 29 && year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }
        return day <= (month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31)
    }

    /// Whether `field` has the shape of a date the rules read (a custom format: any field).
    private static func mayBeDate(_ field: UnsafeBufferPointer<UInt8>, rules: Rules) -> Bool {
        rules.dateFormat != nil || (field.count >= 10 && field[4] == UInt8(ascii: "-") && field[7] == UInt8(ascii: "-"))
    }

    /// Whether `field` starts with 1 to 6 digits and a colon, as every time does.
    private static func mayBeTime(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < field.count, index < 7, isDigit(field[index]) { index += 1 }
        return index >= 1 && index <= 6 && index < field.count && field[index] == UInt8(ascii: ":")
    }

    private static func string(_ field: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: field, as: UTF8.self)
    }
}

/// An ASCII digit (`ASCII.isDigit`, which another module cannot inline: a call a byte).
@inline(__always)
private func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

/// The value of the eight ASCII digits at `bytes`, nil when one is not a digit: one load, a
/// test of all eight and three multiplications (SWAR) instead of a step a digit. Wraps as the
/// digit-by-digit loop does; only values of at most 19 digits are used.
@inline(__always)
private func eightDigits(_ bytes: UnsafePointer<UInt8>) -> UInt64? {
    let word = UInt64(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self))
    // Each byte 0x30...0x39: its high nibble 3, and adding 6 leaves it 3.
    let high: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
    guard (word & high) | (((word &+ 0x0606_0606_0606_0606) & high) >> 4) == 0x3333_3333_3333_3333 else { return nil }
    // The first digit is the lowest byte: pairs, then fours, then all eight.
    var value = word &- 0x3030_3030_3030_3030
    value = (value &* 10) &+ (value >> 8)
    let pairs = value & 0x0000_00FF_0000_00FF, next = (value >> 16) & 0x0000_00FF_0000_00FF
    return ((pairs &* (100 &+ (1_000_000 << 32))) &+ (next &* (1 &+ (10_000 << 32)))) >> 32
}
