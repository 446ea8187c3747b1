import SheetPortCore
/// The largest row index (zero-based) of a worksheet: 1,048,576 rows.
let maxRowIndex: Int32 = 1_048_575
/// The largest column index (zero-based) of a worksheet: 16,384 columns (XFD).
let maxColumnIndex: Int32 = 16_383

/// A cell as the engine holds it: zero-based `Int32` row and column (`A1` is row 0, column 0),
/// what its cell store, parser and evaluator compute with. The engine's API speaks Core's
/// `CellReference` (1-based) and converts at its edge.
struct CellIndex: Sendable, Hashable, Comparable {
    /// The zero-based row.
    var row: Int32
    /// The zero-based column.
    var column: Int32

    /// A position from zero-based row and column.
    init(row: Int32, column: Int32) {
        self.row = row
        self.column = column
    }

    /// The engine's position of `cell`; a coordinate past `Int32` is clamped (it is no cell of the grid either way).
    init(_ cell: CellReference) {
        row = Int32(clamping: max(cell.row, Int(Int32.min)) - 1)
        column = Int32(clamping: max(cell.column, Int(Int32.min)) - 1)
    }

    /// The engine's position of `cell`, nil when it is no cell of the grid (a row or column
    /// below 1, or past XFD1048576): what the API's setters and getters take.
    init?(inGrid cell: CellReference) {
        guard cell.row >= 1, cell.row <= CellReference.maxRow, cell.column >= 1, cell.column <= CellReference.maxColumn else { return nil }
        self.init(row: Int32(cell.row - 1), column: Int32(cell.column - 1))
    }

    /// The cell as the engine's API answers it.
    var reference: CellReference { CellReference(row: Int(row) + 1, column: Int(column) + 1) }

    /// Row-major order: by row, then by column.
    static func < (lhs: CellIndex, rhs: CellIndex) -> Bool {
        (lhs.row, lhs.column) < (rhs.row, rhs.column)
    }
}

/// A rectangle of cells as the engine holds it: corners inclusive and zero-based (`CellIndex`).
struct CellIndexRange: Sendable, Hashable {
    /// The top-left cell.
    var start: CellIndex
    /// The bottom-right cell.
    var end: CellIndex

    /// A range between two corners (in any order).
    init(_ a: CellIndex, _ b: CellIndex) {
        start = CellIndex(row: min(a.row, b.row), column: min(a.column, b.column))
        end = CellIndex(row: max(a.row, b.row), column: max(a.column, b.column))
    }

    /// The engine's rectangle of `range`.
    init(_ range: CellRange) {
        self.init(CellIndex(range.start), CellIndex(range.end))
    }

    /// The number of rows.
    var rowCount: Int { Int(end.row - start.row) + 1 }
    /// The number of columns.
    var columnCount: Int { Int(end.column - start.column) + 1 }

    /// True when the cell lies inside the range.
    func contains(_ cell: CellIndex) -> Bool {
        cell.row >= start.row && cell.row <= end.row && cell.column >= start.column && cell.column <= end.column
    }
}

extension CellLocation {
    /// The engine's position of the cell.
    var index: CellIndex { CellIndex(cell) }
}

/// A rectangle on a given sheet of the workbook (by sheet index): what references evaluate to.
struct SheetRange: Hashable, Sendable {
    var sheet: Int32
    var r1: Int32
    var c1: Int32
    var r2: Int32
    var c2: Int32

    var rows: Int { Int(r2 - r1) + 1 }
    var columns: Int { Int(c2 - c1) + 1 }
    var isSingleCell: Bool { r1 == r2 && c1 == c2 }

    func contains(sheet s: Int32, row: Int32, column: Int32) -> Bool {
        s == sheet && row >= r1 && row <= r2 && column >= c1 && column <= c2
    }

    func intersection(_ other: SheetRange) -> SheetRange? {
        guard sheet == other.sheet else { return nil }
        let a = max(r1, other.r1), b = min(r2, other.r2), c = max(c1, other.c1), d = min(c2, other.c2)
        guard a <= b, c <= d else { return nil }
        return SheetRange(sheet: sheet, r1: a, c1: c, r2: b, c2: d)
    }
}

/// A1 text helpers: column letters and cell references.
enum A1 {
    /// `A` for 0, `Z` for 25, `AA` for 26, ... `XFD` for 16,383.
    static func columnName(_ column: Int32) -> String {
        var n = Int(column) + 1
        var letters: [UInt8] = []
        while n > 0 {
            let r = (n - 1) % 26
            letters.append(UInt8(65 + r))
            n = (n - 1) / 26
        }
        return String(decoding: letters.reversed(), as: UTF8.self)
    }

    /// Parses letters at `i` (case-insensitive) into a zero-based column; nil past XFD.
    static func parseColumn(_ s: [UInt8], from i: Int) -> (column: Int32, end: Int)? {
        var j = i
        var n = 0
        while j < s.count, let letter = upperLetter(s[j]) {
            n = n * 26 + Int(letter - 64)
            if n > 16_384 { return nil }
            j += 1
        }
        guard j > i else { return nil }
        return (Int32(n - 1), j)
    }

    /// Parses digits at `i` into a zero-based row; nil for 0 or past 1,048,576.
    static func parseRow(_ s: [UInt8], from i: Int) -> (row: Int32, end: Int)? {
        var j = i
        var n = 0
        while j < s.count, s[j] >= 48, s[j] <= 57 {
            n = n * 10 + Int(s[j] - 48)
            if n > 1_048_576 { return nil }
            j += 1
        }
        guard j > i, n >= 1 else { return nil }
        return (Int32(n - 1), j)
    }

    /// Parses `$A$1`-style text at `i`.
    static func parseCell(_ s: [UInt8], from i: Int) -> (row: Int32, column: Int32, rowAbsolute: Bool, columnAbsolute: Bool, end: Int)? {
        var j = i
        var colAbs = false, rowAbs = false
        if j < s.count, s[j] == UInt8(ascii: "$") { colAbs = true; j += 1 }
        guard let col = parseColumn(s, from: j) else { return nil }
        j = col.end
        if j < s.count, s[j] == UInt8(ascii: "$") { rowAbs = true; j += 1 }
        guard let row = parseRow(s, from: j) else { return nil }
        return (row.row, col.column, rowAbs, colAbs, row.end)
    }

    static func upperLetter(_ b: UInt8) -> UInt8? {
        if b >= 65 && b <= 90 { return b }
        if b >= 97 && b <= 122 { return b - 32 }
        return nil
    }
}
