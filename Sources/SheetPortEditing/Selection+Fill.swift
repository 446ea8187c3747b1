import SheetPortCore

extension CellRange {
    /// Fill down (`.down`) or right (`.right`) of this selection as Excel does it: the first row
    /// (column) copied over the rest; a selection one row (column) deep takes the row above
    /// (column to the left) instead. nil when there is nothing to fill from (row 1, column A).
    public func fill(_ direction: Direction) -> (source: CellRange, target: CellRange)? {
        switch direction {
        case .down:
            if rowCount > 1 {
                return (CellRange(start: start, end: CellReference(row: start.row, column: end.column)),
                        CellRange(start: CellReference(row: start.row + 1, column: start.column), end: end))
            }
            guard start.row > 1 else { return nil }
            return (CellRange(start: CellReference(row: start.row - 1, column: start.column), end: CellReference(row: start.row - 1, column: end.column)), self)
        case .right:
            if columnCount > 1 {
                return (CellRange(start: start, end: CellReference(row: end.row, column: start.column)),
                        CellRange(start: CellReference(row: start.row, column: start.column + 1), end: end))
            }
            guard start.column > 1 else { return nil }
            return (CellRange(start: CellReference(row: start.row, column: start.column - 1), end: CellReference(row: end.row, column: start.column - 1)), self)
        case .up, .left:
            return nil
        }
    }

    /// The parts of this range outside `other`, as at most four ranges (above, below, left,
    /// right of the overlap): what a cut leaves to clear once its cells are pasted at `other`.
    public func subtracting(_ other: CellRange) -> [CellRange] {
        let top = max(start.row, other.start.row), bottom = min(end.row, other.end.row)
        let leftmost = max(start.column, other.start.column), rightmost = min(end.column, other.end.column)
        guard top <= bottom, leftmost <= rightmost else { return [self] }
        var parts: [CellRange] = []
        if start.row < top { parts.append(CellRange(start: start, end: CellReference(row: top - 1, column: end.column))) }
        if bottom < end.row { parts.append(CellRange(start: CellReference(row: bottom + 1, column: start.column), end: end)) }
        if start.column < leftmost {
            parts.append(CellRange(start: CellReference(row: top, column: start.column), end: CellReference(row: bottom, column: leftmost - 1)))
        }
        if rightmost < end.column {
            parts.append(CellRange(start: CellReference(row: top, column: rightmost + 1), end: CellReference(row: bottom, column: end.column)))
        }
        return parts
    }
}
