#if canImport(Glibc)
import Glibc
#endif

/// A buffered writer to a file descriptor: output is built as bytes and written in
/// 64 KiB blocks, with no `String` per cell.
///
/// The `put` methods append to the buffer through a pointer (no array uniqueness checks) and
/// never write out; a caller using them calls `flushIfFull()` between fields, so the buffer
/// stays near one block. The public `write` methods do both.
public final class ByteOutput {
    private let descriptor: Int32
    private let name: String
    private let collects: Bool
    // Appended to per cell by one thread: dynamic exclusivity checks buy nothing here.
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    /// Bytes buffered and not yet written out.
    @exclusivity(unchecked) private(set) var count = 0
    static let blockSize = 1 << 16

    /// A writer to `descriptor`; `name` is used in errors (`-` for standard output).
    public init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
        collects = false
        capacity = Self.blockSize + 4096
        base = .allocate(capacity: capacity)
    }

    /// A writer that collects its output in memory, taken with `takeBytes()`.
    public init(collectingAs name: String) {
        descriptor = -1
        self.name = name
        collects = true
        capacity = 4096
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// The bytes collected so far (a collecting writer), leaving it empty.
    public func takeBytes() -> [UInt8] {
        defer { count = 0 }
        return Array(UnsafeBufferPointer(start: base, count: count))
    }

    /// Appends bytes.
    @inline(__always)
    public func write(_ bytes: some Sequence<UInt8>) throws {
        if bytes.withContiguousStorageIfAvailable({ put($0) }) == nil {
            for byte in bytes { put(byte) }
        }
        try flushIfFull()
    }

    /// Appends the UTF-8 of a string.
    @inline(__always)
    public func write(_ text: String) throws {
        put(text)
        try flushIfFull()
    }

    /// Appends a literal.
    @inline(__always)
    public func write(_ text: StaticString) throws {
        put(text)
        try flushIfFull()
    }

    /// Appends one byte.
    @inline(__always)
    public func write(byte: UInt8) throws {
        put(byte)
        try flushIfFull()
    }

    /// Writes out what is buffered once it reaches a block.
    @inline(__always)
    func flushIfFull() throws {
        if count >= Self.blockSize { try flush() }
    }

    /// Writes out what is buffered.
    public func flush() throws {
        if collects { return }
        var offset = 0
        while offset < count {
            let written = Glibc.write(descriptor, base + offset, count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw ReaderError(.io, file: name, "cannot write: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
        count = 0
    }

    // MARK: Appending without writing out

    /// Makes room for `extra` more bytes and returns where they go; `advance(by:)` then counts them.
    @inline(__always)
    func room(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if extra > capacity &- count { grow(to: count + extra) }
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
        room(1).pointee = byte
        count &+= 1
    }

    /// Appends bytes.
    @inline(__always)
    func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress, bytes.count > 0 else { return }
        room(bytes.count).update(from: start, count: bytes.count)
        count &+= bytes.count
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

    /// Appends `byte` `times` times, writing out whole blocks on the way (a row padded far right).
    @inline(__always)
    func put(_ byte: UInt8, times: Int) throws {
        if times == 1 { return put(byte) }
        try putRun(byte, times: times)
    }

    private func putRun(_ byte: UInt8, times: Int) throws {
        var left = times
        while left > 0 {
            let run = min(left, Self.blockSize)
            room(run).update(repeating: byte, count: run)
            count &+= run
            left -= run
            try flushIfFull()
        }
    }

    // MARK: Copying files

    /// Writes everything readable from `source` (from its current offset) and flushes; `name`
    /// is the source in errors.
    public func copy(from source: Int32, name sourceName: String) throws {
        try flush()
        while true {
            let count = Glibc.read(source, room(Self.blockSize), Self.blockSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw ReaderError(.io, file: sourceName, "cannot read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            advance(by: count)
            try flush()
        }
    }

    /// Writes the whole file at `path` and flushes.
    public func copy(contentsOf path: String) throws {
        let source = open(path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw ReaderError(.io, file: path, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(source) }
        try copy(from: source, name: path)
    }
}
