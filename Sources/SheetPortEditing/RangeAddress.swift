import SheetPortCore

/// The size of the grid a range is clamped to: Excel's, or a server's `maxRows`/`maxColumns`.
public struct GridSize: Sendable, Equatable {
    /// Rows and columns.
    public var rows: Int, columns: Int

    /// A grid.
    public init(rows: Int = CellReference.maxRow, columns: Int = CellReference.maxColumn) {
        self.rows = max(rows, 1)
        self.columns = max(columns, 1)
    }

    /// Excel's grid, 1,048,576 rows by 16,384 columns.
    public static let excel = GridSize()

    /// Every cell.
    public var all: CellRange { CellRange(start: CellReference(row: 1, column: 1), end: CellReference(row: rows, column: columns)) }

    /// `reference` moved inside the grid.
    public func clamp(_ reference: CellReference) -> CellReference {
        CellReference(row: min(max(reference.row, 1), rows), column: min(max(reference.column, 1), columns))
    }

    /// `range` cut to the grid.
    public func clamp(_ range: CellRange) -> CellRange { CellRange(start: clamp(range.start), end: clamp(range.end)) }
}

/// The range address field (the Name Box): what a person types to go to a cell or a range.
///
/// Accepted, case-insensitive, spaces around ignored: a cell `c7` or `$B$2`; a range `A1:C9`
/// (corners in any order); whole columns `B:D` or `C` alone is not (it would be a name); whole
/// rows `3:5`; a defined name (`totals`, matched without case). A range is clamped to the grid;
/// a cell outside it (`XFE1`, `A0`) is refused, as Excel refuses it.
public enum RangeAddress {
    /// Why the input is not an address.
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        /// The input as typed.
        public var input: String
        /// "C7 is not a cell or range of the sheet, nor a name".
        public var description: String { "\"\(input.visibleControlCharacters)\" is not a cell, a range or a defined name" }
    }

    /// Parses `text` against the sheet's defined `names` (any case) and `grid`.
    public static func parse(_ text: String, names: [String: CellRange] = [:], grid: GridSize = .excel) throws(Invalid) -> CellRange {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty, trimmed.utf8.count <= 255 else { throw Invalid(input: text) }
        if let range = reference(trimmed, grid: grid) { return range }
        let folded = trimmed.uppercased()
        if let named = names.first(where: { $0.key.uppercased() == folded }) { return grid.clamp(named.value) }
        throw Invalid(input: text)
    }

    /// A cell, a range, whole columns or whole rows; nil when it is none of them or outside the grid.
    static func reference(_ text: String, grid: GridSize) -> CellRange? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { String($0).replacingDollars }
        guard parts.count == 1 || parts.count == 2, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        if parts.count == 2 {
            if let first = columnNumber(parts[0]), let last = columnNumber(parts[1]) {
                guard first <= grid.columns, last <= grid.columns else { return nil }
                return CellRange(start: CellReference(row: 1, column: min(first, last)), end: CellReference(row: grid.rows, column: max(first, last)))
            }
            if let first = Int(parts[0]), let last = Int(parts[1]), parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }) {
                guard first >= 1, last >= 1, first <= grid.rows, last <= grid.rows else { return nil }
                return CellRange(start: CellReference(row: min(first, last), column: 1), end: CellReference(row: max(first, last), column: grid.columns))
            }
        }
        guard let first = cell(parts[0], grid: grid), let last = parts.count == 2 ? cell(parts[1], grid: grid) : first else { return nil }
        return CellRange(start: CellReference(row: min(first.row, last.row), column: min(first.column, last.column)),
                         end: CellReference(row: max(first.row, last.row), column: max(first.column, last.column)))
    }

    /// A cell inside the grid.
    static func cell(_ text: String, grid: GridSize) -> CellReference? {
        guard let reference = CellReference(text), reference.row <= grid.rows, reference.column <= grid.columns else { return nil }
        return reference
    }

    /// The column of 1 to 3 letters, or nil.
    static func columnNumber(_ text: String) -> Int? {
        guard let reference = CellReference(text + "1"), text.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) else { return nil }
        return reference.column
    }

    /// How the address field shows a range: `B2`, `A1:C9`, `B:D` for whole columns, `3:5` for
    /// whole rows of `grid`.
    public static func format(_ range: CellRange, grid: GridSize = .excel) -> String {
        let wholeColumns = range.start.row == 1 && range.end.row == grid.rows
        let wholeRows = range.start.column == 1 && range.end.column == grid.columns
        if wholeColumns && !wholeRows {
            return CellReference.columnName(range.start.column) + ":" + CellReference.columnName(range.end.column)
        }
        if wholeRows && !wholeColumns { return "\(range.start.row):\(range.end.row)" }
        return range.description
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }

    /// Without `$` (absolute markers do not change where a reference points).
    var replacingDollars: String { String(filter { $0 != "$" }) }
}

extension Character {
    /// A C0 or C1 control character (typed text never stores one).
    var isControl: Bool { unicodeScalars.contains { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) } }
}
