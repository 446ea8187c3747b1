import SheetPortCore

/// Rows an import holds until the sheet's formulas are computed (the blocks holding formulas),
/// packed: each cell as a few varints and its text's bytes, the block compressed with zstd.
/// `[Row]` costs about 90 bytes a cell before its strings; a 1,000,000-row sheet with a formula
/// in every row held all of it. Unpacking gives back the same rows, exactly.
struct HeldRows {
    private let packed: [UInt8]

    /// The value kinds, in a cell's tag's low four bits.
    private enum Kind: UInt8 {
        case empty = 0, number, string, isFalse, isTrue, error, date, duration, isoDate
    }

    private static let hasFormula: UInt8 = 0x10
    private static let isArrayFormula: UInt8 = 0x20
    private static let isDynamicArray: UInt8 = 0x40
    private static let hasHeight: UInt8 = 1
    private static let isHidden: UInt8 = 2
    /// The compressed form's format byte (`RowBlock.compress`), never stored.
    private static let format: UInt8 = 0x48

    init(_ rows: [Row]) {
        var bytes: [UInt8] = []
        Varint.put(UInt64(rows.count), to: &bytes)
        for row in rows {
            Varint.put(Varint.zigzag(Int64(row.index)), to: &bytes)
            bytes.append((row.height != nil ? Self.hasHeight : 0) | (row.isHidden ? Self.isHidden : 0))
            if let height = row.height { Varint.putDouble(height, to: &bytes) }
            Varint.put(UInt64(row.cells.count), to: &bytes)
            for cell in row.cells { Self.pack(cell, into: &bytes) }
        }
        packed = RowBlock.compress(bytes, format: Self.format)
    }

    /// The rows as they were given.
    func rows() throws -> [Row] {
        var reader = ByteReader(try RowBlock.decompress(packed), what: "held rows")
        var rows: [Row] = []
        let count = try reader.count(limit: reader.remaining)
        rows.reserveCapacity(count)
        for _ in 0..<count {
            let index = Int(try reader.signed())
            let flags = try reader.byte(inside: "a row")
            let height = flags & Self.hasHeight != 0 ? try reader.double() : nil
            let cellCount = try reader.count(limit: reader.remaining)
            var cells: [Cell] = []
            cells.reserveCapacity(cellCount)
            for _ in 0..<cellCount { cells.append(try Self.unpack(&reader)) }
            rows.append(Row(index: index, height: height, isHidden: flags & Self.isHidden != 0, cells: cells))
        }
        return rows
    }

    private static func pack(_ cell: Cell, into bytes: inout [UInt8]) {
        Varint.put(Varint.zigzag(Int64(cell.column)), to: &bytes)
        Varint.put(Varint.zigzag(Int64(cell.styleIndex)), to: &bytes)
        var tag: UInt8 = cell.formula != nil ? hasFormula : 0
        if case .array = cell.formulaKind { tag |= isArrayFormula }
        if case .dynamicArray = cell.formulaKind { tag |= isDynamicArray }
        switch cell.value {
        case .empty: bytes.append(tag | Kind.empty.rawValue)
        case .number(let n): bytes.append(tag | Kind.number.rawValue); Varint.putDouble(n, to: &bytes)
        case .string(let s): bytes.append(tag | Kind.string.rawValue); put(s, &bytes)
        case .boolean(let b): bytes.append(tag | (b ? Kind.isTrue : Kind.isFalse).rawValue)
        case .error(let e): bytes.append(tag | Kind.error.rawValue); put(e, &bytes)
        case .date(let serial): bytes.append(tag | Kind.date.rawValue); Varint.putDouble(serial, to: &bytes)
        case .duration(let days): bytes.append(tag | Kind.duration.rawValue); Varint.putDouble(days, to: &bytes)
        case .isoDate(let text): bytes.append(tag | Kind.isoDate.rawValue); put(text, &bytes)
        }
        if let formula = cell.formula { put(formula, &bytes) }
        if let range = cell.formulaKind.arrayRange { put(range, &bytes) }
    }

    private static func unpack(_ reader: inout ByteReader) throws -> Cell {
        let column = Int(try reader.signed())
        let style = Int(try reader.signed())
        let tag = try reader.byte(inside: "a cell")
        let value: CellValue
        switch Kind(rawValue: tag & 0x0F) {
        case .empty: value = .empty
        case .number: value = .number(try reader.double())
        case .string: value = .string(try string(&reader))
        case .isFalse: value = .boolean(false)
        case .isTrue: value = .boolean(true)
        case .error: value = .error(try string(&reader))
        case .date: value = .date(serial: try reader.double())
        case .duration: value = .duration(days: try reader.double())
        case .isoDate: value = .isoDate(try string(&reader))
        case nil: throw RowBlock.FormatError(message: "held rows: a cell of kind \(tag & 0x0F)")
        }
        let formula = tag & hasFormula != 0 ? try string(&reader) : nil
        var kind = FormulaKind.normal
        if tag & isArrayFormula != 0 { kind = .array(range: try string(&reader)) }
        if tag & isDynamicArray != 0 { kind = .dynamicArray(range: try string(&reader)) }
        return Cell(column: column, value: value, formula: formula, formulaKind: kind, styleIndex: style)
    }

    private static func string(_ reader: inout ByteReader) throws -> String {
        String(decoding: reader.bytes[try reader.span()], as: UTF8.self)
    }

    private static func put(_ text: String, _ bytes: inout [UInt8]) {
        Varint.put(UInt64(text.utf8.count), to: &bytes)
        bytes += text.utf8
    }
}
