#if canImport(Glibc)
import Glibc
#endif

/// A growable byte buffer written through a pointer, for text built a byte at a time (the
/// import's stored cells, `ByteOutput`'s blocks): each write checks the room left and grows
/// when needed, with none of an array's uniqueness checks. One thread writes it.
final class ByteSink {
    // One writer thread, its own memory: dynamic exclusivity checks buy nothing here.
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    /// Bytes written since the last `removeAll()`.
    @exclusivity(unchecked) private(set) var count = 0

    /// An empty buffer with room for `capacity` bytes before it grows.
    init(capacity: Int = 1 << 12) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Forgets the bytes written, keeping the room.
    func removeAll() { count = 0 }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    func reserve(_ extra: Int) {
        if extra > capacity &- count { grow(to: count + extra) }
    }

    /// Makes room for `extra` more bytes and returns where they go; `advance(by:)` then counts them.
    @inline(__always)
    func room(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        reserve(extra)
        return base + count
    }

    /// Counts `written` bytes stored where `room(_:)` pointed.
    @inline(__always)
    func advance(by written: Int) { count &+= written }

    @inline(never)
    private func grow(to needed: Int) {
        let larger = max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = larger
    }

    /// Appends one byte.
    @inline(__always)
    func put(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends bytes.
    @inline(__always)
    func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        reserve(bytes.count)
        (base + count).update(from: start, count: bytes.count)
        count += bytes.count
    }

    /// Appends a literal's UTF-8.
    @inline(__always)
    func put(_ literal: StaticString) {
        put(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8.
    @inline(__always)
    func put(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ put($0) }) == nil {
            var text = text
            text.withUTF8 { put($0) }
        }
    }

    /// Appends the bytes of an array.
    @inline(__always)
    func put(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { put($0) }
    }

    /// Appends the letters of a 1-based column (nothing below 1), as `CellReference.appendColumnName`.
    func putColumnName(_ column: Int) {
        guard column > 0 else { return }
        reserve(CellReference.columnNameShape(column).width)
        count += CellReference.storeColumnName(column, at: base + count)
    }

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
        JSONLWriter.appendString(text, to: &escaped)
        escaped.withUnsafeBufferPointer { all in
            put(quoted ? all : UnsafeBufferPointer(rebasing: all.dropFirst().dropLast())) // appendString's quotes dropped
        }
    }
}
