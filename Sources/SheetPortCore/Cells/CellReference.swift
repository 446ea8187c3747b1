/// A1-style cell references within Excel's grid.
public struct CellReference: Equatable, Hashable, Sendable, CustomStringConvertible {
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

    /// Parses `B2` or `$B$2`; nil when it is not a reference inside the grid.
    public init?(_ text: String) {
        var utf8 = Array(text.utf8)
        utf8.removeAll { $0 == UInt8(ascii: "$") }
        guard let parsed = utf8.withUnsafeBufferPointer({ Self.parse($0) }) else { return nil }
        self = parsed
    }

    /// `B2`.
    public var description: String { Self.columnName(column) + String(row) }

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
    static func columnNumber<C: Collection>(_ letters: C) -> Int? where C.Element == UInt8 {
        guard !letters.isEmpty, letters.count <= 3 else { return nil }
        var column = 0
        for byte in letters {
            let upper = byte & 0xDF
            guard upper >= UInt8(ascii: "A"), upper <= UInt8(ascii: "Z") else { return nil }
            column = column * 26 + Int(upper - UInt8(ascii: "A") + 1)
        }
        return column <= maxColumn ? column : nil
    }

    /// Parses letters then digits from borrowed bytes (the `r` attribute of a cell).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> CellReference? {
        guard let (column, row) = parseUnchecked(bytes), column <= maxColumn, row <= maxRow else { return nil }
        return CellReference(row: row, column: column)
    }

    /// Letters then digits, without the grid check, so that a caller can tell a reference
    /// outside the grid (`XFE1`, `A1048577`) from text that is no reference at all.
    package static func parseUnchecked(_ bytes: UnsafeBufferPointer<UInt8>) -> (column: Int, row: Int)? {
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
}

/// A rectangular range such as `A1:C3` (a single cell is a one-cell range).
public struct CellRange: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The top-left cell.
    public var start: CellReference
    /// The bottom-right cell.
    public var end: CellReference

    /// Creates a range.
    public init(start: CellReference, end: CellReference) {
        self.start = start
        self.end = end
    }

    /// Parses `A1:C3` or `B2`.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2,
              let first = CellReference(String(parts[0])),
              let last = parts.count == 2 ? CellReference(String(parts[1])) : first
        else { return nil }
        start = CellReference(row: min(first.row, last.row), column: min(first.column, last.column))
        end = CellReference(row: max(first.row, last.row), column: max(first.column, last.column))
    }

    /// `A1:C3`, or `B2` for one cell.
    public var description: String { start == end ? start.description : "\(start):\(end)" }
    /// Rows spanned.
    public var rowCount: Int { end.row - start.row + 1 }
    /// Columns spanned.
    public var columnCount: Int { end.column - start.column + 1 }
}
