#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A strict cursor over one JSON text (RFC 8259, UTF-8), the one reader of the flat objects
/// the project writes itself: cell JSONL lines (`CellObjectParser`), the server's stored cell
/// lines and its history entries. Each reader walks the members it wants and skips the rest;
/// anything it cannot read goes to the general Foundation parser.
///
/// Every value is checked, skipped ones included. Its choices, each the one `JSONSerialization`
/// makes unless said otherwise:
/// - a lone surrogate in a `\u` escape is refused (never replaced);
/// - numbers follow the JSON grammar (no `NaN`, `+1`, `01`, `1.` or `.5`) and are read
///   correctly rounded (`JSONSerialization` can be one unit in the last place off on a long
///   one, and reads `-0` as 0, this reads -0.0); one beyond the range of a double (`1e400`) is refused;
/// - nesting deeper than `maxDepth` is refused, and skipping nested values uses no recursion,
///   so no input can exhaust the stack;
/// - unlike `JSONSerialization`: a trailing comma (`{"a":1,}`) is refused, and the text is
///   always UTF-8 (it never guesses UTF-16 or UTF-32 from zero bytes).
package struct JSONScanner {
    /// The deepest nesting accepted, the outer object being level 1 (`JSONSerialization`'s limit).
    package static let maxDepth = 512

    /// The text is not valid JSON where the scanner stopped.
    package struct Malformed: Error {
        /// The byte offset where scanning stopped.
        package var offset: Int
    }

    package let bytes: UnsafeBufferPointer<UInt8>
    package var index = 0

    package init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Whether every byte was read.
    package var isAtEnd: Bool { index == bytes.count }

    // MARK: Structure

    /// Moves past a UTF-8 byte order mark when the text opens with one.
    package mutating func skipByteOrderMark() {
        if index == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    /// The object at the cursor (spaces before it skipped), up to its closing brace: `member`
    /// reads or skips each value, the cursor on its first byte.
    package mutating func object(_ member: (inout JSONScanner, JSONString) throws(Malformed) -> Void) throws(Malformed) {
        try elements(open: UInt8(ascii: "{"), close: UInt8(ascii: "}")) { (scanner: inout JSONScanner) throws(Malformed) in
            let key = try scanner.string()
            scanner.skipSpace()
            try scanner.expect(UInt8(ascii: ":"))
            scanner.skipSpace()
            try member(&scanner, key)
        }
    }

    /// The array at the cursor (spaces before it skipped), up to its closing bracket: `element`
    /// reads or skips each element, the cursor on its first byte.
    package mutating func array(_ element: (inout JSONScanner) throws(Malformed) -> Void) throws(Malformed) {
        try elements(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), element)
    }

    /// The comma-separated elements between `open` and `close` at the cursor, each read by `element`.
    private mutating func elements(open: UInt8, close: UInt8, _ element: (inout JSONScanner) throws(Malformed) -> Void) throws(Malformed) {
        skipSpace()
        try expect(open)
        skipSpace()
        if peek() == close { index += 1; return }
        while true {
            skipSpace()
            try element(&self)
            skipSpace()
            guard let byte = peek() else { throw failure }
            index += 1
            if byte == close { return }
            guard byte == UInt8(ascii: ",") else { throw failure }
        }
    }

    /// `true`, `false` or `null` (nil) at the cursor.
    package mutating func literal() throws(Malformed) -> Bool? {
        if matches("true") { index += 4; return true }
        if matches("false") { index += 5; return false }
        if matches("null") { index += 4; return nil }
        throw failure
    }

    /// Checks and skips any value whose first byte is at the cursor, `level` being the level
    /// it would open. Nested containers are tracked on a stack of their kinds, not by recursion.
    package mutating func skipValue(level: Int) throws(Malformed) {
        var open: [Bool] = [] // true for an object
        while true {
            guard let byte = peek() else { throw failure }
            var opened = false
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                guard level + open.count <= Self.maxDepth else { throw failure }
                let isObject = byte == UInt8(ascii: "{")
                index += 1
                skipSpace()
                if peek() == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                } else {
                    open.append(isObject)
                    opened = true
                    if isObject { try memberKey() }
                }
            } else if byte == UInt8(ascii: "\"") {
                _ = try string()
            } else if byte == UInt8(ascii: "-") || ASCII.isDigit(byte) {
                let start = index
                let isIntegral = try scanNumber()
                // Only an exponent or a long integer part can pass the range of a double.
                if !isIntegral || index - start > 300 { _ = try double(start, index) }
            } else {
                _ = try literal()
            }
            if opened { continue }
            // After a value: close the containers it ends, or go on to the next element.
            while let isObject = open.last {
                skipSpace()
                guard let next = peek() else { throw failure }
                index += 1
                if next == UInt8(ascii: ",") {
                    skipSpace()
                    if isObject { try memberKey() }
                    break
                }
                guard next == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { throw failure }
                open.removeLast()
            }
            if open.isEmpty { return }
        }
    }

    /// A skipped object's `"key":`, leaving the cursor on its value.
    private mutating func memberKey() throws(Malformed) {
        guard peek() == UInt8(ascii: "\"") else { throw failure }
        _ = try string()
        skipSpace()
        try expect(UInt8(ascii: ":"))
        skipSpace()
    }

    // MARK: Strings

    /// Checks the string at the cursor (control characters, UTF-8, escapes, surrogate pairs)
    /// and moves past its closing quote; the contents are decoded only when wanted.
    package mutating func string() throws(Malformed) -> JSONString {
        guard peek() == UInt8(ascii: "\"") else { throw failure }
        index += 1
        let start = index
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return JSONString(start: start, end: index - 1, escaped: escaped)
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
                try scanEscape()
            } else if byte < 0x20 {
                throw failure
            } else if byte < 0x80 {
                index += 1
            } else {
                try scanUTF8()
            }
        }
        throw failure
    }

    /// One escape, the cursor on its backslash.
    private mutating func scanEscape() throws(Malformed) {
        guard index + 1 < bytes.count else { throw failure }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 2
        case UInt8(ascii: "u"):
            guard let unit = Self.hexUnit(bytes, at: index + 2) else { throw failure }
            index += 6
            if unit >= 0xDC00 && unit <= 0xDFFF { throw failure } // a low surrogate first
            if unit >= 0xD800 && unit <= 0xDBFF {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                      let low = Self.hexUnit(bytes, at: index + 2), low >= 0xDC00 && low <= 0xDFFF else { throw failure }
                index += 6
            }
        default:
            throw failure
        }
    }

    /// One multi-byte UTF-8 sequence, the cursor on its lead byte: shortest form, no
    /// surrogates, nothing past U+10FFFF.
    private mutating func scanUTF8() throws(Malformed) {
        let lead = bytes[index]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF // the second byte's range
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xED: length = 3; high = 0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; low = 0x90
        case 0xF4: length = 4; high = 0x8F
        case 0xF1...0xF3: length = 4
        default: throw failure
        }
        guard index + length <= bytes.count, bytes[index + 1] >= low, bytes[index + 1] <= high else { throw failure }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { throw failure }
        index += length
    }

    /// The four hexadecimal digits at `offset`, or nil.
    static func hexUnit(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        var unit: UInt32 = 0
        for index in offset..<(offset + 4) {
            guard let digit = ASCII.hexValue(bytes[index]) else { return nil }
            unit = unit << 4 | UInt32(digit)
        }
        return unit
    }

    // MARK: Numbers

    /// The number at the cursor, checked against the JSON grammar, as the nearest double;
    /// `isIntegral` when it is spelled without a fraction or an exponent. Refused beyond a double's range.
    package mutating func number() throws(Malformed) -> (value: Double, isIntegral: Bool) {
        let start = index
        let isIntegral = try scanNumber()
        return (try double(start, index), isIntegral)
    }

    /// Checks the number at the cursor against the JSON grammar and moves past it; true when
    /// it has neither a fraction nor an exponent.
    private mutating func scanNumber() throws(Malformed) -> Bool {
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), ASCII.isDigit(first) else { throw failure }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        var isIntegral = true
        if peek() == UInt8(ascii: ".") {
            index += 1
            isIntegral = false
            guard let digit = peek(), ASCII.isDigit(digit) else { throw failure }
            skipDigits()
        }
        guard peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") else { return isIntegral }
        index += 1
        if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
        guard let digit = peek(), ASCII.isDigit(digit) else { throw failure }
        skipDigits()
        return false
    }

    /// The checked number text `start..<end` as the nearest double; refused when it is beyond
    /// a double's range.
    private func double(_ start: Int, _ end: Int) throws(Malformed) -> Double {
        let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if let value = ASCII.parseDouble(text) { return value }
        // ASCII.parseDouble stops at 512 bytes; strtod rounds correctly at any length.
        let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { buffer in
            for offset in 0..<text.count { buffer[offset] = CChar(bitPattern: text[offset]) }
            buffer[text.count] = 0
            return strtod(buffer.baseAddress!, nil)
        }
        guard value.isFinite else { throw Malformed(offset: start) }
        return value
    }

    private mutating func skipDigits() {
        while index < bytes.count, ASCII.isDigit(bytes[index]) { index += 1 }
    }

    // MARK: Bytes

    /// The byte at the cursor, nil at the end.
    @inline(__always)
    package func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    @inline(__always)
    package mutating func skipSpace() {
        while index < bytes.count, ASCII.isSpace(bytes[index]) { index += 1 }
    }

    /// The end of a whole JSON text: nothing but spaces may follow the value just read.
    package mutating func expectEnd() throws(Malformed) {
        skipSpace()
        guard isAtEnd else { throw failure }
    }

    package mutating func expect(_ byte: UInt8) throws(Malformed) {
        guard peek() == byte else { throw failure }
        index += 1
    }

    /// Whether the bytes at the cursor are `word`.
    private func matches(_ word: StaticString) -> Bool {
        guard index + word.utf8CodeUnitCount <= bytes.count else { return false }
        return memcmp(bytes.baseAddress! + index, word.utf8Start, word.utf8CodeUnitCount) == 0
    }

    /// The error at the cursor.
    package var failure: Malformed { Malformed(offset: index) }
}

