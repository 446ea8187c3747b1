import SheetPortCore

/// A rectangle of the grid a write names: `B2`, `A1:C9`, whole columns `A:C` or whole rows `3:5`.
package struct GridRange: Equatable, Sendable {
    package var rows: ClosedRange<Int>
    package var columns: ClosedRange<Int>

    package init(rows: ClosedRange<Int>, columns: ClosedRange<Int>) {
        self.rows = rows
        self.columns = columns
    }

    /// Parses `text`; nil when it is not a range of the grid (past XFD or row 1,048,576 included).
    package init?(_ text: String) {
        if let range = CellRange(text) {
            rows = range.start.row...range.end.row
            columns = range.start.column...range.end.column
            return
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if let a = Int(parts[0]), let b = Int(parts[1]), parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
           (1...CellReference.maxRow).contains(a), (1...CellReference.maxRow).contains(b) {
            rows = min(a, b)...max(a, b)
            columns = 1...CellReference.maxColumn
            return
        }
        guard let a = Self.column(parts[0]), let b = Self.column(parts[1]) else { return nil }
        rows = 1...CellReference.maxRow
        columns = min(a, b)...max(a, b)
    }

    /// The column of 1 to 3 letters, nil past XFD.
    private static func column(_ letters: Substring) -> Int? {
        guard (1...3).contains(letters.count), letters.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        let column = letters.uppercased().unicodeScalars.reduce(0) { $0 * 26 + Int($1.value) - 64 }
        return column <= CellReference.maxColumn ? column : nil
    }

    /// Cells in the rectangle.
    package var area: Int { rows.count * columns.count }

    /// The top-left cell.
    package var origin: GridCell { GridCell(row: rows.lowerBound, column: columns.lowerBound) }
}
