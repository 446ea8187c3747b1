import SheetPortCore
/// Turns `UndecodedRows` into rows of cells: shared strings looked up, numbers parsed and read
/// as numbers, dates or durations by their style. Kept apart from the XML so that it can run
/// on a thread of its own; it counts what it finds that the worksheet's metadata reports.
struct CellDecoder {
    private let sharedStrings: SharedStrings
    private let styles: Styles
    private let cellMetadata: CellMetadata
    /// Cells showing a shared string with rich-text runs, so far.
    private var richTextCellCount = 0
    /// `t="s"` cells whose index is not in the table, so far.
    private var missingSharedStringCount = 0

    init(sharedStrings: SharedStrings, styles: Styles, cellMetadata: CellMetadata = CellMetadata()) {
        self.sharedStrings = sharedStrings
        self.styles = styles
        self.cellMetadata = cellMetadata
    }

    /// Appends the rows of `batch` to `rows`; cells with neither a value nor a formula are left out.
    mutating func decode(_ batch: UndecodedRows, into rows: inout [Row]) {
        rows.reserveCapacity(rows.count + batch.count)
        batch.text.withUnsafeBufferPointer { text in
            batch.cells.withUnsafeBufferPointer { cells in
                batch.forEachRow { header, range in
                    var row = Row(index: header.index, height: header.height, isHidden: header.isHidden)
                    row.cells.reserveCapacity(range.count)
                    for index in range {
                        let cell = cells[index]
                        let extra = cell.extra >= 0 ? batch.extras[cell.extra] : nil
                        let formula = extra?.formula
                        let value = decodeValue(cell, text: UnsafeBufferPointer(rebasing: text[cell.textStart..<cell.textEnd]),
                                                inlineString: extra?.inlineString, valueMetadata: extra?.valueMetadata)
                        guard value != nil || formula != nil else { continue }
                        var kind = extra?.formulaKind ?? .normal
                        if case .array(let range) = kind, let cm = extra?.cellMetadata, cellMetadata.isDynamicArray(cellMetadata: cm) {
                            kind = .dynamicArray(range: range)
                        }
                        row.cells.append(Cell(column: cell.column, value: value ?? .empty, formula: formula,
                                              formulaKind: kind, styleIndex: cell.styleIndex))
                    }
                    if !row.cells.isSorted { row.cells = row.cells.sortedKeepingLast() }
                    rows.append(row)
                }
            }
        }
    }

    /// `metadata` with what the decoding counted so far.
    func completing(_ metadata: WorksheetMetadata) -> WorksheetMetadata {
        var metadata = metadata
        metadata.richTextCellCount = richTextCellCount
        metadata.missingSharedStringCount = missingSharedStringCount
        return metadata
    }

    /// The cell's cached value; nil when it has none. A shared string or a `t="str"` value that
    /// is empty is the text "" (Excel's ISTEXT is TRUE for it, COUNTA counts it, MATCH("",...)
    /// finds it), as openpyxl reads it.
    private mutating func decodeValue(_ cell: UndecodedRows.CellHeader, text: UnsafeBufferPointer<UInt8>,
                                      inlineString: String?, valueMetadata: Int?) -> CellValue? {
        switch cell.type {
        case .sharedString:
            guard cell.hasValue, let index = ASCII.parseInt(text) else { return nil }
            guard index >= 0, index < sharedStrings.count else { missingSharedStringCount += 1; return nil }
            guard let string = sharedStrings[index] else { return nil }
            if sharedStrings.richTextCount > 0, sharedStrings.isRich(at: index) { richTextCellCount += 1 }
            return .string(string)
        case .inlineString:
            let string = inlineString ?? OOXMLText.decode(text)
            return string.isEmpty ? nil : .string(string)
        case .formulaString:
            guard cell.hasValue else { return nil }
            return .string(OOXMLText.decode(text))
        case .boolean:
            guard let first = text.first(where: { !ASCII.isSpace($0) }) else { return nil }
            return .boolean(first == UInt8(ascii: "1") || first == UInt8(ascii: "t") || first == UInt8(ascii: "T"))
        case .error:
            if let valueMetadata, let rich = cellMetadata.error(valueMetadata: valueMetadata) { return .error(rich) }
            let string = String(decoding: text, as: UTF8.self).trimmingSpaces
            return string.isEmpty ? nil : .error(string)
        case .isoDate:
            let string = String(decoding: text, as: UTF8.self).trimmingSpaces
            return string.isEmpty ? nil : .isoDate(string)
        case .number:
            if let inlineString { return inlineString.isEmpty ? nil : .string(inlineString) }
            guard !text.isEmpty else { return nil }
            guard let number = ASCII.parseDouble(text) else {
                let string = String(decoding: text, as: UTF8.self).trimmingSpaces
                return string.isEmpty ? nil : .string(string)
            }
            switch styles.numberKind(cell.styleIndex) {
            case .number: return .number(number)
            case .date: return .date(serial: number)
            case .duration: return .duration(days: number)
            }
        }
    }
}

extension String {
    /// The string without leading and trailing ASCII white space.
    var trimmingSpaces: String {
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { !ASCII.isSpace($0) }),
              let last = bytes.lastIndex(where: { !ASCII.isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}

extension Array where Element == Cell {
    fileprivate var isSorted: Bool {
        withUnsafeBufferPointer { cells in
            var index = 1
            while index < cells.count {
                guard cells[index - 1].column < cells[index].column else { return false }
                index += 1
            }
            return true
        }
    }

    /// Sorted by column; of two cells in one column the later one wins, as in Excel.
    fileprivate func sortedKeepingLast() -> [Cell] {
        var byColumn: [Int: Cell] = [:]
        for cell in self { byColumn[cell.column] = cell }
        return byColumn.values.sorted { $0.column < $1.column }
    }
}
