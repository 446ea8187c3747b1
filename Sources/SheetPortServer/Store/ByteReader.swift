/// Reads back what `Varint` wrote (LEB128 varints, zig-zag integers, little-endian doubles),
/// each read checked against the bytes: a short or hostile buffer is refused
/// (`RowBlock.FormatError`, naming `what`), never read past.
struct ByteReader {
    let bytes: [UInt8]
    /// What the bytes are, for errors ("a binary block").
    let what: String
    var position = 0

    init(_ bytes: [UInt8], what: String) {
        self.bytes = bytes
        self.what = what
    }

    /// The bytes not read yet.
    var remaining: Int { bytes.count - position }

    /// The next byte; `inside` names what it begins, for the error when there is none.
    mutating func byte(inside part: String) throws -> UInt8 {
        guard position < bytes.count else { throw RowBlock.FormatError(message: "\(what) ends inside \(part)") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func varint() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte(inside: "a number")
            guard shift < 64 else { throw RowBlock.FormatError(message: "\(what) holds a number over 64 bits") }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    mutating func signed() throws -> Int64 { Varint.unzigzag(try varint()) }

    /// A count or index of at most `limit`.
    mutating func count(limit: Int) throws -> Int {
        let value = try varint()
        guard limit >= 0, value <= UInt64(limit) else { throw RowBlock.FormatError(message: "\(what) claims \(value) items where \(limit) fit") }
        return Int(value)
    }

    mutating func double() throws -> Double {
        guard remaining >= 8 else { throw RowBlock.FormatError(message: "\(what) ends inside a number") }
        var bits: UInt64 = 0
        for offset in 0..<8 { bits |= UInt64(bytes[position + offset]) << (8 * UInt64(offset)) }
        position += 8
        return Double(bitPattern: bits)
    }

    /// The range of the next bytes, as many as a count says (checked against what is left
    /// after it), skipped.
    mutating func span() throws -> Range<Int> {
        let length = try varint()
        guard length <= UInt64(remaining) else { throw RowBlock.FormatError(message: "\(what) claims \(length) bytes where \(remaining) are left") }
        defer { position += Int(length) }
        return position..<(position + Int(length))
    }
}
