import SheetPortCore
/// One CSV or TSV record as `DelimitedReader.read(into:)` leaves it: every field's bytes
/// (quotes and escapes already undone, checked to be UTF-8) one after another in one buffer,
/// reused from record to record, so no field costs an allocation until it becomes a string.
public struct DelimitedRecord {
    /// The fields' bytes, back to back.
    public internal(set) var bytes: [UInt8] = []
    /// Where each field ends in `bytes`; field `i` starts where field `i - 1` ends.
    private var ends: [Int] = []

    /// An empty record.
    public init() {}

    /// The number of fields.
    public var count: Int { ends.count }

    /// Where the field being read starts.
    var fieldStart: Int { ends.last ?? 0 }

    /// The bytes of field `index` (0-based) in `bytes`.
    public func range(of index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    /// Whether field `index` is empty.
    public func isEmpty(at index: Int) -> Bool { range(of: index).isEmpty }

    /// Whether some field is not empty.
    public var hasValue: Bool { !bytes.isEmpty }

    /// Field `index` as a string.
    public func string(at index: Int) -> String {
        String(decoding: bytes[range(of: index)], as: UTF8.self)
    }

    /// Calls `body` with field `index`'s bytes.
    @inline(__always)
    public func withField<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let range = range(of: index)
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
    }

    mutating func endField() { ends.append(bytes.count) }
}

/// A set of ASCII bytes, tested with a shift and a mask: the bytes a scan stops at.
package struct ByteSet: Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    /// The set of `bytes` (ASCII; others are never members).
    package init(_ bytes: [UInt8]) {
        for byte in bytes where byte < 0x80 {
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }
    }

    /// Whether `byte` is in the set.
    @inline(__always)
    package func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? (low >> UInt64(byte)) & 1 != 0 : byte < 128 && (high >> UInt64(byte &- 64)) & 1 != 0
    }
}

/// UTF-8 validation of field bytes: eight ASCII bytes at a time, the standard library's check
/// for the rest.
enum UTF8Check {
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
