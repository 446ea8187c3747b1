#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore

/// A text input's character encoding, by any name glibc's iconv knows (`cp1252`, `latin1`,
/// `utf-16`, `shift_jis`, ...); the text is converted to UTF-8 as it is read.
public struct TextEncoding: Sendable, Equatable, CustomStringConvertible {
    /// The name as given.
    public let name: String

    /// The encoding called `name`, nil when iconv cannot convert it to UTF-8. Names are made of
    /// letters, digits and `-_.:+()`: iconv's `//IGNORE` and `//TRANSLIT` suffixes, which would
    /// hide invalid bytes, are not names.
    public init?(_ name: String) {
        guard !name.isEmpty, name.utf8.count <= 64,
              name.utf8.allSatisfy({ ASCII.isDigit($0) || (0x61...0x7A).contains($0 | 0x20) || "-_.:+()".utf8.contains($0) }) else { return nil }
        guard let converter = Self.open(name) else { return nil }
        iconv_close(converter)
        self.name = name
    }

    /// An encoding iconv is known to have.
    init(known name: String) { self.name = name }

    /// UTF-16, little-endian (a file starting with `FF FE`).
    static let utf16LittleEndian = TextEncoding(known: "UTF-16LE")
    /// UTF-16, big-endian (a file starting with `FE FF`).
    static let utf16BigEndian = TextEncoding(known: "UTF-16BE")

    /// Whether this is UTF-8 itself, which is read as it is, with no conversion.
    var isUTF8: Bool { ["UTF8", "UTF-8"].contains(name.uppercased()) }

    /// The name.
    public var description: String { name }

    /// An iconv converter from `name` to UTF-8, nil when there is none.
    static func open(_ name: String) -> iconv_t? {
        let converter = iconv_open("UTF-8", name)
        return converter == iconv_t(bitPattern: -1) ? nil : converter
    }
}

/// Reads a descriptor's bytes in an encoding and hands them on as UTF-8, converted by iconv a
/// chunk at a time. Invalid bytes, or input that ends inside a character, are a
/// `TextInputError` with the line (of the text converted so far) and the byte offset.
final class Transcoder {
    private let converter: iconv_t
    private let encoding: TextEncoding
    private let source: DescriptorReader?
    private let name: String
    private var raw = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var atEnd = false
    /// The input's bytes converted so far, counted from the start of the input.
    private(set) var offset: Int64
    private var line = 1
    private var afterCarriageReturn = false

    /// Converts `pending` (bytes already read, which start at byte `offset` of the input) and
    /// then what `source` holds, if anything.
    init(encoding: TextEncoding, source: DescriptorReader?, name: String, pending: ArraySlice<UInt8>, offset: Int64) throws {
        guard let converter = TextEncoding.open(encoding.name) else {
            throw TextInputError(file: name, line: 1, "iconv cannot convert \(encoding) to UTF-8")
        }
        self.converter = converter
        self.encoding = encoding
        self.source = source
        self.name = name
        self.offset = offset
        raw.replaceSubrange(0..<pending.count, with: pending)
        end = pending.count
        atEnd = source == nil
    }

    deinit { iconv_close(converter) }

    /// Fills `output` (at least 4 bytes) with UTF-8; 0 at the end of the input.
    func read(into output: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            if start == end && !atEnd { try fill() }
            if start == end && atEnd {
                // Ends a stateful encoding's shift state; nothing is left to convert.
                var outPointer = output.baseAddress?.assumingMemoryBound(to: CChar.self)
                var outLeft = output.count
                _ = iconv(converter, nil, nil, &outPointer, &outLeft)
                return output.count - outLeft
            }
            let (produced, failure) = convert(into: output)
            if produced > 0 {
                countLines(UnsafeRawBufferPointer(rebasing: output[0..<produced]))
                return produced // a failure recurs on the next call, at the same place
            }
            switch failure {
            case EILSEQ?:
                let bytes = raw[start..<min(end, start + 4)].map { "0x" + String($0, radix: 16, uppercase: true).leftPadded(to: 2) }
                throw TextInputError(file: name, line: line,
                                     "the text is not valid \(encoding) at byte offset \(offset) (\(bytes.joined(separator: " ")))")
            case EINVAL? where atEnd:
                throw TextInputError(file: name, line: line, "the input ends inside a \(encoding) character at byte offset \(offset)")
            case EINVAL?:
                try fill() // the next bytes complete the character
            case let other?:
                throw TextInputError(file: name, line: line, "cannot convert from \(encoding): \(String(cString: strerror(other)))")
            case nil:
                continue
            }
        }
    }

    /// One iconv call; the bytes produced and the errno it stopped on, if any.
    private func convert(into output: UnsafeMutableRawBufferPointer) -> (Int, Int32?) {
        raw.withUnsafeMutableBytes { rawBytes in
            var inPointer = rawBytes.baseAddress.map { ($0 + start).assumingMemoryBound(to: CChar.self) }
            var inLeft = end - start
            var outPointer = output.baseAddress?.assumingMemoryBound(to: CChar.self)
            var outLeft = output.count
            let result = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
            let failure = result == -1 ? errno : nil
            let consumed = end - start - inLeft
            start += consumed
            offset += Int64(consumed)
            return (output.count - outLeft, failure == E2BIG ? nil : failure)
        }
    }

    /// Reads more of the input behind what is left unconverted.
    private func fill() throws {
        if start > 0 {
            raw.replaceSubrange(0..<(end - start), with: raw[start..<end])
            end -= start
            start = 0
        }
        guard let source, !atEnd, end < raw.count else { return }
        let count = try raw.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[end...])) }
        if count == 0 { atEnd = true }
        end += count
    }

    /// Counts line ends (CRLF, LF or CR) in converted text, for errors.
    private func countLines(_ text: UnsafeRawBufferPointer) {
        for byte in text {
            if byte == 0x0A { if !afterCarriageReturn { line += 1 } }
            else if byte == 0x0D { line += 1 }
            afterCarriageReturn = byte == 0x0D
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
