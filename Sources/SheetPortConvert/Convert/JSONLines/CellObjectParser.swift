#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore

/// A strict JSON parser made for one cell JSONL line (RFC 8259, UTF-8): it reads the object
/// straight into a `CellObject`, keeping only the members the reader uses, without building a
/// dictionary of `Any` per cell as `JSONSerialization` did.
///
/// Every member must still be valid JSON, skipped ones included. Its choices, each the one
/// `JSONSerialization` made unless said otherwise:
/// - a key given twice keeps its last value;
/// - a lone surrogate in a `\u` escape is refused (never replaced);
/// - numbers follow the JSON grammar (no `NaN`, `+1`, `01`, `1.` or `.5`) and are read
///   correctly rounded; one beyond the range of a double (`1e400`) is refused;
/// - nesting deeper than `maxDepth` is refused, and skipping nested values uses no recursion,
///   so no input can exhaust the stack;
/// - a UTF-8 byte order mark may open the line;
/// - unlike `JSONSerialization`: a trailing comma (`{"a":1,}`) is refused, and the text is
///   always UTF-8 (it never guesses UTF-16 or UTF-32 from zero bytes).
package struct CellObjectParser {
    /// The deepest nesting accepted, the line's object being level 1 (`JSONSerialization`'s limit).
    static let maxDepth = 512

    /// The line is not one valid JSON object.
    struct Malformed: Error {
        /// The byte offset in the line where parsing stopped.
        var offset: Int
    }

    /// The cell members of `line`, or nil when it is not exactly one valid JSON object.
    package static func parse(_ line: UnsafeBufferPointer<UInt8>) -> CellObject? {
        var scanner = Scanner(bytes: line)
        return try? scanner.lineObject()
    }
}

