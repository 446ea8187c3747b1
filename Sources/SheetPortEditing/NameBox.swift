import SheetPortCore

/// The range address field (the Name Box): what a person types to go to a cell or a range.
///
/// Accepted, case-insensitive, spaces around ignored: a cell `c7` or `$B$2`; a range `A1:C9`
/// (corners in any order); whole columns `B:D` or `C` alone is not (it would be a name); whole
/// rows `3:5`; a defined name (`totals`, matched without case). A range is clamped to the grid;
/// a cell outside it (`XFE1`, `A0`) is refused, as Excel refuses it.
public enum NameBox {
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
        if let range = CellRange(trimmed, in: grid) { return range }
        let folded = trimmed.uppercased()
        if let named = names.first(where: { $0.key.uppercased() == folded }) { return grid.clamp(named.value) }
        throw Invalid(input: text)
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
}

extension Character {
    /// A C0 or C1 control character (typed text never stores one).
    var isControl: Bool { unicodeScalars.contains { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) } }
}
