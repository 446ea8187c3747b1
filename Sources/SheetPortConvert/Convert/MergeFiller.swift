import SheetPortCore
import SheetPortReader
/// `--fill-merged`: the value of a merged range's top-left cell written into every cell of the
/// range, as `xlsx2csv -m` does. The ranges come from the sheet's `<mergeCells>`, which follow
/// the rows, so `SheetConverter` finds them in a first pass (the first
/// `WorksheetMetadata.listLimit` of them).
struct MergeFiller {
    /// The ranges, by first row.
    private let ranges: [CellRange]
    /// The top-left cell of each range once its row was read.
    private var anchors: [Int: Cell] = [:]

    init(ranges: [String]) {
        self.ranges = ranges.compactMap(CellRange.init).filter { $0.start != $0.end }.sorted { $0.start.row < $1.start.row }
    }

    /// Whether there is nothing to fill.
    var isEmpty: Bool { ranges.isEmpty }
    /// The last row and column any range reaches.
    var extent: (rows: Int, columns: Int) { (ranges.map(\.end.row).max() ?? 0, ranges.map(\.end.column).max() ?? 0) }

    /// Whether some range covers row `index` below its first row (a row the sheet may not have).
    func covers(_ index: Int) -> Bool { ranges.contains { $0.start.row < index && index <= $0.end.row } }

    /// Fills `row` with the values of the ranges it is in.
    mutating func fill(_ row: inout Row) {
        var added = false
        for (offset, range) in ranges.enumerated() where range.start.row <= row.index && row.index <= range.end.row {
            if range.start.row == row.index, let anchor = row.cells.first(where: { $0.column == range.start.column }) {
                anchors[offset] = anchor
            }
            guard let anchor = anchors[offset] else { continue }
            for column in range.start.column...range.end.column where !(row.index == range.start.row && column == range.start.column) {
                guard !row.cells.contains(where: { $0.column == column && UsedRange.hasValue($0.value) }) else { continue }
                row.cells.removeAll { $0.column == column }
                var copy = anchor
                copy.column = column
                copy.formula = nil
                copy.formulaKind = .normal
                row.cells.append(copy)
                added = true
            }
        }
        if added { row.cells.sort { $0.column < $1.column } }
    }
}
