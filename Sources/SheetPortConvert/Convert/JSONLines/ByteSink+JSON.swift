import SheetPortCore

extension ByteSink {
    /// Appends `text` as a JSON string literal (`JSONLWriter.writeString`), or its inside
    /// alone when not `quoted`; text with nothing to escape is copied whole.
    func putEscaped(_ text: String, quoted: Bool = true) {
        var text = text
        let copied = text.withUTF8 { utf8 -> Bool in
            // 0xE2 leads U+2028 and U+2029, which JSON allows raw but JavaScript did not: escaped too.
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0xE2 }) else { return false }
            if quoted { put(UInt8(ascii: "\"")) }
            put(utf8)
            if quoted { put(UInt8(ascii: "\"")) }
            return true
        }
        guard !copied else { return }
        var escaped: [UInt8] = []
        JSON.appendQuoted(text, to: &escaped)
        escaped.withUnsafeBufferPointer { all in
            put(quoted ? all : UnsafeBufferPointer(rebasing: all.dropFirst().dropLast())) // appendQuoted's quotes dropped
        }
    }
}
