#if canImport(Glibc)
import Glibc
#endif

/// A buffered reader of a file descriptor, byte by byte, for the text formats
/// (CSV, TSV, JSONL) that `convert` turns into workbooks; text in another encoding than
/// UTF-8 is converted to UTF-8 as it is read (`Transcoder`).
public final class ByteInput {
    /// The name used in errors (`<stdin>` for standard input).
    public let name: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var position = 0
    private var end = 0
    private var atEnd = false
    private var transcoder: Transcoder?
    /// Bytes consumed so far (of the UTF-8 text, when it is converted).
    public private(set) var bytesRead: Int64 = 0

    /// Opens `path`, or standard input for `-`; `name`, when given, is used in errors.
    public init(path: String, name: String? = nil) throws {
        if path == "-" {
            descriptor = 0
            ownsDescriptor = false
            self.name = name ?? "<stdin>"
        } else {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw ReaderError(.io, file: name ?? path, "cannot open: \(String(cString: strerror(errno)))")
            }
            ownsDescriptor = true
            self.name = name ?? path
        }
    }

    /// Opens `path` (or standard input for `-`) as text in `encoding`, read as UTF-8. With no
    /// encoding the text is UTF-8, unless it starts with a UTF-16 byte order mark (`FF FE` or
    /// `FE FF`); a UTF-8 byte order mark is skipped by the readers.
    public convenience init(path: String, encoding: TextEncoding?, name: String? = nil) throws {
        try self.init(path: path, name: name)
        var encoding = encoding
        if encoding == nil, try refill(minimum: 2), end - position >= 2 {
            switch (buffer[position], buffer[position + 1]) {
            case (0xFF, 0xFE): encoding = .utf16LittleEndian
            case (0xFE, 0xFF): encoding = .utf16BigEndian
            default: break
            }
            if encoding != nil { position += 2 }
        }
        guard let encoding, !encoding.isUTF8 else { return }
        // The bytes already buffered are the transcoder's to convert.
        transcoder = try Transcoder(encoding: encoding, descriptor: atEnd ? -1 : descriptor, name: self.name,
                                    pending: buffer[position..<end], offset: Int64(position))
        position = 0
        end = 0
        atEnd = false
    }

    /// Reads `bytes` held in memory; `name` is used in errors.
    public init(bytes: [UInt8], name: String) {
        descriptor = -1
        ownsDescriptor = false
        self.name = name
        buffer = bytes
        end = bytes.count
        atEnd = true
    }

    deinit { if ownsDescriptor { close(descriptor) } }

    /// Bytes of the input itself (before any conversion to UTF-8) read so far, for progress.
    public var sourceBytesRead: Int64 { transcoder?.offset ?? bytesRead }

    /// The bytes at the start of what is left to read, up to the buffer's size (64 KiB), without
    /// consuming them; `isAll` when they are all that is left.
    public func lookAhead() throws -> (bytes: ArraySlice<UInt8>, isAll: Bool) {
        _ = try refill(minimum: buffer.count)
        return (buffer[position..<end], atEnd)
    }

    /// The size of the input when it is a regular file, for progress.
    public var size: Int64? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(status.st_size)
    }

    /// The next byte, nil at the end.
    @inline(__always)
    public func next() throws -> UInt8? {
        if position == end {
            guard try refill() else { return nil }
        }
        let byte = buffer[position]
        position += 1
        bytesRead += 1
        return byte
    }

    /// The next byte without consuming it.
    @inline(__always)
    public func peek() throws -> UInt8? {
        if position == end {
            guard try refill() else { return nil }
        }
        return buffer[position]
    }

    /// Skips a UTF-8 byte order mark at the start.
    public func skipByteOrderMark() throws {
        guard bytesRead == 0, try refill(minimum: 3), end - position >= 3,
              buffer[position] == 0xEF, buffer[position + 1] == 0xBB, buffer[position + 2] == 0xBF else { return }
        position += 3
        bytesRead += 3
    }

    private func refill(minimum: Int = 1) throws -> Bool {
        if position < end && end - position >= minimum { return true }
        if position > 0 {
            buffer.replaceSubrange(0..<(end - position), with: buffer[position..<end])
            end -= position
            position = 0
        }
        // A converted character takes up to 4 bytes: a fuller buffer waits for the next refill.
        while !atEnd && end < minimum && (transcoder == nil || buffer.count - end >= 4) {
            let count = try buffer.withUnsafeMutableBytes { bytes in
                if let transcoder { return try transcoder.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[end...])) }
                return read(descriptor, bytes.baseAddress! + end, bytes.count - end)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReaderError(.io, file: name, "cannot read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { atEnd = true }
            end += count
        }
        return end > position
    }
}

/// Text input that cannot be read as its format says, with the line it is on.
public struct TextInputError: Error, CustomStringConvertible, Equatable {
    /// The input's name.
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(file: String, line: Int, _ message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file: line N: message`.
    public var description: String { "\(file): line \(line): \(message)" }
}
