#if canImport(Glibc)
import Glibc
#endif
import CZlib
import CZstd
import SheetPortCore
import SheetPortReader
import SheetPortWriter

/// A gzip or zstd compressed text input (`data.csv.gz`, `events.jsonl.zst`), told by its
/// content, decompressed here (where the C libraries may be linked, not in SheetPortConvert)
/// as it streams into a private temporary file that the text reader then reads like any file,
/// removed when released and on signals. Memory is two buffers whatever the size; the
/// inflated size is capped as a package's is (`--max-total-size`, and past 256 MiB the
/// expansion ratio of `--min-inflate-ratio`): a bomb stops at the cap.
final class CompressedInput {
    /// The two formats read.
    enum Compression: String {
        case gzip, zstd

        /// The format the first bytes of an input show, if any.
        static func of(_ prefix: [UInt8]) -> Compression? {
            if prefix.starts(with: [0x1F, 0x8B]) { return .gzip }
            if prefix.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) { return .zstd }
            return nil
        }

        /// The format a file name's extension says, if any.
        static func named(_ path: String) -> Compression? {
            switch ConvertCommand.extensionOf(path) {
            case "gz", "gzip": .gzip
            case "zst", "zstd": .zstd
            default: nil
            }
        }
    }

    /// What a binary input's first bytes say it is, for the refusal: `bzip2 data`, `a PDF document`.
    static func formatName(_ prefix: [UInt8]) -> String? {
        let signatures: [([UInt8], String)] = [
            ([0x1F, 0x8B], "gzip data"), ([0x28, 0xB5, 0x2F, 0xFD], "zstd data"), ([0x42, 0x5A, 0x68], "bzip2 data"),
            ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "xz data"), ([0x04, 0x22, 0x4D, 0x18], "lz4 data"),
            ([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], "a 7-Zip archive"), ([0x50, 0x4B, 0x03, 0x04], "a zip archive"),
            ([0x25, 0x50, 0x44, 0x46], "a PDF document"), ([0x89, 0x50, 0x4E, 0x47], "a PNG image"),
            ([0x7F, 0x45, 0x4C, 0x46], "an ELF executable"), ([0x50, 0x41, 0x52, 0x31], "a Parquet file"),
        ]
        return signatures.first { prefix.starts(with: $0.0) }?.1
    }

    /// The decompressed copy.
    let path: String
    /// The input's name without the compression's extension (`data.csv` for `data.csv.gz`),
    /// which tells the text format and names the sheet.
    let name: String
    private let folder: TemporaryFolder
    private let slot: Int

    /// Decompresses `input` (`-` for standard input, whose first bytes `prefix` already took).
    init(_ input: String, compression: Compression, prefix: [UInt8]?, limits: ArchiveLimits) throws {
        let shown = input == "-" ? "<stdin>" : input
        var stripped = input == "-" ? "stdin" : input
        if Compression.named(stripped) != nil, let dot = stripped.lastIndex(of: ".") { stripped = String(stripped[..<dot]) }
        name = stripped
        let source = input == "-" ? 0 : open(input, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw ReaderError(.io, file: input, "cannot open: \(String(cString: strerror(errno)))") }
        defer { if source != 0 { close(source) } }
        folder = try TemporaryFolder()
        guard let (copy, descriptor) = TemporaryName.file(folder.path + "/input-XXXXXX") else {
            folder.remove()
            throw ReaderError(.io, file: shown, "cannot create a temporary file to decompress it into: \(String(cString: strerror(errno)))")
        }
        path = copy
        slot = PendingFiles.register(copy)
        defer { close(descriptor) }
        var reader = ChunkReader(descriptor: source, prefix: prefix ?? [], name: shown)
        var writer = Inflated(descriptor: descriptor, name: shown, compression: compression, limits: limits)
        switch compression {
        case .gzip: try Self.gunzip(&reader, into: &writer)
        case .zstd: try Self.unzstd(&reader, into: &writer)
        }
    }

    deinit {
        folder.remove()
        PendingFiles.unregister(slot)
    }

    /// Inflates every gzip member (concatenated ones too, as `gzip -d` does) into `writer`.
    private static func gunzip(_ reader: inout ChunkReader, into writer: inout Inflated) throws {
        var stream = z_stream()
        guard inflateInit2_(&stream, MAX_WBITS + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ReaderError(.io, file: writer.name, "zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: 1 << 18)
        var ended = false
        while let chunk = try reader.next() {
            try chunk.withUnsafeBufferPointer { input in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                while true {
                    if ended, stream.avail_in > 0 { inflateReset(&stream); ended = false } // the next member
                    let produced = try output.withUnsafeMutableBufferPointer { out -> Int in
                        stream.next_out = out.baseAddress
                        stream.avail_out = UInt32(out.count)
                        let status = inflate(&stream, Z_NO_FLUSH)
                        guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                            let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                            throw ReaderError(.corruptZip, file: writer.name, "not a sound gzip stream: \(reason)")
                        }
                        if status == Z_STREAM_END { ended = true }
                        return out.count - Int(stream.avail_out)
                    }
                    try writer.write(output, count: produced, compressedSoFar: reader.bytesRead)
                    if stream.avail_in == 0, produced < output.count { break }
                }
            }
        }
        guard ended else {
            throw ReaderError(.corruptZip, file: writer.name, "the gzip stream is truncated: it ends before its last member does")
        }
    }

    /// Decompresses every zstd frame into `writer`.
    private static func unzstd(_ reader: inout ChunkReader, into writer: inout Inflated) throws {
        guard let context = ZSTD_createDStream() else { throw ReaderError(.io, file: writer.name, "zstd could not start") }
        defer { ZSTD_freeDStream(context) }
        ZSTD_initDStream(context)
        var output = [UInt8](repeating: 0, count: ZSTD_DStreamOutSize())
        // 0 once a frame is complete; otherwise more input is due.
        var remaining = 1
        while let chunk = try reader.next() {
            try chunk.withUnsafeBufferPointer { input in
                var source = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
                while true {
                    let produced = try output.withUnsafeMutableBufferPointer { out -> Int in
                        var target = ZSTD_outBuffer(dst: out.baseAddress, size: out.count, pos: 0)
                        let result = ZSTD_decompressStream(context, &target, &source)
                        if ZSTD_isError(result) != 0 {
                            throw ReaderError(.corruptZip, file: writer.name, "not a sound zstd stream: \(String(cString: ZSTD_getErrorName(result)))")
                        }
                        remaining = result
                        return target.pos
                    }
                    try writer.write(output, count: produced, compressedSoFar: reader.bytesRead)
                    if source.pos == source.size, produced < output.count { break }
                }
            }
        }
        guard remaining == 0 else {
            throw ReaderError(.corruptZip, file: writer.name, "the zstd stream is truncated: it ends inside a frame")
        }
    }
}