/// The parser's cursor over one line.
private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    // MARK: Structure

    /// The whole line: an optional byte order mark, spaces, one object, spaces.
    mutating func lineObject() throws(CellObjectParser.Malformed) -> CellObject {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipSpace()
        var object = CellObject()
        try expect(UInt8(ascii: "{"))
        try members(closing: UInt8(ascii: "}")) { (scanner: inout Scanner, key: Key) throws(CellObjectParser.Malformed) in
            switch key.top(in: scanner.bytes) {
            case .ref: object.ref = try scanner.value(level: 2)
            case .type: object.type = try scanner.value(level: 2)
            case .value: object.value = try scanner.value(level: 2)
            case .formula: object.formula = try scanner.value(level: 2)
            case .arrayRange: object.arrayRange = try scanner.value(level: 2)
            case .spill: object.spill = try scanner.value(level: 2)
            case .style:
                // The last `style` replaces the whole object, as a dictionary's last key does.
                object.styleMembers = CellObject.StyleMembers()
                if scanner.peek() == UInt8(ascii: "{") {
                    object.style = .object
                    object.styleMembers = try scanner.styleObject()
                } else {
                    object.style = try scanner.value(level: 2)
                }
            case nil: try scanner.skipValue(level: 2)
            }
        }
        skipSpace()
        guard index == bytes.count else { throw failure }
        return object
    }

    /// A `style` object (level 2) with its members.
    private mutating func styleObject() throws(CellObjectParser.Malformed) -> CellObject.StyleMembers {
        var style = CellObject.StyleMembers()
        try expect(UInt8(ascii: "{"))
        try members(closing: UInt8(ascii: "}")) { (scanner: inout Scanner, key: Key) throws(CellObjectParser.Malformed) in
            switch key.style(in: scanner.bytes) {
            case .bold: style.bold = try scanner.value(level: 3)
            case .italic: style.italic = try scanner.value(level: 3)
            case .horizontal: style.horizontal = try scanner.value(level: 3)
            case .numFmt: style.numFmt = try scanner.value(level: 3)
            case .fill: style.fill = try scanner.value(level: 3)
            case .color: style.color = try scanner.value(level: 3)
            case nil: try scanner.skipValue(level: 3)
            }
        }
        return style
    }

    /// The members of an object whose `{` is read, up to its closing brace: `member` reads
    /// each value, the cursor on its first byte.
    private mutating func members(closing: UInt8,
                                  _ member: (inout Scanner, Key) throws(CellObjectParser.Malformed) -> Void)
        throws(CellObjectParser.Malformed) {
        skipSpace()
        if peek() == closing { index += 1; return }
        while true {
            skipSpace()
            guard peek() == UInt8(ascii: "\"") else { throw failure }
            let key = try scanString()
            skipSpace()
            try expect(UInt8(ascii: ":"))
            skipSpace()
            try member(&self, key)
            skipSpace()
            guard let byte = peek() else { throw failure }
            index += 1
            if byte == closing { return }
            guard byte == UInt8(ascii: ",") else { throw failure }
        }
    }

    /// A member's value: scalars are read, arrays and objects checked and skipped.
    private mutating func value(level: Int) throws(CellObjectParser.Malformed) -> CellJSONValue {
        guard let byte = peek() else { throw failure }
        switch byte {
        case UInt8(ascii: "\""):
            let string = try scanString()
            return .string(string.text(in: bytes))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = index
            try scanNumber()
            return .number(try number(start, index))
        case UInt8(ascii: "{"):
            try skipValue(level: level)
            return .object
        case UInt8(ascii: "["):
            try skipValue(level: level)
            return .array
        default:
            return try literal()
        }
    }

    /// `true`, `false` or `null`.
    private mutating func literal() throws(CellObjectParser.Malformed) -> CellJSONValue {
        if matches("true") { index += 4; return .bool(true) }
        if matches("false") { index += 5; return .bool(false) }
        if matches("null") { index += 4; return .null }
        throw failure
    }

    /// Checks and skips any value whose first byte is at the cursor, `level` being the level
    /// it would open. Nested containers are tracked on a stack of their kinds, not by recursion.
    private mutating func skipValue(level: Int) throws(CellObjectParser.Malformed) {
        var open: [Bool] = [] // true for an object
        while true {
            guard let byte = peek() else { throw failure }
            var opened = false
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                guard level + open.count <= CellObjectParser.maxDepth else { throw failure }
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
                _ = try scanString()
            } else if byte == UInt8(ascii: "-") || ASCII.isDigit(byte) {
                let start = index
                let exact = try scanNumber()
                // Only an exponent or a long integer part can pass the range of a double.
                if !exact || index - start > 300 { _ = try number(start, index) }
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
    private mutating func memberKey() throws(CellObjectParser.Malformed) {
        guard peek() == UInt8(ascii: "\"") else { throw failure }
        _ = try scanString()
        skipSpace()
        try expect(UInt8(ascii: ":"))
        skipSpace()
    }

    // MARK: Strings

    /// Checks the string at the cursor (control characters, UTF-8, escapes, surrogate pairs)
    /// and moves past its closing quote; the contents are decoded only when wanted.
    private mutating func scanString() throws(CellObjectParser.Malformed) -> Key {
        index += 1
        let start = index
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return Key(start: start, end: index - 1, escaped: escaped)
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
    private mutating func scanEscape() throws(CellObjectParser.Malformed) {
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
    private mutating func scanUTF8() throws(CellObjectParser.Malformed) {
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
    private static func hexUnit(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        var unit: UInt32 = 0
        for index in offset..<(offset + 4) {
            guard let digit = ASCII.hexValue(bytes[index]) else { return nil }
            unit = unit << 4 | UInt32(digit)
        }
        return unit
    }

    // MARK: Numbers

    /// Checks the number at the cursor against the JSON grammar and moves past it; true when
    /// it has no exponent.
    @discardableResult
    private mutating func scanNumber() throws(CellObjectParser.Malformed) -> Bool {
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), ASCII.isDigit(first) else { throw failure }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let digit = peek(), ASCII.isDigit(digit) else { throw failure }
            skipDigits()
        }
        guard peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") else { return true }
        index += 1
        if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
        guard let digit = peek(), ASCII.isDigit(digit) else { throw failure }
        skipDigits()
        return false
    }

    /// The checked number text `start..<end` as the nearest double; refused when it is beyond
    /// a double's range.
    private func number(_ start: Int, _ end: Int) throws(CellObjectParser.Malformed) -> Double {
        let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if let value = ASCII.parseDouble(text) { return value }
        // ASCII.parseDouble stops at 512 bytes; strtod rounds correctly at any length.
        let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { buffer in
            for offset in 0..<text.count { buffer[offset] = CChar(bitPattern: text[offset]) }
            buffer[text.count] = 0
            return strtod(buffer.baseAddress!, nil)
        }
        guard value.isFinite else { throw CellObjectParser.Malformed(offset: start) }
        return value
    }

    private mutating func skipDigits() {
        while index < bytes.count, ASCII.isDigit(bytes[index]) { index += 1 }
    }

    // MARK: Bytes

    @inline(__always)
    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    @inline(__always)
    private mutating func skipSpace() {
        while index < bytes.count, ASCII.isSpace(bytes[index]) { index += 1 }
    }

    private mutating func expect(_ byte: UInt8) throws(CellObjectParser.Malformed) {
        guard peek() == byte else { throw failure }
        index += 1
    }

    /// Whether the bytes at the cursor are `word`.
    private func matches(_ word: StaticString) -> Bool {
        guard index + word.utf8CodeUnitCount <= bytes.count else { return false }
        return memcmp(bytes.baseAddress! + index, word.utf8Start, word.utf8CodeUnitCount) == 0
    }

    private var failure: CellObjectParser.Malformed { CellObjectParser.Malformed(offset: index) }
}

/// A checked string of the line, its contents between `start` and `end` (quotes excluded).
private struct Key {
    let start: Int
    let end: Int
    /// Whether it holds escapes, so decoding it is more than copying it.
    let escaped: Bool

    /// The top-level keys the reader uses.
    enum Top { case ref, type, value, formula, arrayRange, spill, style }
    /// The keys of `style` the reader uses.
    enum Style { case bold, italic, horizontal, numFmt, fill, color }

    func top(in bytes: UnsafeBufferPointer<UInt8>) -> Top? {
        if equals("ref", bytes) { return .ref }
        if equals("type", bytes) { return .type }
        if equals("value", bytes) { return .value }
        if equals("formula", bytes) { return .formula }
        if equals("arrayRange", bytes) { return .arrayRange }
        if equals("spill", bytes) { return .spill }
        if equals("style", bytes) { return .style }
        return nil
    }

    func style(in bytes: UnsafeBufferPointer<UInt8>) -> Style? {
        if equals("bold", bytes) { return .bold }
        if equals("italic", bytes) { return .italic }
        if equals("horizontal", bytes) { return .horizontal }
        if equals("numFmt", bytes) { return .numFmt }
        if equals("fill", bytes) { return .fill }
        if equals("color", bytes) { return .color }
        return nil
    }

    /// Whether the string is `name` (an escaped key such as `"\u0072ef"` is decoded first).
    private func equals(_ name: StaticString, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if escaped {
            return text(in: bytes).utf8.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        }
        return end - start == name.utf8CodeUnitCount
            && memcmp(bytes.baseAddress! + start, name.utf8Start, name.utf8CodeUnitCount) == 0
    }

    /// The decoded string (it was checked by `scanString`, so decoding cannot fail).
    func text(in bytes: UnsafeBufferPointer<UInt8>) -> String {
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
                    var scalar = Self.hex(raw, read)
                    read += 4
                    if scalar >= 0xD800 && scalar <= 0xDBFF {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (Self.hex(raw, read + 2) - 0xDC00)
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

    private static func hex(_ raw: UnsafeBufferPointer<UInt8>, _ offset: Int) -> UInt32 {
        (offset..<(offset + 4)).reduce(0) { $0 << 4 | UInt32(ASCII.hexValue(raw[$1])!) }
    }
}
