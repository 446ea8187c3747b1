/// The text of JSON's strings and numbers, as every JSON SheetPort writes spells them (server
/// answers, `check --json`, JSON Lines, records), so a value reads the same wherever it is sent.
extension JSON {
    /// A number as JSON and CSV want it: integral values under 2^53 without a fraction (`3`),
    /// others in the shortest form that reads back as the same double (`0.1`, `1e-05`).
    /// `ByteSink.putNumber` writes the same text without a `String`.
    package static func numberText(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            return String(Int64(value))
        }
        return value.description
    }

    /// A JSON string literal for `text`.
    package static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        appendQuoted(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends a JSON string literal: `"` `\\` and control characters escaped, and U+2028 and
    /// U+2029 as `\u2028` `\u2029` (valid raw in JSON, but line breaks to JavaScript and to
    /// some line-oriented tools); the rest as UTF-8.
    package static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            // A String is valid UTF-8: E2 leads a three-byte character; E2 80 A8 is U+2028, E2 80 A9 U+2029.
            if byte == 0xE2, let second = utf8.next(), let third = utf8.next() {
                if second == 0x80 && (third == 0xA8 || third == 0xA9) {
                    bytes += Array((third == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                } else {
                    bytes += [byte, second, third]
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
