import SheetPortCore
import SheetPortCalc
import SheetPortConvert
import Foundation
import SheetPortReader

/// Rows as the rows window shows them (`{"row":N,"height":H,"cells":[...]}`, each cell its
/// stored object with `display`, Docs/Reference/HTTP.md, "Cell objects"). A binary block's cells are rendered from
/// their typed values, the number format of each style of the block read once; a block of an
/// earlier format, or a cell kept whole, goes through `StoredCell.withDisplay` as before.
extension RowBlock {
    /// The API JSON of each row of `stored` within `rows`, in order, handed to `take` one row
    /// at a time as it is built (`take` answers false to stop: a window past its byte cap).
    package static func apiRows(stored: [UInt8], within rows: ClosedRange<Int>, _ take: (_ row: Int, _ json: [UInt8]) throws -> Bool) throws {
        guard stored.first == binaryFormat else {
            for var entry in try entries(stored: stored) where rows.contains(entry.row) {
                entry.cells = entry.cells.map { ArraySlice(StoredCell.withDisplay($0, row: entry.row)) }
                guard try take(entry.row, apiJSON(entry)) else { return }
            }
            return
        }
        let block = try BinaryBlock(payload: decompress(stored))
        var formats: [String?] = Array(repeating: nil, count: block.styles.count)
        for row in block.rows where rows.contains(row.row) {
            var bytes = Array("{\"row\":\(row.row),\"height\":\(row.height.map(ValueText.number) ?? "null")".utf8)
            if row.isHidden { bytes += Array(",\"hidden\":true".utf8) }
            bytes += Array(",\"cells\":[".utf8)
            for (index, cell) in row.cells.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                let line = block.line(cell, row: row.row)
                if cell.has(Tag.raw) {
                    bytes += StoredCell.withDisplay(line[...], row: row.row)
                    continue
                }
                let format = block.numberFormat(of: cell, cache: &formats)
                bytes += line.dropLast()
                bytes += Array(",\"display\":".utf8)
                bytes += Array(JSON.string(StoredCell.display(block.calcValue(cell), numberFormat: format)).text.utf8)
                bytes.append(UInt8(ascii: "}"))
            }
            bytes += Array("]}".utf8)
            guard try take(row.row, bytes) else { return }
        }
    }
}

extension BinaryBlock {
    /// A cell's number format (General without a style), each style's read once into `cache`
    /// (one slot per style of the block).
    func numberFormat(of cell: BlockCell, cache: inout [String?]) -> String {
        guard cell.has(RowBlock.Tag.style) else { return "General" }
        if cache[cell.style] == nil { cache[cell.style] = JSON.parseObject(Array(style(cell.style)))?["numFmt"] as? String ?? "General" }
        return cache[cell.style] ?? "General"
    }

    /// A cell's value as the engine holds it (`StoredCell`'s reading: dates as serials).
    func calcValue(_ cell: BlockCell) -> CalcValue {
        func text(_ index: Int) -> String { self.text(index) ?? "" }
        switch cell.kind {
        case .double: return .number(cell.number)
        case .integer: return .number(Double(cell.integer))
        case .string: return .text(text(cell.text))
        case .error: return .error(ExcelError(literal: text(cell.text)) ?? .value)
        case .isTrue: return .boolean(true)
        case .isFalse: return .boolean(false)
        case .empty: return .empty
        case .date:
            guard let dateTime = ExcelDateTime(iso: text(cell.text)) else { return .empty }
            return .number(dateTime.serial(in: StoredCell.dateSystem))
        }
    }
}
