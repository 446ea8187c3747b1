/// How a history entry's plaintext is kept before it is sealed (issue 35, attack 7): a write's
/// entries hold each cell before and after, so a copy of one long text over a range repeated
/// it in every entry. An entry written now is zstd-compressed behind a format byte when that
/// makes it smaller (`0x01`, as a row block's: `RowBlock.compress`); one written before, or one
/// too small to gain, is its JSON text, which starts with `{` and so never with the format byte.
extension CellHistory {
    /// The format byte of a compressed entry.
    static let zstdFormat: UInt8 = 0x01

    /// Why a stored entry's plaintext could not be read.
    struct FormatError: Error, CustomStringConvertible {
        var message: String
        var description: String { "cell history: \(message)" }
    }

    /// The plaintext to seal for an entry's JSON text: compressed when that is smaller.
    static func packed(_ json: [UInt8]) -> [UInt8] {
        let compressed = RowBlock.compress(json, format: zstdFormat)
        return compressed.count < json.count ? compressed : json
    }

    /// An entry's JSON text from its opened plaintext, compressed or as written before.
    static func unpacked(_ plaintext: [UInt8]) throws -> [UInt8] {
        guard let format = plaintext.first, format != UInt8(ascii: "{") else { return plaintext }
        guard format == zstdFormat else { throw FormatError(message: "unknown format byte \(format)") }
        do {
            return try RowBlock.decompress(plaintext)
        } catch let error as RowBlock.FormatError {
            throw FormatError(message: error.message)
        }
    }
}
