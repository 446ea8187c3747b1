import SheetPortCore

extension ByteSink {
    /// Appends `text` as a JSON string literal (`JSONLWriter.writeString`), or its inside
    /// alone when not `quoted`; text with nothing to escape is copied whole.
    package func putEscaped(_ text: String, quoted: Bool = true) {
        var text = text
        text.withUTF8 { utf8 in
            // 0xE2 leads U+2028 and U+2029, which JSON allows raw but JavaScript did not: escaped too.
            if utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0xE2 }) {
                putEscaped(utf8: utf8, quoted: quoted)
            } else {
                if quoted { put(UInt8(ascii: "\"")) }
                put(utf8)
                if quoted { put(UInt8(ascii: "\"")) }
            }
        }
    }

    /// Appends valid UTF-8 (a `String`'s, a stored line's) escaped as `JSON.appendQuoted`
    /// escapes it, with no `String` made: the runs between escapes are copied whole.
    package func putEscaped(utf8: UnsafeBufferPointer<UInt8>, quoted: Bool = true) {
        if quoted { put(UInt8(ascii: "\"")) }
        var start = 0, position = 0
        while position < utf8.count {
            let byte = utf8[position]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0xE2 else {
                position += 1
                continue
            }
            put(UnsafeBufferPointer(rebasing: utf8[start..<position]))
            if byte == 0xE2 {
                // E2 80 A8 is U+2028, E2 80 A9 U+2029; any other character led by E2 is copied.
                if position + 2 < utf8.count, utf8[position + 1] == 0x80, utf8[position + 2] == 0xA8 || utf8[position + 2] == 0xA9 {
                    put(utf8[position + 2] == 0xA8 ? "\\u2028" : "\\u2029")
                    position += 3
                    start = position
                } else {
                    start = position
                    position += 1
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): put("\\\"")
            case UInt8(ascii: "\\"): put("\\\\")
            case 0x0A: put("\\n")
            case 0x0D: put("\\r")
            case 0x09: put("\\t")
            case 0x08: put("\\b")
            case 0x0C: put("\\f")
            default:
                let hex: StaticString = "0123456789abcdef"
                put("\\u00")
                put(hex.utf8Start[Int(byte >> 4)])
                put(hex.utf8Start[Int(byte & 0xF)])
            }
            position += 1
            start = position
        }
        put(UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
        if quoted { put(UInt8(ascii: "\"")) }
    }
}
