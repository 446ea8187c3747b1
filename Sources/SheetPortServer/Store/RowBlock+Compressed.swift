/// How a row block is kept before it is sealed (issue 26). A block's plaintext used to be its
/// text lines alone (`#ROW ...` headers and cell objects); a block written now starts with a
/// format byte, which a text block never does (it starts with `#`):
///
/// - `0x01`: the text lines compressed with zstd (level 1): one frame, its content size in the
///   frame header. zstd was measured against deflate on the blocks of the benchmark sheet
///   (Benchmarks/RESULTS.md, "Row blocks"): level 1 made them 13.6x smaller, deflate level 6
///   9.4x, and zstd compressed about ten times and decompressed about twice as fast.
///
/// - `0x02`: typed binary (`RowBlock+Binary.swift`), what `RowBlock.stored(_:)` writes now.
///
/// `RowBlock.entries(stored:)` reads all three, so blocks written by an earlier version stay
/// readable until `RowBlockMigration` rewrites them.
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

    /// A block in the previous format, its text lines compressed (tests write one; the
    /// server writes `stored(_:)`, the binary format).
    package static func compressed(_ text: [UInt8]) -> [UInt8] { compress(text, format: zstdFormat) }

    /// The text lines of an unsealed block in any format.
    package static func text(_ stored: [UInt8]) throws -> [UInt8] {
        guard let format = stored.first, format != UInt8(ascii: "#") else { return stored } // text, as written before
        if format == binaryFormat { return encode(try BinaryBlock(payload: decompress(stored)).entries) }
        guard format == zstdFormat else { throw FormatError(message: "unknown format byte \(format)") }
        return try decompress(stored)
    }
}
