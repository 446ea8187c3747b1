/// Text content of SpreadsheetML: collecting character events and decoding the
/// `_xHHHH_` escapes Excel uses for characters XML cannot carry (ECMA-376 §22.9.2.19).
enum OOXMLText {
    /// Decodes `_xHHHH_` escapes in one left-to-right pass: `_x000D_` is a carriage
    /// return and `_x005F_` a literal `_`, so `_x005F_x0041_` reads `_x0041_`.
    /// UTF-16 surrogate pairs written as two escapes are joined; anything else is kept.
    static func decode(_ bytes: [UInt8]) -> String {
        guard bytes.contains(UInt8(ascii: "_")) else { return String(decoding: bytes, as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if let unit = escape(bytes, at: index) {
                index += 7
                var scalar = Unicode.Scalar(unit)
                if UTF16.isLeadSurrogate(unit), let trail = escape(bytes, at: index), UTF16.isTrailSurrogate(trail) {
                    scalar = Unicode.Scalar(0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(trail - 0xDC00))
                    index += 7
                }
                output.append(contentsOf: String(scalar ?? "\u{FFFD}").utf8)
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The code unit of an escape `_xHHHH_` starting at `index`, if there is one.
    private static func escape(_ bytes: [UInt8], at index: Int) -> UInt16? {
        guard index + 7 <= bytes.count, bytes[index] == UInt8(ascii: "_"),
              bytes[index + 1] == UInt8(ascii: "x"), bytes[index + 6] == UInt8(ascii: "_") else { return nil }
        var unit: UInt16 = 0
        for byte in bytes[(index + 2)..<(index + 6)] {
            guard let digit = ASCII.hexValue(byte) else { return nil }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }
}

/// Text of one element that is longer than any real workbook writes (Excel allows 32,767
/// characters in a cell and 8,192 in a formula): refused rather than held in memory.
struct TextTooLong: Error {
    /// The limit in bytes.
    let limit: Int
}

/// Collects the character events of the element being read, reusing one buffer, up to
/// `TextCollector.limit` bytes.
struct TextCollector {
    /// The most bytes one element's text may have: 1 MiB, eight times Excel's cell limit in UTF-8.
    static let limit = 1 << 20
    /// The bytes collected since `begin()`.
    private(set) var bytes: [UInt8] = []
    /// Whether characters are being collected.
    private(set) var isActive = false
    /// Whether text past `limit` was dropped.
    private var overflowed = false

    /// Starts collecting, dropping what was collected before.
    mutating func begin() {
        bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 16)
        isActive = true
        overflowed = false
    }

    /// Drops what was collected, without collecting.
    mutating func clear() {
        bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 16)
        isActive = false
        overflowed = false
    }

    /// Starts collecting without dropping (text split over several `<t>` runs).
    mutating func resume() { isActive = true }

    /// Stops collecting; the bytes stay until the next `begin()`. Throws when the text was
    /// longer than `limit`.
    mutating func end() throws {
        isActive = false
        if overflowed { throw TextTooLong(limit: Self.limit) }
    }

    /// Adds the bytes of a character event when active.
    @inline(__always)
    mutating func append(_ text: UnsafeBufferPointer<UInt8>) {
        guard isActive else { return }
        if bytes.count + text.count <= Self.limit { bytes.append(contentsOf: text) } else { overflowed = true }
    }

    /// The collected text, with `_xHHHH_` escapes decoded.
    var decodedString: String { OOXMLText.decode(bytes) }
    /// The collected text as it is.
    var string: String { String(decoding: bytes, as: UTF8.self) }
}
