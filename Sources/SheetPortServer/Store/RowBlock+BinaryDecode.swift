import Foundation
import SheetPortCore
import SheetPortConvert

/// A binary block (`RowBlock.binaryFormat`) read back: its string and style tables (slices of
/// the payload) and its rows with their typed cells. Every count, length and index is checked
/// against the bytes, so a hostile payload is refused (`RowBlock.FormatError`), never read past.
struct BinaryBlock {
    /// One cell: the tag's members, strings and styles as table indexes.
    struct BlockCell {
        var tag: UInt8
        var column = 0
        var number = 0.0
        var integer: Int64 = 0
        var text = 0
        var formula = 0
        var arrayRange = 0
        var style = 0
        var input = 0

        var kind: RowBlock.Kind { RowBlock.Kind(rawValue: tag & RowBlock.Tag.kindMask) ?? .empty }
        func has(_ bit: UInt8) -> Bool { tag & bit != 0 }
    }

    struct BlockRow {
        var row: Int
        var height: Double?
        var isHidden: Bool
        var cells: [BlockCell]
    }

    let payload: [UInt8]
    private(set) var strings: [Range<Int>] = []
    private(set) var styles: [Range<Int>] = []
    private(set) var rows: [BlockRow] = []
    /// Whether a cell is a line kept whole.
    private(set) var hasRawLines = false

    /// Decodes the payload of a binary block (the bytes after the format byte, decompressed).
    init(payload: [UInt8]) throws {
        self.payload = payload
        var reader = ByteReader(payload, what: "a binary block")
        func table() throws -> [Range<Int>] {
            let entries = try reader.count(limit: reader.remaining)
            var ranges: [Range<Int>] = []
            ranges.reserveCapacity(entries)
            for _ in 0..<entries { ranges.append(try reader.span()) }
            return ranges
        }
        strings = try table()
        styles = try table()
        func string() throws -> Int { try reader.count(limit: strings.count - 1) }
        let rowCount = try reader.count(limit: reader.remaining)
        rows.reserveCapacity(rowCount)
        var previousRow: Int64 = 0
        for _ in 0..<rowCount {
            let row = previousRow &+ (try reader.signed())
            guard row >= 1, row <= Int64(ServerConfiguration.maxRows) else { throw RowBlock.FormatError(message: "a binary block holds row \(row)") }
            previousRow = row
            let flags = try reader.byte(inside: "a row")
            let height = flags & 1 != 0 ? try reader.double() : nil
            let cellCount = try reader.count(limit: reader.remaining)
            var cells: [BlockCell] = []
            cells.reserveCapacity(cellCount)
            var previousColumn: Int64 = 0
            for _ in 0..<cellCount {
                var cell = BlockCell(tag: try reader.byte(inside: "a cell"))
                if cell.has(RowBlock.Tag.raw) {
                    cell.text = try string()
                    hasRawLines = true
                    cells.append(cell)
                    continue
                }
                let column = previousColumn &+ (try reader.signed())
                guard column >= 1, column <= 16_384 else { throw RowBlock.FormatError(message: "a binary block holds column \(column)") }
                previousColumn = column
                cell.column = Int(column)
                switch cell.kind {
                case .double: cell.number = try reader.double()
                case .integer: cell.integer = try reader.signed()
                case .string, .error, .date: cell.text = try string()
                case .empty, .isFalse, .isTrue: break
                }
                if cell.has(RowBlock.Tag.formula) { cell.formula = try string() }
                if cell.has(RowBlock.Tag.arrayRange) { cell.arrayRange = try string() }
                if cell.has(RowBlock.Tag.style) { cell.style = try reader.count(limit: styles.count - 1) }
                if cell.has(RowBlock.Tag.input) { cell.input = try string() }
                cells.append(cell)
            }
            rows.append(BlockRow(row: Int(row), height: height, isHidden: flags & 2 != 0, cells: cells))
        }
        guard reader.remaining == 0 else { throw RowBlock.FormatError(message: "a binary block has bytes after its rows") }
    }

    func string(_ index: Int) -> ArraySlice<UInt8> { payload[strings[index]] }

