#if canImport(Glibc)
import Glibc
#endif

/// Number parsing straight from borrowed bytes, without building a `String` per value.
enum ASCII {
    /// A decimal integer (optionally signed, surrounding spaces allowed).
    static func parseInt(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
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

    /// A decimal floating-point number, correctly rounded (strtod), or nil.
    /// Accepts what Excel writes in `<v>`: optional sign, digits, fraction, exponent.
    static func parseDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var start = 0, end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        let length = end - start
        guard length > 0, length < 512 else { return nil }
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

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
