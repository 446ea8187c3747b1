import SheetPortCore
import SheetPortReader
/// Counts gathered while streaming the first worksheet; memory bounded by the number of cell formats.
struct SheetStatistics {
    var cells = 0
    var lastRow = 0
    var lastColumn = 0
    var uncachedFormulas = 0
    var firstUncached: CellReference?
    var longTextCount = 0
    var firstLongText: CellReference?
    /// Cells per cell format (out-of-range indexes count as the default, as they render).
    var cellsByStyle: [Int]
    /// The first cell of each cell format (an array: looked up for every cell).
    var firstCellByStyle: [CellReference?]
    /// Cells with a cell format other than the default (`s` above 0), whether or not it exists.
    var styledCells = 0

    /// The most characters a cell may hold.
    let maxTextLength: Int

    init(styleCount: Int, maxTextLength: Int = PreflightOptions.maxCellTextLength) {
        cellsByStyle = Array(repeating: 0, count: max(styleCount, 1))
        firstCellByStyle = Array(repeating: nil, count: cellsByStyle.count)
        self.maxTextLength = maxTextLength
    }

    mutating func add(_ cell: Cell, row: Int) {
        cells += 1
        lastRow = max(lastRow, row)
        lastColumn = max(lastColumn, cell.column)
        if cell.styleIndex > 0 { styledCells += 1 }
        let style = cell.styleIndex >= 0 && cell.styleIndex < cellsByStyle.count ? cell.styleIndex : 0
        cellsByStyle[style] += 1
        if firstCellByStyle[style] == nil { firstCellByStyle[style] = CellReference(row: row, column: cell.column) }
        if cell.formula != nil, cell.value == .empty {
            uncachedFormulas += 1
            if firstUncached == nil { firstUncached = CellReference(row: row, column: cell.column) }
        }
        if case .string(let text) = cell.value, text.utf8.count > maxTextLength,
           text.utf16.count > maxTextLength {
            longTextCount += 1
            if firstLongText == nil { firstLongText = CellReference(row: row, column: cell.column) }
        }
    }
}
