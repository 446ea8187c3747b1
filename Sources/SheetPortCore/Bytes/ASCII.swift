#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Number parsing straight from borrowed bytes, without building a `String` per value.
package enum ASCII {
    /// A decimal integer (optionally signed, surrounding spaces allowed).
    package static func parseInt(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        // Most are a few plain digits (style indexes, row numbers, shared-string indexes):
        // 18 digits cannot overflow, so no checks but the digit test.
        if let base = bytes.baseAddress, bytes.count <= 18 {
            var value = 0, index = 0
            while index < bytes.count {
                let digit = base[index] &- 0x30
                guard digit < 10 else { break }
                value = value &* 10 &+ Int(digit)
                index += 1
            }
            if index == bytes.count, index > 0 { return value }
        }
        var value = 0
        var negative = false
        var digits = 0
        var index = 0
        while index < bytes.count, bytes[index] == 0x20 { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        while index < bytes.count {
            let digit = bytes[index] &- 0x30
            guard digit < 10 else { break }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int(digit))
            if overflow1 || overflow2 { return nil }
            value = sum
            digits += 1
            index += 1
        }
        while index < bytes.count, bytes[index] == 0x20 { index += 1 }
        guard digits > 0, index == bytes.count else { return nil }
        return negative ? -value : value
    }

    /// A decimal floating-point number, correctly rounded, or nil.
    /// Accepts what Excel writes in `<v>`: optional sign, digits, fraction, exponent.
    package static func parseDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var start = 0, end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        let length = end - start
        guard length > 0, length < 512 else { return nil }
        if let fast = parseSimpleDecimal(bytes, start, end) { return fast }
        for index in start..<end {
            let byte = bytes[index]
            guard (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            else { return nil }
        }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer in
            for index in 0..<length { buffer[index] = CChar(bitPattern: bytes[start + index]) }
            buffer[length] = 0
            var endPointer: UnsafeMutablePointer<CChar>?
            let value = strtod(buffer.baseAddress!, &endPointer)
            guard endPointer == buffer.baseAddress! + length, value.isFinite else { return nil }
            return value
        }
    }

    /// Powers of ten that a double holds exactly.
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// Clinger's fast path: `[-]digits[.digits]` whose digits make an integer of at most 2^53
    /// with at most 22 after the point is an exact integer divided by an exact power of ten,
    /// which IEEE division rounds correctly. Anything else (exponents, longer mantissas)
    /// returns nil and goes to strtod.
    @inline(__always)
    private static func parseSimpleDecimal(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        var index = start
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        var seenDigit = false
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                if seenPoint { return nil }
                seenPoint = true
            } else {
                let digit = byte &- 0x30
                guard digit < 10 else { return nil }
                seenDigit = true
                if mantissa != 0 || digit != 0 { digits += 1 }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                if seenPoint { fractionDigits += 1 }
            }
            index += 1
        }
        // 19 significant digits cannot overflow; 2^53 and below are exact doubles.
        guard seenDigit, digits <= 19, mantissa <= 1 << 53, fractionDigits <= 22 else { return nil }
        let value = Double(mantissa) / exactPowersOfTen[fractionDigits]
        return negative ? -value : value
    }

    @inline(__always)
    package static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The value of a hexadecimal digit, either case.
    @inline(__always)
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    /// Whether a byte is `0`-`9`.
    @inline(__always)
    package static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
