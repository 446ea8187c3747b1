import Testing
import SheetPortCore
@testable import SheetPortCalc
@testable import SheetPortServer

/// The cells a graph holds values of that the store does not (`SheetModel.unstored`).
@Suite struct SheetModelTests {
    /// Writes and reads without a pause note a chain's cells again each time (reads store
    /// nothing): the list stays bounded by the sheet, and each cell is stored once.
    @Test func cellsNotedAgainAndAgainAreKeptOnce() {
        let cells = 3_000
        let model = SheetModel(engine: CalcEngine(), version: 1, cellCount: cells)
        let changes = (0..<cells).map { CellChange(location: CellLocation(sheet: 0, cell: CellReference(row: $0 + 1, column: 2)), value: .number(1)) }
        var largest = 0
        for _ in 0..<50 {
            model.noteUnstored(changes.shuffled())
            largest = max(largest, model.unstored.count)
        }
        #expect(largest <= 3 * cells)
        var taken: [CellReference] = []
        while !model.unstored.isEmpty { taken += model.takeUnstored(blocks: 4).map(\.cell) }
        #expect(taken == (1...cells).map { CellReference(row: $0, column: 2) })
    }
}
