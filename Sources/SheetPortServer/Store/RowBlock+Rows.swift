import Foundation
import SheetPortCore
import SheetPortConvert

/// A block's rows as the workbook writer and the calculation engine take them: typed cells with
/// their kept styles. A binary block is decoded straight into them (each style of the block's
/// table read once, strings unescaped only when they hold an escape); a block of an earlier
/// format, or one holding a line kept whole, is read by `CellJSONLReader` as before.
extension RowBlock {
    /// One row with each cell's style (nil for the plain one).
    package struct TypedRow {
        package var row: Row
        package var styles: [CellStyle?]
    }

    /// The rows of a block's stored bytes (any format); `name` names the block in errors.
    package static func rows(stored: [UInt8], name: String) throws -> [TypedRow] {
        if stored.first == binaryFormat {
            let block = try BinaryBlock(payload: decompress(stored))
            if !block.hasRawLines { return try block.typedRows(name: name) }
            return try rows(entries: block.entries, name: name)
        }
        return try rows(entries: entries(stored: stored), name: name)
    }

    /// Rows read back from stored lines by `CellJSONLReader`.
    private static func rows(entries: [Entry], name: String) throws -> [TypedRow] {
        var jsonl: [UInt8] = []
        for entry in entries {
            for cell in entry.cells { jsonl += cell; jsonl.append(0x0A) }
        }
        var reader = try CellJSONLReader(input: ByteInput(bytes: jsonl, name: name))
        var pending = try reader.nextRow()
        var rows: [TypedRow] = []
        rows.reserveCapacity(entries.count)
        for entry in entries {
            var row = TypedRow(row: Row(index: entry.row, height: entry.height, isHidden: entry.isHidden), styles: [])
            if let (read, styles) = pending, read.index == entry.row {
                row.row.cells = read.cells
                row.styles = styles
                pending = try reader.nextRow()
            }
            rows.append(row)
        }
        return rows
    }
}

extension BinaryBlock {
    /// The rows decoded into cells, with no JSON object per cell.
    func typedRows(name: String) throws -> [RowBlock.TypedRow] {
        let styles = try self.styles.indices.map { try cellStyle(style($0), name: name) }
        // Whether each style's number format is an elapsed time, asked once per style, not per date cell.
        let elapsed = styles.map { $0.map { NumberFormat.isElapsedTimeFormat($0.numberFormat) } ?? false }
        var texts = [String?](repeating: nil, count: strings.count)
        func text(_ index: Int) throws -> String {
            if let known = texts[index] { return known }
            guard let decoded = self.text(index) else { throw RowBlock.FormatError(message: "\(name): a string that is not JSON text") }
            texts[index] = decoded
            return decoded
        }
        var rows: [RowBlock.TypedRow] = []
        rows.reserveCapacity(self.rows.count)
        for stored in self.rows {
            var row = Row(index: stored.row, height: stored.height, isHidden: stored.isHidden)
            row.cells.reserveCapacity(stored.cells.count)
            var rowStyles: [CellStyle?] = []
            rowStyles.reserveCapacity(stored.cells.count)
            for cell in stored.cells {
                let style = cell.has(RowBlock.Tag.style) ? styles[cell.style] : nil
                let value: CellValue
                switch cell.kind {
                case .double: value = .number(cell.number)
                case .integer: value = .number(Double(cell.integer))
                case .string: value = .string(try text(cell.text))
                case .error: value = .error(try text(cell.text))
                case .isTrue: value = .boolean(true)
                case .isFalse: value = .boolean(false)
                case .empty: value = .empty
                case .date:
                    // As `CellJSONLReader`: a date in an elapsed-time format is a duration.
                    guard let dateTime = ExcelDateTime(iso: try text(cell.text)), dateTime.isValidDay else {
                        throw RowBlock.FormatError(message: "\(name): a date cell without a valid date")
                    }
                    let isElapsed = cell.has(RowBlock.Tag.style) && elapsed[cell.style]
                    value = isElapsed ? .duration(days: dateTime.elapsedDays) : .date(serial: dateTime.serial(in: .excel1900))
                }
                let formula = cell.has(RowBlock.Tag.formula) ? try text(cell.formula) : nil
                var kind = FormulaKind.normal
                if cell.has(RowBlock.Tag.arrayRange), let range = CellRange(try text(cell.arrayRange)) {
                    kind = .array(range: range.description)
                }
                row.cells.append(Cell(column: cell.column, value: value, formula: formula, formulaKind: kind))
                rowStyles.append(style)
            }
            rows.append(RowBlock.TypedRow(row: row, styles: rowStyles))
        }
        return rows
    }

    /// A `style` object as `CellJSONLReader` reads it (nil for the plain style).
    private func cellStyle(_ bytes: ArraySlice<UInt8>, name: String) throws -> CellStyle? {
        guard let object = JSON.parseObject(Array(bytes)) else { throw RowBlock.FormatError(message: "\(name): a style that is not a JSON object") }
        func flag(_ key: String) -> Bool { (object[key] as? NSNumber)?.boolValue ?? false }
        var style = CellStyle()
        style.isBold = flag("bold")
        style.isItalic = flag("italic")
        style.horizontalAlignment = object["horizontal"] as? String
        style.numberFormat = object["numFmt"] as? String ?? "General"
        style.fillColor = object["fill"] as? String
        style.textColor = object["color"] as? String
        return style == .plain ? nil : style
    }
}
