import CZstd
import SheetPortCore

/// How a row block is kept before it is sealed (issue 26). A block's plaintext used to be its
/// text lines alone (`#ROW ...` headers and cell objects); a block written now starts with a
/// format byte, which a text block never does (it starts with `#`):
///
/// - `0x01`: the text lines compressed with zstd (level 1): one frame, its content size in the
///   frame header. zstd was measured against deflate on the blocks of the benchmark sheet
///   (Benchmarks/RESULTS.md, "Row blocks"): level 1 made them 13.6x smaller, deflate level 6
///   9.4x, and zstd compressed about ten times and decompressed about twice as fast.
///
/// `RowBlock.entries(stored:)` reads both, so blocks written by an earlier version (or by code that
/// still seals the text lines itself) stay readable; `RowBlock.stored(_:)` makes the bytes to seal.
extension RowBlock {
    /// The format byte of a zstd-compressed block.
    package static let zstdFormat: UInt8 = 0x01
    /// zstd's level for blocks: its fastest, which on 50 KB blocks of cell objects also came
    /// out smaller than its default (3).
    static let zstdLevel: Int32 = 1
    /// The most bytes a block's text may take once decompressed (a block is 64 rows: far less).
    static let maxPlaintextBytes = 256 << 20

    /// Why a stored block could not be read.
    package struct FormatError: Error, CustomStringConvertible {
        /// What is wrong.
        package var message: String
        package var description: String { "row block: \(message)" }
    }

    /// The bytes to seal for a block whose text lines are `text`: the format byte and the
    /// compressed text.
    package static func stored(_ text: [UInt8]) -> [UInt8] {
        let bound = ZSTD_compressBound(text.count)
        var output = [UInt8](repeating: 0, count: 1 + bound)
        output[0] = zstdFormat
        let written = output.withUnsafeMutableBytes { out in
            text.withUnsafeBytes { input in
                ZSTD_compress(out.baseAddress! + 1, bound, input.baseAddress, input.count, zstdLevel)
            }
        }
        // Compressing into a buffer of the bound cannot fail; should it, the text is stored as it is.
        guard ZSTD_isError(written) == 0 else { return text }
        output.removeSubrange((1 + written)...)
        return output
    }

    /// The text lines of an unsealed block in either format.
    package static func text(_ stored: [UInt8]) throws -> [UInt8] {
        guard let format = stored.first, format != UInt8(ascii: "#") else { return stored } // text, as written before
        guard format == zstdFormat else { throw FormatError(message: "unknown format byte \(format)") }
        return try stored.withUnsafeBytes { raw -> [UInt8] in
            let frame = UnsafeRawBufferPointer(rebasing: raw[1...])
            let size = ZSTD_getFrameContentSize(frame.baseAddress, frame.count)
            guard size != ZSTD_CONTENTSIZE_ERROR, size != ZSTD_CONTENTSIZE_UNKNOWN, size <= UInt64(maxPlaintextBytes) else {
                throw FormatError(message: "a zstd frame without a valid content size")
            }
            var text = [UInt8](repeating: 0, count: Int(size))
            let read = text.withUnsafeMutableBytes { ZSTD_decompress($0.baseAddress, $0.count, frame.baseAddress, frame.count) }
            guard ZSTD_isError(read) == 0, read == Int(size) else {
                throw FormatError(message: "zstd: \(ZSTD_isError(read) != 0 ? String(cString: ZSTD_getErrorName(read)) : "short frame")")
            }
            return text
        }
    }
}
