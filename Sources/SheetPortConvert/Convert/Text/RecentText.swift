/// The strings of short text fields seen lately, by column and bytes: the second pass of a CSV
/// conversion makes a `String` of every text field (a validation and a copy, the costliest
/// step of a text cell), and the words of a category column (`north`, `alpha`) repeat. A
/// direct-mapped table of 256 entries; a field of more than 16 bytes, or one not in the table,
/// is made afresh (and takes the entry). The bytes must be valid UTF-8 (`DelimitedReader` checked them).
struct RecentText {
    private struct Key: Equatable {
        var low: UInt64 = 0, high: UInt64 = 0
        /// The field's length and its column (`count | column << 8`); 0 for no entry.
        var tag = 0
    }

    private var keys = [Key](repeating: Key(), count: 256)
    private var strings = [String](repeating: "", count: 256)

    /// The string of `field` (valid UTF-8) in `column` (0-based).
    @inline(__always)
    mutating func string(_ field: UnsafeBufferPointer<UInt8>, column: Int) -> String {
        guard field.count <= 16, let base = field.baseAddress else { return String(decoding: field, as: UTF8.self) }
        var key = Key(tag: field.count | (column + 1) << 8)
        withUnsafeMutableBytes(of: &key.low) { low in
            withUnsafeMutableBytes(of: &key.high) { high in
                for index in 0..<field.count {
                    if index < 8 { low[index] = base[index] } else { high[index - 8] = base[index] }
                }
            }
        }
        let hash = (key.low &* 0x9E37_79B9_7F4A_7C15) ^ (key.high &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(key.tag) &* 0x1656_67B1_9E37_79F9
        let slot = Int(truncatingIfNeeded: hash >> 56)
        if keys[slot] == key { return strings[slot] }
        let made = String(decoding: field, as: UTF8.self)
        keys[slot] = key
        strings[slot] = made
        return made
    }
}
