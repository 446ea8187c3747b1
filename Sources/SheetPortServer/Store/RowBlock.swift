import SheetPortConvert
import SheetPortCore
import SheetPortReader
/// The plaintext of one sealed block of rows (`RowBlock.rowsPerBlock` rows of the grid): per
/// row a header line `#ROW HEIGHT HIDDEN` (`-` for no height), then one line per cell, each
/// the cell's API object, which is also a cell JSONL object of Docs/Reference/Formats.md:
/// `{"col":2,"input":"=A2*2","ref":"B2","type":"number","value":3,"formula":"A2*2","style":{..}}`.
/// Stored typed and compressed (`RowBlock+Binary.swift`); these lines are what the binary form
/// reads back as, and what blocks of the earlier formats hold.
package struct RowBlock {
    /// Rows per block: block `b` holds rows `b*64+1 ... b*64+64`.
    package static let rowsPerBlock = 64

    /// One row of a block.
    package struct Entry {
        /// The 1-based row number.
        package var row: Int
        /// The row's height in points, when it sets one.
        package var height: Double?
        /// Whether the row is hidden.
        package var isHidden: Bool
        /// Each cell's JSON object.
        package var cells: [ArraySlice<UInt8>]
    }

    /// The block a row is in.
    package static func block(of row: Int) -> Int { (row - 1) / rowsPerBlock }

    /// The header line of a row.
    package static func header(row: Int, height: Double?, isHidden: Bool) -> [UInt8] {
        Array("#\(row) \(height.map(ValueText.number) ?? "-") \(isHidden ? 1 : 0)\n".utf8)
    }

    /// Parses a block's plaintext, in either format (`RowBlock.stored(_:)`); a block that
    /// cannot be read (a bug: the seal authenticated it) is logged on standard error and has no rows.
    package static func entries(_ bytes: [UInt8]) -> [Entry] {
        do {
            return try entries(stored: bytes)
        } catch {
            ServerLog.standardError.write("\(error)")
            return []
        }
    }

    /// The rows of a block's plaintext with, of a binary block, only the cells of `columns`
    /// (and any line kept whole); a block of an earlier format has all its cells.
    package static func entries(stored bytes: [UInt8], columns: Set<Int>) throws -> [Entry] {
        if bytes.first == binaryFormat { return try BinaryBlock(payload: decompress(bytes)).entries(columns: columns) }
        return entries(text: try text(bytes))
    }

    /// Parses a block's plaintext, in any format, throwing when it cannot be read.
    package static func entries(stored bytes: [UInt8]) throws -> [Entry] {
        if bytes.first == binaryFormat { return try BinaryBlock(payload: decompress(bytes)).entries }
        return entries(text: try text(bytes))
    }

    /// Parses a block's plaintext, in any format, registering in `typed` the lines a binary
    /// block holds typed (for `binary` to encode them again without reading them).
    package static func entries(stored bytes: [UInt8], typed: inout TypedLines) throws -> [Entry] {
        if bytes.first == binaryFormat { return try BinaryBlock(payload: decompress(bytes)).entries(typed: &typed) }
        return entries(text: try text(bytes))
    }

    /// The row a header line `#ROW HEIGHT HIDDEN` opens (read as bytes: a write rereads every
    /// row of each block it touches). A malformed field reads as 0, no height, not hidden.
    static func header(_ line: ArraySlice<UInt8>) -> Entry {
        let fields = line.dropFirst().split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
        var row = 0
        if let digits = fields.first, !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            row = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        var height: Double?
        if fields.count > 1, !fields[1].elementsEqual("-".utf8) { height = Double(String(decoding: fields[1], as: UTF8.self)) }
        return Entry(row: row, height: height, isHidden: fields.count > 2 && fields[2].elementsEqual("1".utf8), cells: [])
    }

    /// A row as the API shows it: `{"row":N,"height":H,"cells":[...]}`.
    package static func apiJSON(_ entry: Entry) -> [UInt8] {
        var bytes = Array("{\"row\":\(entry.row),\"height\":\(entry.height.map(ValueText.number) ?? "null")".utf8)
        if entry.isHidden { bytes += Array(",\"hidden\":true".utf8) }
        bytes += Array(",\"cells\":[".utf8)
        for (index, cell) in entry.cells.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += cell
        }
        bytes += Array("]}".utf8)
        return bytes
    }

    /// The associated data sealing block `block` of `sheet`.
    package static func context(sheet: String, block: Int) -> [UInt8] { Sealer.context("rows", sheet, block) }
}
