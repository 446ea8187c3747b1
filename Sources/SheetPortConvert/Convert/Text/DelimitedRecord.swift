/// One CSV or TSV record as `DelimitedReader.read(into:)` leaves it: each field is a span of
/// the reader's buffer (the bytes between the quotes, for a quoted field), or, when quotes
/// or escapes had to be undone, a span of the record's own `unescaped` bytes. No field costs an
/// allocation or a copy until it becomes a string; the spans are valid until the reader reads
/// again (read every field before the next `read(into:)`; copy what you keep).
public struct DelimitedRecord {
    /// The reader's buffer the spans point into.
    var base: UnsafePointer<UInt8>?
    /// Where a field is.
    struct Span {
        /// The field's start: in `base` when >= 0, in `unescaped` at `~start` when negative.
        var start: Int
        /// Its length in bytes.
        var count: Int
        /// Where its raw text starts in the reader's buffer (after an opening quote), for errors.
        var raw: Int
    }

    /// The fields, in order: `count` of them at `storage.pointer` (a buffer kept from record to
    /// record; an array's append and removal cost a call each, a third of reading a field).
    private var storage = SpanStorage()
    /// The number of fields.
    public private(set) var count = 0
    /// Fields whose quotes or escapes were undone, back to back.
    var unescaped: [UInt8] = []
    /// Whether some field is not empty.
    public private(set) var hasValue = false

    /// An empty record.
    public init() {}

    /// Whether field `index` is empty.
    @inline(__always)
    public func isEmpty(at index: Int) -> Bool { span(index).count == 0 }

    /// Where field `index` is.
    @inline(__always)
    func span(_ index: Int) -> Span {
        precondition(index >= 0 && index < count, "field index out of range")
        return storage.pointer[index]
    }

    /// Field `index` as a string.
    public func string(at index: Int) -> String {
        withField(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with field `index`'s bytes.
    @inline(__always)
    public func withField<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let span = span(index)
        let start = span.start, count = span.count
        if start >= 0 { return try body(UnsafeBufferPointer(start: base! + start, count: count)) }
        return try unescaped.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[~start ..< ~start + count])) }
    }

    mutating func removeAll() {
        count = 0
        if !unescaped.isEmpty { unescaped.removeAll(keepingCapacity: true) }
        hasValue = false
    }

    /// Adds a field of `count` bytes at `start` of the reader's buffer, whose raw text starts at `raw`.
    @inline(__always)
    mutating func append(start: Int, count: Int, raw: Int) {
        if self.count == storage.capacity { storage.grow() }
        storage.pointer[self.count] = Span(start: start, count: count, raw: raw)
        self.count += 1
        if count != 0 { hasValue = true }
    }

    /// Adds the field of `unescaped` from `start` to its end, whose raw text starts at `raw`.
    mutating func appendUnescaped(from start: Int, raw: Int) {
        append(start: ~start, count: unescaped.count - start, raw: raw)
    }
}

/// The spans of a `DelimitedRecord`'s fields: one allocation, doubled when a record has more
/// fields than it holds.
final class SpanStorage {
    private(set) var pointer: UnsafeMutablePointer<DelimitedRecord.Span>
    private(set) var capacity = 64

    init() { pointer = .allocate(capacity: capacity) }

    deinit { pointer.deallocate() }

    func grow() {
        let larger = UnsafeMutablePointer<DelimitedRecord.Span>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: pointer, count: capacity)
        pointer.deallocate()
        pointer = larger
        capacity *= 2
    }
}

/// Finds the first of a set of ASCII bytes in a buffer eight bytes at a time (SWAR), for the
/// scans of `DelimitedReader`: any byte below 0x20 is found by one subtraction, then checked to
/// be one of the set (line breaks and a tab delimiter are; another control byte is passed
/// over), and up to two other bytes (the delimiter, a quote, a backslash) by a comparison each.
/// The lowest match a word's mask shows is always a true one. The buffer must be readable 8
/// bytes past the end the scan may reach, and hold a line feed there (every set has one).
struct ByteStops {
    /// The bytes below 0x20 in the set, a bit each.
    private let controls: UInt32
    /// The other bytes of the set, each repeated in every byte of a word (the same twice for one).
    private let a: UInt64, b: UInt64
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Stops at any of `bytes`: line breaks and other bytes below 0x20, and at most two others (ASCII).
    init(_ bytes: [UInt8]) {
        var controls: UInt32 = 0
        var others: [UInt8] = []
        for byte in bytes {
            if byte < 0x20 { controls |= 1 << UInt32(byte) } else { others.append(byte) }
        }
        precondition(others.count <= 2 && others.allSatisfy { $0 < 0x80 } && controls & (1 << 0x0A) != 0)
        let first = others.first ?? 0x0A
        self.controls = controls
        (a, b) = (Self.ones &* UInt64(first), Self.ones &* UInt64(others.last ?? first))
    }

    @inline(__always)
    private static func zeros(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }

    /// The index of the first stop byte at or after `index`; the caller guarantees one (a sentinel).
    @inline(__always)
    func first(in base: UnsafePointer<UInt8>, from index: Int) -> Int {
        var index = index
        let raw = UnsafeRawPointer(base)
        while true {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let mask = ((word &- Self.ones &* 0x20) & ~word & Self.highs) | Self.zeros(word ^ a) | Self.zeros(word ^ b)
            if mask != 0 {
                let at = index &+ mask.trailingZeroBitCount &>> 3
                let byte = base[at]
                if byte >= 0x20 || (controls >> UInt32(byte)) & 1 != 0 { return at }
                index = at &+ 1 // a control byte that is not a stop (a NUL, a tab in CSV)
                continue
            }
            index &+= 8
        }
    }
}

/// UTF-8 validation of field bytes: eight ASCII bytes at a time, the standard library's check
/// for the rest.
enum UTF8Check {
    /// Whether `bytes` are all ASCII, eight at a time.
    static func isASCII(_ base: UnsafePointer<UInt8>, count: Int) -> Bool {
        var index = 0
        let raw = UnsafeRawPointer(base)
        var any: UInt64 = 0
        while index + 8 <= count {
            any |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < count { any |= UInt64(base[index]); index += 1 }
        return any & 0x8080_8080_8080_8080 == 0
    }

    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var index = 0
        let count = bytes.count
        let raw = UnsafeRawPointer(base)
        while index + 8 <= count {
            if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { break }
            index += 8
        }
        while index < count, base[index] < 0x80 { index += 1 }
        guard index < count else { return true }
        return String(validating: UnsafeBufferPointer(rebasing: bytes[index...]), as: UTF8.self) != nil
    }
}
