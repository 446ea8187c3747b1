#if canImport(Glibc)
import Glibc
#endif

/// A buffered writer to a file descriptor: output is built as bytes and written in
/// 64 KiB blocks, with no `String` per cell.
public final class ByteOutput {
    private let descriptor: Int32
    private let name: String
    private let collects: Bool
    // Appended to per cell by one thread: dynamic exclusivity checks buy nothing here.
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    private static let blockSize = 1 << 16

    /// A writer to `descriptor`; `name` is used in errors (`-` for standard output).
    public init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
        collects = false
        buffer.reserveCapacity(Self.blockSize + 4096)
    }

    /// A writer that collects its output in memory, taken with `takeBytes()`.
    public init(collectingAs name: String) {
        descriptor = -1
        self.name = name
        collects = true
    }

    /// The bytes collected so far (a collecting writer), leaving it empty.
    public func takeBytes() -> [UInt8] {
        defer { buffer.removeAll(keepingCapacity: true) }
        return buffer
    }

    /// Appends bytes.
    @inline(__always)
    public func write(_ bytes: some Sequence<UInt8>) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.blockSize { try flush() }
    }

    /// Appends the UTF-8 of a string.
    @inline(__always)
    public func write(_ text: String) throws {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
        if buffer.count >= Self.blockSize { try flush() }
    }

    /// Appends a literal.
    @inline(__always)
    public func write(_ text: StaticString) throws {
        buffer.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        if buffer.count >= Self.blockSize { try flush() }
    }

    /// Appends one byte.
    @inline(__always)
    public func write(byte: UInt8) throws {
        buffer.append(byte)
        if buffer.count >= Self.blockSize { try flush() }
    }

    /// Writes out what is buffered.
    public func flush() throws {
        if collects { return }
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw ReaderError(.io, file: name, "cannot write: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes everything readable from `source` (from its current offset) and flushes; `name`
    /// is the source in errors.
    public func copy(from source: Int32, name sourceName: String) throws {
        try flush()
        var chunk = [UInt8](repeating: 0, count: Self.blockSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(source, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReaderError(.io, file: sourceName, "cannot read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            buffer.append(contentsOf: chunk[..<count])
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
