#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore

/// A buffered reader of a file descriptor, byte by byte, for the text formats
/// (CSV, TSV, JSONL) that `convert` turns into workbooks; text in another encoding than
/// UTF-8 is converted to UTF-8 as it is read (`Transcoder`).
public final class ByteInput {
    /// The name used in errors (`<stdin>` for standard input).
    public let name: String
    private let source: DescriptorReader
    private let ownsDescriptor: Bool
    // Read per byte by one thread: dynamic exclusivity checks were a fifth of reading a CSV.
    @exclusivity(unchecked) private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    @exclusivity(unchecked) private var position = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var atEnd = false
    private var transcoder: Transcoder?
    /// Bytes consumed so far (of the UTF-8 text, when it is converted).
    @exclusivity(unchecked) public private(set) var bytesRead: Int64 = 0

    /// Opens `path`, or standard input for `-`; `name`, when given, is used in errors.
    public convenience init(path: String, name: String? = nil) throws {
        if path == "-" {
            self.init(descriptor: 0, ownsDescriptor: false, name: name ?? "<stdin>")
        } else {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw ReaderError(.io, file: name ?? path, "cannot open: \(String(cString: strerror(errno)))")
            }
            self.init(descriptor: descriptor, ownsDescriptor: true, name: name ?? path)
        }
    }

    /// Opens `path` (or standard input for `-`) as text in `encoding`, read as UTF-8. With no
    /// encoding the text is UTF-8, unless it starts with a UTF-16 byte order mark (`FF FE` or
    /// `FE FF`); a UTF-8 byte order mark is skipped by the readers.
    public convenience init(path: String, encoding: TextEncoding?, name: String? = nil) throws {
        try self.init(path: path, name: name)
        try decode(encoding)
    }

    /// Reads `descriptor` as text in `encoding` (as `init(path:encoding:name:)`), starting with
    /// `prefix` (bytes already taken from it to tell what it holds: standard input cannot be read
    /// again), and writing each byte to `copy` as well (-1: nowhere).
    init(descriptor: Int32, ownsDescriptor: Bool, name: String, prefix: [UInt8] = [], encoding: TextEncoding?, copy: Int32) throws {
        self.name = name
        source = DescriptorReader(descriptor: descriptor, name: name, copy: copy)
        self.ownsDescriptor = ownsDescriptor
        if !prefix.isEmpty {
            try prefix.withUnsafeBytes { try source.writeCopy($0) }
            buffer = prefix + [UInt8](repeating: 0, count: max(1 << 16, prefix.count))
            end = prefix.count
        }
        try decode(encoding)
    }

    private init(descriptor: Int32, ownsDescriptor: Bool, name: String) {
        self.name = name
        source = DescriptorReader(descriptor: descriptor, name: name)
        self.ownsDescriptor = ownsDescriptor
    }

    /// Hands the input to a `Transcoder` unless it is UTF-8: `encoding`, or with none, the byte
    /// order mark it starts with (UTF-16 or UTF-32), or UTF-16 with no mark when its first (up to 8) characters are
    /// ASCII and every other byte is zero, as `bcp -w` and other Windows tools write it.
    private func decode(_ given: TextEncoding?) throws {
        var encoding = given
        if encoding == nil {
            _ = try refill(minimum: 16)
            let start = buffer[position..<end]
            if start.starts(with: [0xFF, 0xFE, 0, 0]) {
                (encoding, position) = (TextEncoding(known: "UTF-32LE"), position + 4)
            } else if start.starts(with: [0, 0, 0xFE, 0xFF]) {
                (encoding, position) = (TextEncoding(known: "UTF-32BE"), position + 4)
            } else if start.starts(with: [0xFF, 0xFE]) {
                (encoding, position) = (.utf16LittleEndian, position + 2)
            } else if start.starts(with: [0xFE, 0xFF]) {
                (encoding, position) = (.utf16BigEndian, position + 2)
            } else if start.count >= 4 {
                let units = stride(from: position, to: position + min(start.count, 16) - 1, by: 2).map { (buffer[$0], buffer[$0 + 1]) }
                if units.allSatisfy({ $0.0 != 0 && $0.0 < 0x80 && $0.1 == 0 }) { encoding = .utf16LittleEndian }
                if units.allSatisfy({ $0.0 == 0 && $0.1 != 0 && $0.1 < 0x80 }) { encoding = .utf16BigEndian }
            }
        }
        guard let encoding, !encoding.isUTF8 else { return }
        // The bytes already buffered are the transcoder's to convert.
        transcoder = try Transcoder(encoding: encoding, source: atEnd ? nil : source, name: name,
                                    pending: buffer[position..<end], offset: Int64(position))
        position = 0
        end = 0
        atEnd = false
    }

    /// Reads `bytes` held in memory; `name` is used in errors.
    public init(bytes: [UInt8], name: String) {
        source = DescriptorReader(descriptor: -1, name: name)
        ownsDescriptor = false
        self.name = name
        buffer = bytes
        end = bytes.count
        atEnd = true
    }

    deinit { if ownsDescriptor { close(source.descriptor) } }

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
        guard fstat(source.descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
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

    /// Appends the bytes up to the next line feed to `line` and consumes them with the line feed
    /// (the line feed is not appended); false, appending nothing, when the input is at its end.
    /// One `memchr` per buffer instead of a call per byte: JSON Lines are read this way.
    public func appendLine(to line: inout [UInt8]) throws -> Bool {
        if position == end {
            guard try refill() else { return false }
        }
        while true {
            let (stop, found) = buffer.withUnsafeBufferPointer { bytes -> (Int, Bool) in
                let start = bytes.baseAddress! + position
                guard let hit = memchr(start, 0x0A, end - position) else { return (end, false) }
                return (position + (UnsafeRawPointer(hit) - UnsafeRawPointer(start)), true)
            }
            line.append(contentsOf: buffer[position..<stop])
            let consumed = stop - position + (found ? 1 : 0)
            position += consumed
            bytesRead += Int64(consumed)
            if found { return true }
            guard try refill() else { return true }
        }
    }

    /// Moves up to `count` of the bytes left into `destination` and consumes them; how many,
    /// fewer only at the end of the input (0 there). Bytes already buffered come first; the
    /// rest of UTF-8 input is read straight into `destination` (no copy through this buffer):
    /// `DelimitedReader` scans its own large buffer this way.
    package func take(into destination: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
        var filled = 0
        while filled < count {
            if position < end {
                let moved = min(end - position, count - filled)
                buffer.withUnsafeBufferPointer { (destination + filled).update(from: $0.baseAddress! + position, count: moved) }
                position += moved
                filled += moved
                continue
            }
            if atEnd { break }
            if transcoder == nil {
                let read = try source.read(into: UnsafeMutableRawBufferPointer(start: destination + filled, count: count - filled))
                if read == 0 { atEnd = true }
                filled += read
            } else if try !refill() {
                break
            }
        }
        bytesRead += Int64(filled)
        return filled
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
                let free = UnsafeMutableRawBufferPointer(rebasing: bytes[end...])
                return try transcoder?.read(into: free) ?? source.read(into: free)
            }
            if count == 0 { atEnd = true }
            end += count
        }
        return end > position
    }
}

/// Reads a file descriptor, retrying when a signal interrupts, and writes what it reads to
/// `copy` too when there is one (the spool of an input that is read twice, `TextSource`).
struct DescriptorReader {
    /// The descriptor read.
    let descriptor: Int32
    /// The input's name, for errors.
    let name: String
    /// Where each byte read is written as well; -1 for nowhere.
    var copy: Int32 = -1

    /// Fills the start of `buffer`; the count, 0 at the end of the input.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = SystemIO.read(descriptor, buffer.baseAddress!, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ReaderError(.io, file: name, "cannot read: \(String(cString: strerror(errno)))")
            }
            try writeCopy(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            return count
        }
    }

    /// Writes `bytes` to `copy`, when there is one.
    func writeCopy(_ bytes: UnsafeRawBufferPointer) throws {
        guard copy >= 0 else { return }
        var written = 0
        while written < bytes.count {
            let result = write(copy, bytes.baseAddress! + written, bytes.count - written)
            if result < 0 && errno != EINTR {
                throw ReaderError(.io, file: name, "cannot copy to a temporary file to read it twice: \(String(cString: strerror(errno)))")
            }
            written += max(result, 0)
        }
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
