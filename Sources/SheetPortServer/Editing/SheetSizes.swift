import SheetPortReader
import Foundation

/// Row heights and column widths as a write sets them, in the write's transaction (`SheetEdit.storing`): a row's
/// height in its row block's row header (a row with a height and no cell keeps its header), a
/// column's width in the sheet's sealed layout (its range split around it).
enum SheetSizes {
    /// Sets (nil: removes) the heights of rows, rewriting each block they are in once.
    static func setHeights(_ heights: [Int: Double?], _ edit: SheetEdit) {
        guard !heights.isEmpty else { return }
        edit.storing { try storeHeights(heights, edit) }
    }

    private static func storeHeights(_ heights: [Int: Double?], _ edit: SheetEdit) throws {
        var byBlock: [Int: [(row: Int, height: Double?)]] = [:]
        for (row, height) in heights { byBlock[RowBlock.block(of: row), default: []].append((row, height)) }
        for (block, rows) in byBlock.sorted(by: { $0.key < $1.key }) {
            var entries = try edit.entries(of: block)
            for (row, height) in rows {
                if let index = entries.firstIndex(where: { $0.row == row }) {
                    edit.sizeChanges.append(SizeChange(row: row, column: 0, before: entries[index].height, after: height))
                    entries[index].height = height
                } else if height != nil {
                    edit.sizeChanges.append(SizeChange(row: row, column: 0, before: nil, after: height))
                    let index = entries.firstIndex { $0.row > row } ?? entries.endIndex
                    entries.insert(RowBlock.Entry(row: row, height: height, isHidden: false, cells: []), at: index)
                }
            }
            entries.removeAll { $0.cells.isEmpty && $0.height == nil && !$0.isHidden }
            edit.keep(entries, of: block)
            let data = entries.isEmpty ? nil : edit.context.sealer.seal(RowBlock.binary(entries), context: RowBlock.context(sheet: edit.sheet, block: block))
            try edit.database.replaceRowBlock(sheet: edit.sheet, block: block, firstRow: entries.first?.row ?? 0, lastRow: entries.last?.row ?? 0, data: data)
        }
        // The export reads rows up to the sheet's last: a height below it extends it.
        if let last = heights.filter({ $0.value != nil }).keys.max() {
            try edit.database.extendRows(of: edit.sheet, to: last)
        }
    }

    /// Sets (nil: removes) the widths of columns in the sheet's layout.
    static func setWidths(_ widths: [Int: Double?], _ edit: SheetEdit) {
        guard !widths.isEmpty else { return }
        edit.storing { try storeWidths(widths, edit) }
    }

    private static func storeWidths(_ widths: [Int: Double?], _ edit: SheetEdit) throws {
        var layout = try SheetLayout.load(sheet: edit.sheet, edit.database, edit.context.sealer)
        for (column, width) in widths.sorted(by: { $0.key < $1.key }) {
            let before = layout.columns.first { $0.first <= column && column <= $0.last }?.width
            edit.sizeChanges.append(SizeChange(row: 0, column: column, before: before, after: width))
            layout.columns = Self.columns(layout.columns, setting: column, to: width)
        }
        try edit.database.setLayout(of: edit.sheet, layout.sealed(sheet: edit.sheet, edit.context.sealer))
    }

    /// `columns` with `column`'s width set: the range holding it split around it (its other
    /// columns keep their settings), a range left with nothing to say dropped; in column order.
    static func columns(_ columns: [ColumnInfo], setting column: Int, to width: Double?) -> [ColumnInfo] {
        var result: [ColumnInfo] = []
        var hidden = false
        for info in columns {
            guard info.first <= column, column <= info.last else { result.append(info); continue }
            hidden = info.isHidden
            if info.first < column { result.append(ColumnInfo(first: info.first, last: column - 1, width: info.width, isHidden: info.isHidden)) }
            if column < info.last { result.append(ColumnInfo(first: column + 1, last: info.last, width: info.width, isHidden: info.isHidden)) }
        }
        if width != nil || hidden { result.append(ColumnInfo(first: column, last: column, width: width, isHidden: hidden)) }
        return result.sorted { $0.first < $1.first }
    }
}
