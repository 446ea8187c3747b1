import SheetPortCore
/// Builds XML as UTF-8 bytes in a growable buffer, with the escaping OOXML needs.
///
/// The worksheet writer hands filled buffers to the packager and reuses them, so the
/// hot path appends bytes without allocating.
struct XMLWriter {
    /// The bytes written so far.
    var bytes: [UInt8]

    /// An empty writer that reserves `capacity` bytes.
    init(capacity: Int = 4096) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The XML declaration every part starts with.
    mutating func declaration() {
        raw("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n")
    }

    /// A part that is always the same markup: the declaration, then `markup`.
    static func fixedPart(_ markup: StaticString) -> [UInt8] {
        var xml = XMLWriter(capacity: markup.utf8CodeUnitCount + 64)
        xml.declaration()
        xml.raw(markup)
        return xml.bytes
    }

    /// Appends markup as it is.
    @inline(__always)
    mutating func raw(_ text: StaticString) {
        // Byte by byte: markup literals are a few bytes, where `append(contentsOf:)` costs
        // about 100 instructions a call and this about 10 a byte (the writer's hottest call).
        text.withUTF8Buffer { for byte in $0 { bytes.append(byte) } }
    }

    /// Appends markup as it is. Disfavoured so that a literal takes the `StaticString` path.
    @_disfavoredOverload
    mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends a decimal integer.
    mutating func int(_ value: Int) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            guard value != .min else { raw(String(value).dropFirst().description); return }
            return int(-value)
        }
        compose(capacity: 20) { $0.int(value) }
    }

    /// Appends a number as `xsd:double` in the shortest form that reads back as the same
    /// double (`3`, `0.1`, `1e-05`).
    mutating func double(_ value: Double) {
        if let integer = Self.integer(value) {
            int(integer)
        } else {
            raw(value.description)
        }
    }

    /// The integer `double(_:)` writes for `value`, when it writes one.
    @inline(__always)
    static func integer(_ value: Double) -> Int? {
        value == value.rounded(.towardZero) && abs(value) < 1e15 ? Int(value) : nil
    }

    /// Appends markup of at most `capacity` bytes that `body` writes into a buffer on the stack:
    /// one append for the many small pieces of a cell's markup, each an append of its own otherwise.
    @inline(__always)
    mutating func compose(capacity: Int, _ body: (inout Markup) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var markup = Markup(base: buffer.baseAddress!, capacity: capacity)
            body(&markup)
            bytes.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress!, count: markup.count))
        }
    }

    /// Markup built in place by `compose`; the caller keeps within its capacity (a cell's
    /// reference, style and type take at most 40 bytes).
    struct Markup {
        fileprivate let base: UnsafeMutablePointer<UInt8>
        fileprivate let capacity: Int
        fileprivate(set) var count = 0

        /// Appends markup as it is.
        @inline(__always)
        mutating func raw(_ text: StaticString) {
            precondition(count + text.utf8CodeUnitCount <= capacity)
            (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
            count += text.utf8CodeUnitCount
        }

        /// Appends a decimal integer of 0 or more.
        @inline(__always)
        mutating func int(_ value: Int) {
            precondition(value >= 0 && count + 19 <= capacity)
            var digits = 1, rest = value / 10
            while rest > 0 { digits += 1; rest /= 10 }
            rest = value
            var index = count + digits - 1
            repeat {
                base[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
                index -= 1
            } while rest > 0
            count += digits
        }

        /// Appends a cell reference `B12` (a column of 1 or more, a row of 0 or more).
        @inline(__always)
        mutating func reference(column: Int, row: Int) {
            precondition(column >= 1 && count + CellReference.columnNameShape(column).width <= capacity)
            count += CellReference.storeColumnName(column, at: base + count)
            int(row)
        }
    }

    /// Appends element text: `&`, `<` and `>` as entities; characters XML 1.0 cannot carry
    /// (controls, U+FFFE, U+FFFF) as OOXML `_xHHHH_` escapes; and a literal `_xHHHH_` with its
    /// underscore escaped, so a reader that decodes those escapes gets the text back.
    mutating func text(_ text: String) {
        var text = text
        text.withUTF8 { appendEscaped($0, attribute: false) }
    }

    /// Appends an attribute value (quoted with `"`): as `text`, plus `"` and the whitespace
    /// characters that attribute normalisation would turn into spaces. A literal `_xHHHH_` is
    /// kept: readers decode those escapes in cell text, not in names and format codes.
    mutating func attribute(_ text: String) {
        var text = text
        text.withUTF8 { appendEscaped($0, attribute: true) }
    }

    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, attribute: Bool) {
        var start = 0
        var index = 0
        let count = utf8.count
        while index < count {
            let byte = utf8[index]
            let replacement: StaticString?
            var escapeCode: UInt32?
            switch byte {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\"") where attribute: replacement = "&quot;"
            case 0x09 where attribute: replacement = "&#9;"
            case 0x0A where attribute: replacement = "&#10;"
            case 0x0D: replacement = "&#13;" // a raw CR would be normalised away
            case 0x09, 0x0A: index += 1; continue
            case 0..<0x20: replacement = nil; escapeCode = UInt32(byte)
            case UInt8(ascii: "_") where !attribute && Self.isEscapeLike(utf8, at: index): replacement = nil; escapeCode = 0x5F
            case 0xEF where index + 2 < count && utf8[index + 1] == 0xBF && (utf8[index + 2] == 0xBE || utf8[index + 2] == 0xBF):
                replacement = nil; escapeCode = utf8[index + 2] == 0xBE ? 0xFFFE : 0xFFFF
            default: index += 1; continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
            if let replacement {
                raw(replacement)
                index += 1
            } else if let escapeCode {
                appendOOXMLEscape(escapeCode)
                index += escapeCode >= 0xFFFE ? 3 : 1
            }
            start = index
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<count]))
    }

    private mutating func appendOOXMLEscape(_ code: UInt32) {
        let hex = Array("0123456789ABCDEF".utf8)
        raw("_x")
        for shift in stride(from: 12, through: 0, by: -4) {
            bytes.append(hex[Int((code >> UInt32(shift)) & 0xF)])
        }
        bytes.append(UInt8(ascii: "_"))
    }

    /// Whether `_xHHHH_` starts at `index`.
    private static func isEscapeLike(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        guard index + 6 < utf8.count, utf8[index + 1] == UInt8(ascii: "x"), utf8[index + 6] == UInt8(ascii: "_") else {
            return false
        }
        return (2...5).allSatisfy { ASCII.hexValue(utf8[index + $0]) != nil }
    }

    /// Whether text needs `xml:space="preserve"` to keep its spaces and line breaks.
    static func needsPreserve(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            guard let first = utf8.first, let last = utf8.last else { return false }
            if first == 0x20 || last == 0x20 { return true }
            var previous: UInt8 = 0
            for byte in utf8 {
                if byte == 0x09 || byte == 0x0A || byte == 0x0D || (byte == 0x20 && previous == 0x20) { return true }
                previous = byte
            }
            return false
        }
    }
}
