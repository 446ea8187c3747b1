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
        var reader = Reader(bytes: try RowBlock.decompress(packed))
        var rows: [Row] = []
        let count = try reader.count()
        rows.reserveCapacity(count)
        for _ in 0..<count {
            let index = Int(Varint.unzigzag(try reader.varint()))
            let flags = try reader.byte()
            let height = flags & Self.hasHeight != 0 ? try reader.double() : nil
            let cellCount = try reader.count()
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
        if case .array(let range) = cell.formulaKind { put(range, &bytes) }
    }

    private static func unpack(_ reader: inout Reader) throws -> Cell {
        let column = Int(Varint.unzigzag(try reader.varint()))
        let style = Int(Varint.unzigzag(try reader.varint()))
        let tag = try reader.byte()
        let value: CellValue
        switch Kind(rawValue: tag & 0x0F) {
        case .empty: value = .empty
        case .number: value = .number(try reader.double())
        case .string: value = .string(try reader.string())
        case .isFalse: value = .boolean(false)
        case .isTrue: value = .boolean(true)
        case .error: value = .error(try reader.string())
        case .date: value = .date(serial: try reader.double())
        case .duration: value = .duration(days: try reader.double())
        case .isoDate: value = .isoDate(try reader.string())
        case nil: throw RowBlock.FormatError(message: "held rows: a cell of kind \(tag & 0x0F)")
        }
        let formula = tag & hasFormula != 0 ? try reader.string() : nil
        let kind: FormulaKind = tag & isArrayFormula != 0 ? .array(range: try reader.string()) : .normal
        return Cell(column: column, value: value, formula: formula, formulaKind: kind, styleIndex: style)
    }

    private static func put(_ text: String, _ bytes: inout [UInt8]) {
        Varint.put(UInt64(text.utf8.count), to: &bytes)
        bytes += text.utf8
    }

    /// Reads what `init` wrote (the server's own bytes; a short one throws, never traps).
    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        mutating func byte() throws -> UInt8 {
            guard position < bytes.count else { throw RowBlock.FormatError(message: "held rows end early") }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func varint() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let next = try byte()
                guard shift < 64 else { throw RowBlock.FormatError(message: "held rows: a number over 64 bits") }
                value |= UInt64(next & 0x7F) << shift
                if next < 0x80 { return value }
                shift += 7
            }
        }

        mutating func count() throws -> Int {
            let value = try varint()
            guard value <= UInt64(bytes.count - position) else { throw RowBlock.FormatError(message: "held rows claim \(value) items") }
            return Int(value)
        }

        mutating func double() throws -> Double {
            guard bytes.count - position >= 8 else { throw RowBlock.FormatError(message: "held rows end early") }
            var bits: UInt64 = 0
            for offset in 0..<8 { bits |= UInt64(bytes[position + offset]) << (8 * UInt64(offset)) }
            position += 8
            return Double(bitPattern: bits)
        }

        mutating func string() throws -> String {
            let length = try count()
            defer { position += length }
            return String(decoding: bytes[position..<(position + length)], as: UTF8.self)
        }
    }
}
