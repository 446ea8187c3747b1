#if canImport(Glibc)
import Glibc
#endif

/// A buffered reader of a file descriptor, byte by byte, for the text formats
/// (CSV, TSV, JSONL) that `convert` turns into workbooks.
public final class ByteInput {
    /// The name used in errors (`<stdin>` for standard input).
    public let name: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var position = 0
    private var end = 0
    private var atEnd = false
    /// Bytes consumed so far.
    public private(set) var bytesRead: Int64 = 0

    /// Opens `path`, or standard input for `-`.
    public init(path: String) throws {
        if path == "-" {
            descriptor = 0
            ownsDescriptor = false
            name = "<stdin>"
        } else {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw ReaderError(.io, file: path, "cannot open: \(String(cString: strerror(errno)))")
            }
            ownsDescriptor = true
            name = path
        }
    }

    /// Reads `descriptor` (left open), starting with `prefix`: bytes already read from it to
    /// tell what it holds (standard input, which cannot be read again).
    public init(descriptor: Int32, name: String, prefix: [UInt8]) {
        self.descriptor = descriptor
        ownsDescriptor = false
        self.name = name
        buffer = prefix + [UInt8](repeating: 0, count: max(1 << 16, prefix.count))
        end = prefix.count
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
        while !atEnd && end < minimum {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + end, $0.count - end) }
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
