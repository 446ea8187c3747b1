#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore

/// Text content of SpreadsheetML: collecting character events and decoding the
/// `_xHHHH_` escapes Excel uses for characters XML cannot carry (ECMA-376 §22.9.2.19).
enum OOXMLText {
    /// Decodes `_xHHHH_` escapes in one left-to-right pass: `_x000D_` is a carriage
    /// return and `_x005F_` a literal `_`, so `_x005F_x0041_` reads `_x0041_`.
    /// UTF-16 surrogate pairs written as two escapes are joined; anything else is kept.
    static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.withUnsafeBufferPointer { decode($0) }
    }

    /// Decodes the escapes in `bytes`, as `decode(_:)` of a slice.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard mayHaveEscapes(bytes) else { return String(decoding: bytes, as: UTF8.self) }
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

    /// Appends the text of `bytes`, escapes decoded, to `storage` without a `String` when it
    /// has none: both XML parsers hand over valid UTF-8 only, so the bytes are the string's.
    static func append(decoding bytes: UnsafeBufferPointer<UInt8>, to storage: inout [UInt8]) {
        if mayHaveEscapes(bytes) {
            storage.append(contentsOf: decode(bytes).utf8)
        } else {
            storage.append(contentsOf: bytes)
        }
    }

    /// Whether `bytes` hold an `_`, with which every escape starts.
    private static func mayHaveEscapes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        return memchr(base, Int32(UInt8(ascii: "_")), bytes.count) != nil
    }

    /// The code unit of an escape `_xHHHH_` starting at `index`, if there is one.
    private static func escape(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt16? {
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
    /// Grows to the longest text seen (kept up to 64 KiB); only `count` bytes are in use.
    /// Emptying by count, not `removeAll`, keeps the per-cell cost at a store.
    private var storage: [UInt8] = []
    private var count = 0
    /// Whether characters are being collected.
    private(set) var isActive = false
    /// Whether text past `limit` was dropped.
    private var overflowed = false

    /// The bytes collected since `begin()`.
    var bytes: ArraySlice<UInt8> { storage[0..<count] }

    /// Whether nothing was collected.
    var isEmpty: Bool { count == 0 }

    /// Starts collecting, dropping what was collected before.
    mutating func begin() {
        empty()
        isActive = true
    }

    /// Drops what was collected, without collecting.
    mutating func clear() {
        empty()
        isActive = false
    }

    private mutating func empty() {
        count = 0
        overflowed = false
        if storage.count > 1 << 16 { storage = [] } // one huge text does not stay in memory
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
        guard isActive, !text.isEmpty else { return }
        let end = count + text.count
        guard end <= Self.limit else { overflowed = true; return }
        if storage.count < end {
            storage.append(contentsOf: repeatElement(0, count: max(end, 64, storage.count * 2) - storage.count))
        }
        let start = count
        storage.withUnsafeMutableBytes { target in
            (target.baseAddress! + start).copyMemory(from: text.baseAddress!, byteCount: text.count)
        }
        count = end
    }

    /// Calls `body` with the collected bytes.
    @inline(__always)
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<count])) }
    }

    /// The collected text, with `_xHHHH_` escapes decoded.
    var decodedString: String { OOXMLText.decode(bytes) }
    /// The collected text as it is.
    var string: String { withBytes { String(decoding: $0, as: UTF8.self) } }
}