/// The compressed bytes: the prefix already taken from standard input, then the rest.
private struct ChunkReader {
    let descriptor: Int32
    var prefix: [UInt8]
    let name: String
    private(set) var bytesRead: Int64 = 0

    init(descriptor: Int32, prefix: [UInt8], name: String) {
        self.descriptor = descriptor
        self.prefix = prefix
        self.name = name
    }

    /// The next bytes, nil at the end.
    mutating func next() throws -> [UInt8]? {
        if !prefix.isEmpty {
            defer { prefix = [] }
            bytesRead += Int64(prefix.count)
            return prefix
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw ReaderError(.io, file: name, "cannot read: \(String(cString: strerror(errno)))") }
            if count == 0 { return nil }
            bytesRead += Int64(count)
            return Array(chunk.prefix(count))
        }
    }
}

/// Where the inflated bytes go, with the bomb guard.
private struct Inflated {
    let descriptor: Int32
    let name: String
    let compression: CompressedInput.Compression
    let limits: ArchiveLimits
    private var written: Int64 = 0

    init(descriptor: Int32, name: String, compression: CompressedInput.Compression, limits: ArchiveLimits) {
        self.descriptor = descriptor
        self.name = name
        self.compression = compression
        self.limits = limits
    }

    mutating func write(_ bytes: [UInt8], count: Int, compressedSoFar: Int64) throws {
        guard count > 0 else { return }
        written += Int64(count)
        if written > limits.maxTotalSize {
            throw ReaderError(.zipBomb, file: name, "the \(compression.rawValue) stream inflates past \(limits.maxTotalSize) bytes "
                              + "(--max-total-size)")
        }
        if written > limits.ratioGraceSize, Double(written) > Double(max(compressedSoFar, 1)) * limits.maxExpansionRatio {
            throw ReaderError(.zipBomb, file: name, "the \(compression.rawValue) stream inflates \(written / max(compressedSoFar, 1)) times "
                              + "its compressed size, past the ratio of \(Int(limits.maxExpansionRatio)) (--min-inflate-ratio)")
        }
        var offset = 0
        while offset < count {
            let done = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, count - offset) }
            if done < 0, errno == EINTR { continue }
            guard done > 0 else {
                throw ReaderError(.io, file: name, "cannot write its decompressed copy: \(String(cString: strerror(errno)))")
            }
            offset += done
        }
    }
}