/// A checked string of a `JSONScanner`'s text, its contents between `start` and `end` (quotes excluded).
package struct JSONString {
    package let start: Int
    package let end: Int
    /// Whether it holds escapes, so decoding it is more than copying it.
    package let escaped: Bool

    /// Whether the string is `name` (an escaped key such as `"\u0072ef"` is decoded first).
    package func equals(_ name: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if escaped {
            return text(in: bytes).utf8.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        }
        return end - start == name.utf8CodeUnitCount
            && memcmp(bytes.baseAddress! + start, name.utf8Start, name.utf8CodeUnitCount) == 0
    }

    /// The decoded string (it was checked by `JSONScanner.string`, so decoding cannot fail).
    package func text(in bytes: UnsafeBufferPointer<UInt8>) -> String {
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
        guard escaped else { return String(decoding: raw, as: UTF8.self) }
        // Every escape is at least as long as the UTF-8 it stands for.
        return String(unsafeUninitializedCapacity: raw.count) { output in
            var read = 0, written = 0
            while read < raw.count {
                let byte = raw[read]
                guard byte == UInt8(ascii: "\\") else {
                    output[written] = byte
                    written += 1
                    read += 1
                    continue
                }
                let kind = raw[read + 1]
                read += 2
                switch kind {
                case UInt8(ascii: "b"): output[written] = 0x08
                case UInt8(ascii: "f"): output[written] = 0x0C
                case UInt8(ascii: "n"): output[written] = 0x0A
                case UInt8(ascii: "r"): output[written] = 0x0D
                case UInt8(ascii: "t"): output[written] = 0x09
                case UInt8(ascii: "u"):
                    var scalar = JSONScanner.hexUnit(raw, at: read)!
                    read += 4
                    if scalar >= 0xD800 && scalar <= 0xDBFF {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (JSONScanner.hexUnit(raw, at: read + 2)! - 0xDC00)
                        read += 6
                    }
                    for unit in Unicode.Scalar(scalar)!.utf8 {
                        output[written] = unit
                        written += 1
                    }
                    continue
                default: output[written] = kind // `"`, `\` or `/`
                }
                written += 1
            }
            return written
        }
    }
}