    /// String `index` unescaped (the table keeps JSON's escapes); nil when it is not JSON text.
    func text(_ index: Int) -> String? {
        let bytes = string(index)
        guard bytes.contains(UInt8(ascii: "\\")) else { return String(decoding: bytes, as: UTF8.self) }
        let quoted = [UInt8(ascii: "["), UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\""), UInt8(ascii: "]")]
        return (try? JSONSerialization.jsonObject(with: Data(quoted)) as? [String])?.first
    }
    func style(_ index: Int) -> ArraySlice<UInt8> { payload[styles[index]] }

    /// The cell's stored line: the JSON object the text formats held.
    func line(_ cell: BlockCell, row: Int) -> [UInt8] {
        if cell.has(RowBlock.Tag.raw) { return Array(string(cell.text)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(96)
        bytes += Literal.column
        bytes += String(cell.column).utf8
        bytes += Literal.input
        if cell.has(RowBlock.Tag.input) {
            bytes += string(cell.input)
        } else if cell.has(RowBlock.Tag.formula) {
            bytes.append(UInt8(ascii: "="))
            bytes += string(cell.formula)
        } else {
            switch cell.kind {
            case .double: bytes += ValueText.number(cell.number).utf8
            case .integer: bytes += String(cell.integer).utf8
            case .string, .error: bytes += string(cell.text)
            case .isTrue: bytes += "TRUE".utf8
            case .isFalse: bytes += "FALSE".utf8
            case .date, .empty: break
            }
        }
        bytes += Literal.reference
        bytes += CellReference.columnName(cell.column).utf8
        bytes += String(row).utf8
        bytes += Literal.type
        switch cell.kind {
        case .double: bytes += Literal.number; bytes += ValueText.number(cell.number).utf8
        case .integer: bytes += Literal.number; bytes += String(cell.integer).utf8
        case .string: bytes += Literal.string; bytes += string(cell.text); bytes.append(UInt8(ascii: "\""))
        case .error: bytes += Literal.error; bytes += string(cell.text); bytes.append(UInt8(ascii: "\""))
        case .date: bytes += Literal.date; bytes += string(cell.text); bytes.append(UInt8(ascii: "\""))
        case .isTrue: bytes += Literal.isTrue
        case .isFalse: bytes += Literal.isFalse
        case .empty: bytes += Literal.empty
        }
        if cell.has(RowBlock.Tag.formula) {
            bytes += Literal.formula
            bytes += string(cell.formula)
            bytes.append(UInt8(ascii: "\""))
        }
        if cell.has(RowBlock.Tag.arrayRange) {
            bytes += Literal.arrayRange
            bytes += string(cell.arrayRange)
            bytes.append(UInt8(ascii: "\""))
        }
        if cell.has(RowBlock.Tag.style) {
            bytes += Literal.style
            bytes += style(cell.style)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// The rows as the text formats' entries (each cell's stored line).
    var entries: [RowBlock.Entry] { entries { _, _ in } }

    /// The entries, each typed cell's line registered in `typed` with the cell.
    func entries(typed: inout RowBlock.TypedLines) -> [RowBlock.Entry] {
        var entries: [RowBlock.Entry] = []
        typed.add(self) { register in entries = self.entries(register) }
        return entries
    }

    /// The entries, `each` called with every cell's line and the cell.
    private func entries(_ each: (ArraySlice<UInt8>, BlockCell) -> Void) -> [RowBlock.Entry] {
        rows.map { row in
            RowBlock.Entry(row: row.row, height: row.height, isHidden: row.isHidden, cells: row.cells.map { cell in
                let line = ArraySlice(line(cell, row: row.row))
                each(line, cell)
                return line
            })
        }
    }

    /// The entries with only the cells of `columns` (and lines kept whole, whose column is not known here).
    func entries(columns: Set<Int>) -> [RowBlock.Entry] {
        rows.map { row in
            RowBlock.Entry(row: row.row, height: row.height, isHidden: row.isHidden,
                           cells: row.cells.compactMap { cell in
                               cell.has(RowBlock.Tag.raw) || columns.contains(cell.column) ? ArraySlice(line(cell, row: row.row)) : nil
                           })
        }
    }

    private enum Literal {
        static let column = Array("{\"col\":".utf8)
        static let input = Array(",\"input\":\"".utf8)
        static let reference = Array("\",\"ref\":\"".utf8)
        static let type = Array("\",\"type\":".utf8)
        static let number = Array("\"number\",\"value\":".utf8)
        static let string = Array("\"string\",\"value\":\"".utf8)
        static let error = Array("\"error\",\"value\":\"".utf8)
        static let date = Array("\"date\",\"value\":\"".utf8)
        static let isTrue = Array("\"boolean\",\"value\":true".utf8)
        static let isFalse = Array("\"boolean\",\"value\":false".utf8)
        static let empty = Array("\"empty\",\"value\":null".utf8)
        static let formula = Array(",\"formula\":\"".utf8)
        static let arrayRange = Array(",\"arrayRange\":\"".utf8)
        static let style = Array(",\"style\":".utf8)
    }
}
