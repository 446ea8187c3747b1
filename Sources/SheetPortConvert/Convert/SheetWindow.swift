import SheetPortCore

/// The part of a sheet a conversion writes (`--range`): rows above it are skipped, the read
/// stops below it, cells left and right of it are dropped, and what is kept is moved so that
/// the rectangle's top-left cell is A1 (unless the format keeps the sheet's references).
struct SheetWindow {
    /// What to do with a row.
    enum Step { case write, skip, stop }

    private let range: CellRange?
    private let moves: Bool

    /// The whole sheet, or `range` of it; `moves` puts the range's corner at A1.
    init(range: CellRange?, moves: Bool) {
        self.range = range
        self.moves = moves
    }

    /// The records' width within a sheet whose cells reach `columns`: the range's columns up to
    /// the last one with a cell (none when the range lies right of every cell).
    func width(within columns: Int) -> Int {
        guard let range else { return columns }
        return max(0, min(range.end.column, columns) - range.start.column + 1)
    }

    /// Fits `row` into the window, or tells to skip it or to stop reading.
    func fit(_ row: inout Row) -> Step {
        guard let range else { return .write }
        if row.index < range.start.row { return .skip }
        if row.index > range.end.row { return .stop }
        let first = range.start.column, last = range.end.column
        if row.cells.first.map({ $0.column < first }) == true || row.cells.last.map({ $0.column > last }) == true {
            row.cells.removeAll { $0.column < first || $0.column > last }
        }
        guard moves else { return .write }
        row.index -= range.start.row - 1
        if first > 1 {
            for index in row.cells.indices { row.cells[index].column -= first - 1 }
        }
        return .write
    }
}
