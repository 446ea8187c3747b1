#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore

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
    /// The bytes buffered and not yet written out; the field writers append to it directly
    /// (`ValueText.putField`) and call `flushIfFull()` after.
    package let buffer: ByteSink
    static let blockSize = 1 << 16

    /// Bytes buffered and not yet written out.
    var count: Int { buffer.count }

    /// A writer to `descriptor`; `name` is used in errors (`-` for standard output).
    public init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
        collects = false
        buffer = ByteSink(capacity: Self.blockSize + 4096)
    }

    /// A writer that collects its output in memory, taken with `takeBytes()`.
    public init(collectingAs name: String) {
        descriptor = -1
        self.name = name
        collects = true
        buffer = ByteSink(capacity: 4096)
    }

    /// The bytes collected so far (a collecting writer), leaving it empty.
    public func takeBytes() -> [UInt8] {
        defer { buffer.removeAll() }
        return Array(buffer.bytes)
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
    package func flushIfFull() throws {
        if count >= Self.blockSize { try flush() }
    }

    /// Writes out what is buffered.
    public func flush() throws {
        if collects { return }
        let bytes = buffer.bytes
        var offset = 0
        while offset < bytes.count {
            let written = SystemIO.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw ReaderError(.io, file: name, "cannot write: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
        buffer.removeAll()
    }

    // MARK: Appending without writing out

    /// Makes room for `extra` more bytes and returns where they go; `advance(by:)` then counts them.
    @inline(__always)
    func room(_ extra: Int) -> UnsafeMutablePointer<UInt8> { buffer.room(extra) }

    /// Counts `written` bytes stored where `room(_:)` pointed.
    @inline(__always)
    func advance(by written: Int) { buffer.advance(by: written) }

    /// Appends one byte.
    @inline(__always)
    package func put(_ byte: UInt8) { buffer.put(byte) }

    /// Appends bytes.
    @inline(__always)
    package func put(_ bytes: UnsafeBufferPointer<UInt8>) { buffer.put(bytes) }

    /// Appends a literal's UTF-8.
    @inline(__always)
    package func put(_ literal: StaticString) { buffer.put(literal) }

    /// Appends a string's UTF-8.
    @inline(__always)
    package func put(_ text: String) { buffer.put(text) }

    /// Appends the bytes of an array.
    @inline(__always)
    package func put(_ bytes: [UInt8]) { buffer.put(bytes) }

    /// Appends a number as `ValueText.number` spells it (`ByteSink.putNumber`).
    @inline(__always)
    package func putNumber(_ value: Double) { buffer.putNumber(value) }

    /// Appends `byte` `times` times, writing out whole blocks on the way (a row padded far right).
    @inline(__always)
    package func put(_ byte: UInt8, times: Int) throws {
        if times == 1 { return put(byte) }
        try putRun(byte, times: times)
    }

    private func putRun(_ byte: UInt8, times: Int) throws {
        var left = times
        while left > 0 {
            let run = min(left, Self.blockSize)
            room(run).update(repeating: byte, count: run)
            advance(by: run)
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
            let count = SystemIO.read(source, room(Self.blockSize), Self.blockSize)
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
