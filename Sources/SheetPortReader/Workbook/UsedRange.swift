import SheetPortCore
/// The part of a worksheet that holds cells, found from the cells themselves: a sheet's
/// `<dimension>` is written by the producer and is often wrong (absent, `A1`, or reaching XFD).
public struct UsedRange: Sendable, Equatable {
    /// The last row with a cell (0 for an empty sheet): the used range is `A1` to
    /// (`rows`, `columns`).
    public var rows = 0
    /// The last column with a cell (0 for an empty sheet).
    public var columns = 0
    /// Cells with a value or a formula.
    public var cells = 0
    /// The columns (1-based, ascending) where some cell has a value that is not empty text.
    public var columnsWithValues: [Int] = []
    /// The rows (1-based, ascending) where some cell has a value that is not empty text.
    public var rowsWithValues = 0

    /// Creates an empty range.
    public init() {}

    /// Whether a value shows as something in text output (not a formula without a cached value,
    /// not empty text).
    public static func hasValue(_ value: CellValue) -> Bool {
        switch value {
        case .empty: false
        case .string(let text): !text.isEmpty
        default: true
        }
    }
}

/// Builds a `UsedRange` from a worksheet's rows as they stream by, so that a pass made for
/// another reason (the calculation engine's load) also finds the used range.
public struct UsedRangeAccumulator: Sendable {
    private var range = UsedRange()
    // One flag per column of Excel's grid: memory is fixed however many rows there are.
    private var used = [Bool](repeating: false, count: CellReference.maxColumn + 1)

    /// Nothing seen yet.
    public init() {}

    /// Adds one row, as read (before any value is replaced).
    public mutating func add(_ row: Row) {
        guard let last = row.cells.last else { return }
        range.rows = max(range.rows, row.index)
        range.columns = max(range.columns, last.column)
        range.cells += row.cells.count
        var rowHasValue = false
        for cell in row.cells where UsedRange.hasValue(cell.value) {
            if cell.column < used.count { used[cell.column] = true }
            rowHasValue = true
        }
        if rowHasValue { range.rowsWithValues += 1 }
    }

    /// The used range of the rows added.
    public var result: UsedRange {
        var range = range
        range.columnsWithValues = used.indices.filter { used[$0] }
        return range
    }
}

extension Workbook {
    /// The used range of a worksheet, streaming every row once.
    public func usedRange(of sheet: Sheet) throws -> UsedRange {
        let reader = try rows(of: sheet)
        var accumulator = UsedRangeAccumulator()
        while let row = try reader.nextRow() { accumulator.add(row) }
        return accumulator.result
    }
}
