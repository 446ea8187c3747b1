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
        let sink = ByteSink(capacity: 128)
        putLine(cell, row: row, into: sink)
        return Array(sink.bytes)
    }

    /// Appends the cell's stored line to `sink` (numbers, columns and rows written as digits,
    /// no `String` per member: a write decodes every cell of each block it touches).
    func putLine(_ cell: BlockCell, row: Int, into sink: ByteSink) {
        if cell.has(RowBlock.Tag.raw) { return put(string: cell.text, into: sink) }
        sink.put(Literal.column)
        sink.putDecimal(Int64(cell.column))
        sink.put(Literal.input)
        if cell.has(RowBlock.Tag.input) {
            put(string: cell.input, into: sink)
        } else if cell.has(RowBlock.Tag.formula) {
            sink.put(UInt8(ascii: "="))
            put(string: cell.formula, into: sink)
        } else {
            switch cell.kind {
            case .double: sink.putNumber(cell.number)
            case .integer: sink.putDecimal(cell.integer)
            case .string, .error: put(string: cell.text, into: sink)
            case .isTrue: sink.put("TRUE" as StaticString)
            case .isFalse: sink.put("FALSE" as StaticString)
            case .date, .empty: break
            }
        }
        sink.put(Literal.reference)
        sink.putColumnName(cell.column)
        sink.putDecimal(Int64(row))
        sink.put(Literal.type)
        switch cell.kind {
        case .double: sink.put(Literal.number); sink.putNumber(cell.number)
        case .integer: sink.put(Literal.number); sink.putDecimal(cell.integer)
        case .string: sink.put(Literal.string); put(string: cell.text, into: sink); sink.put(UInt8(ascii: "\""))
        case .error: sink.put(Literal.error); put(string: cell.text, into: sink); sink.put(UInt8(ascii: "\""))
        case .date: sink.put(Literal.date); put(string: cell.text, into: sink); sink.put(UInt8(ascii: "\""))
        case .isTrue: sink.put(Literal.isTrue)
        case .isFalse: sink.put(Literal.isFalse)
        case .empty: sink.put(Literal.empty)
        }
        if cell.has(RowBlock.Tag.formula) {
            sink.put(Literal.formula)
            put(string: cell.formula, into: sink)
            sink.put(UInt8(ascii: "\""))
        }
        if cell.has(RowBlock.Tag.arrayRange) {
            sink.put(Literal.arrayRange)
            put(string: cell.arrayRange, into: sink)
            sink.put(UInt8(ascii: "\""))
        }
        if cell.has(RowBlock.Tag.style) {
            sink.put(Literal.style)
            put(payload: styles[cell.style], into: sink)
        }
        sink.put(UInt8(ascii: "}"))
    }

    private func put(string index: Int, into sink: ByteSink) { put(payload: strings[index], into: sink) }

    private func put(payload range: Range<Int>, into sink: ByteSink) {
        payload.withUnsafeBufferPointer { sink.put(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The rows as the text formats' entries (each cell's stored line).
    var entries: [RowBlock.Entry] { lines { _ in true }.entries }

    /// The entries, each typed cell's line registered in `typed` with the cell.
    func entries(typed: inout RowBlock.TypedLines) -> [RowBlock.Entry] {
        let lines = lines { _ in true }
        typed.add(self, lines: lines.buffer, ranges: lines.ranges, cells: lines.cells)
        return lines.entries
    }

    /// The entries with only the cells of `columns` (and lines kept whole, whose column is not known here).
    func entries(columns: Set<Int>) -> [RowBlock.Entry] {
        lines { $0.has(RowBlock.Tag.raw) || columns.contains($0.column) }.entries
    }

    /// The entries with the lines of the cells `keep` answers true for, all rendered into one
    /// buffer their slices share (one allocation per block, not one per cell); with that
    /// buffer, where each typed cell's line is in it (ascending) and those cells.
    private func lines(keeping keep: (BlockCell) -> Bool) -> (entries: [RowBlock.Entry], buffer: [UInt8], ranges: [Range<Int>], cells: [BlockCell]) {
        let sink = ByteSink(capacity: payload.count * 3 + 64)
        var bounds: [Int] = [0]
        for row in rows {
            for cell in row.cells where keep(cell) {
                putLine(cell, row: row.row, into: sink)
                bounds.append(sink.count)
            }
        }
        let buffer = Array(sink.bytes)
        var ranges: [Range<Int>] = [], cells: [BlockCell] = []
        var next = 0
        let entries = rows.map { row in
            var lines: [ArraySlice<UInt8>] = []
            lines.reserveCapacity(row.cells.count)
            for cell in row.cells where keep(cell) {
                lines.append(buffer[bounds[next]..<bounds[next + 1]])
                if !cell.has(RowBlock.Tag.raw) {
                    ranges.append(bounds[next]..<bounds[next + 1])
                    cells.append(cell)
                }
                next += 1
            }
            return RowBlock.Entry(row: row.row, height: row.height, isHidden: row.isHidden, cells: lines)
        }
        return (entries, buffer, ranges, cells)
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
