/// A cell of a worksheet by 1-based row and column (the OOXML ST_CellRef, `B2`): the one cell
/// type every module speaks. Ordered row by row (`A2` after `XFD1`).
///
/// The initializer from numbers does not check the grid; the one from text does.
public struct CellReference: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The last row of Excel's grid.
    public static let maxRow = 1_048_576
    /// The last column of Excel's grid (XFD).
    public static let maxColumn = 16_384

    /// 1-based row.
    public var row: Int
    /// 1-based column.
    public var column: Int

    /// Creates a reference.
    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }

    /// Parses A1 text: column letters (any case) then the row's digits, each optionally marked
    /// absolute with one `$` (`B2`, `$B$2`, `b$2`); nil for anything else (spaces, signs, a
    /// `$` elsewhere) and for a cell outside Excel's grid (`XFE1`, `A0`, `A1048577`).
    public init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parseA1($0) }) else { return nil }
        self = parsed
    }

    /// `B2`: the A1 text, without `$`.
    public var description: String { Self.columnName(column) + String(row) }

    /// Row-major order: by row, then by column.
    public static func < (lhs: CellReference, rhs: CellReference) -> Bool {
        (lhs.row, lhs.column) < (rhs.row, rhs.column)
    }

    /// The letters of a 1-based column: 1 -> `A`, 28 -> `AB`.
    public static func columnName(_ column: Int) -> String {
        var letters: [UInt8] = []
        appendColumnName(column, to: &letters)
        return String(decoding: letters, as: UTF8.self)
    }

    /// Appends the letters of a 1-based column to `bytes` (nothing for a column below 1).
    static func appendColumnName(_ column: Int, to bytes: inout [UInt8]) {
        guard column > 0 else { return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: columnNameShape(column).width) { letters in
            let width = storeColumnName(column, at: letters.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(start: letters.baseAddress!, count: width))
        }
    }

    /// Stores the letters of a 1-based column at `target`, which has room for
    /// `columnNameShape(column).width` bytes (nothing for a column below 1); returns how many.
    /// The writers call it for every cell, straight into their buffers.
    @inline(__always)
    package static func storeColumnName(_ column: Int, at target: UnsafeMutablePointer<UInt8>) -> Int {
        guard column > 0 else { return 0 }
        let (width, first) = columnNameShape(column)
        var offset = first
        var index = width - 1
        while index >= 0 {
            target[index] = UInt8(ascii: "A") &+ UInt8(truncatingIfNeeded: offset % 26)
            offset /= 26
            index -= 1
        }
        return width
    }

    /// How many letters the name of `column` (1-based, above 0) has, and its offset among the
    /// names of that many letters: names of `width` letters follow the 26 + 26^2 + ... that are
    /// shorter, and the offset's base-26 digits are the letters.
    package static func columnNameShape(_ column: Int) -> (width: Int, offset: Int) {
        var offset = column - 1
        var width = 1
        var names = 26
        while offset >= names {
            offset -= names
            names *= 26
            width += 1
        }
        return (width, offset)
    }

    /// The column of letters (case-insensitive), or nil when not letters or past XFD.
    package static func columnNumber<C: Collection>(_ letters: C) -> Int? where C.Element == UInt8 {
        guard !letters.isEmpty, letters.count <= 3 else { return nil }
        var column = 0
        for byte in letters {
            let upper = byte & 0xDF
            guard upper >= UInt8(ascii: "A"), upper <= UInt8(ascii: "Z") else { return nil }
            column = column * 26 + Int(upper - UInt8(ascii: "A") + 1)
        }
        return column <= maxColumn ? column : nil
    }

    /// `$`? letters `$`? digits, the whole of `bytes`, inside the grid.
    static func parseA1(_ bytes: UnsafeBufferPointer<UInt8>) -> CellReference? {
        let dollar = UInt8(ascii: "$")
        var index = 0
        if index < bytes.count, bytes[index] == dollar { index += 1 }
        let letters = index
        while index < bytes.count, (bytes[index] | 0x20) >= UInt8(ascii: "a"), (bytes[index] | 0x20) <= UInt8(ascii: "z") { index += 1 }
        guard let column = columnNumber(bytes[letters..<index]) else { return nil }
        if index < bytes.count, bytes[index] == dollar { index += 1 }
        guard let row = rowNumber(bytes[index...]) else { return nil }
        return CellReference(row: row, column: column)
    }

    /// The row of 1 or more digits (`007` is 7), or nil when not digits, 0 or past the grid's
    /// last row (an overlong number stops at the first digit past it, never overflowing).
    static func rowNumber<C: Collection>(_ digits: C) -> Int? where C.Element == UInt8 {
        guard !digits.isEmpty else { return nil }
        var row = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            row = row * 10 + Int(byte - UInt8(ascii: "0"))
            guard row <= maxRow else { return nil }
        }
        return row >= 1 ? row : nil
    }

    /// Letters then digits, without the grid check, so that a caller can tell a reference
    /// outside the grid (`XFE1`, `A1048577`) from text that is no reference at all.
    package static func parseUnchecked(_ bytes: UnsafeBufferPointer<UInt8>) -> (column: Int, row: Int)? {
        if let common = parseShort(bytes) { return common }
        var split = 0
        var column = 0
        while split < bytes.count, (bytes[split] | 0x20) >= UInt8(ascii: "a"), (bytes[split] | 0x20) <= UInt8(ascii: "z") {
            column = min(column * 26 + Int((bytes[split] | 0x20) - UInt8(ascii: "a") + 1), Int(Int32.max))
            split += 1
        }
        guard split > 0, split < bytes.count, bytes[split] >= 0x30, bytes[split] <= 0x39,
              let row = ASCII.parseInt(UnsafeBufferPointer(rebasing: bytes[split...])), row >= 1 else { return nil }
        return (column, row)
    }

    /// `parseUnchecked` of what every cell's `r` is (1 to 3 letters, then 1 to 7 digits, at
    /// least one not 0) in one pass without bounds checks or calls; nil for anything else,
    /// which the general path reads, so that the two never disagree.
    @inline(__always)
    private static func parseShort(_ bytes: UnsafeBufferPointer<UInt8>) -> (column: Int, row: Int)? {
        guard let base = bytes.baseAddress, bytes.count >= 2, bytes.count <= 10 else { return nil }
        var index = 0, column = 0
        let letters = min(3, bytes.count)
        while index < letters {
            let letter = (base[index] | 0x20) &- UInt8(ascii: "a")
            guard letter < 26 else { break }
            column = column &* 26 &+ Int(letter) &+ 1
            index += 1
        }
        guard index > 0, index < bytes.count, bytes.count - index <= 7 else { return nil }
        var row = 0
        repeat {
            let digit = base[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            row = row &* 10 &+ Int(digit)
            index += 1
        } while index < bytes.count
        return row >= 1 ? (column, row) : nil
    }
}
