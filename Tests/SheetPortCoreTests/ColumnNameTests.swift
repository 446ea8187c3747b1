import Testing
@testable import SheetPortCore

/// One column-name routine serves the reader's output and the writer's cell references.
@Suite struct ColumnNameTests {
    /// Bijective base 26, digit by digit from the right.
    static func reference(_ column: Int) -> String {
        var column = column
        var letters = ""
        while column > 0 {
            letters = String(UnicodeScalar(UInt8(ascii: "A") + UInt8((column - 1) % 26))) + letters
            column = (column - 1) / 26
        }
        return letters
    }

    @Test func everyColumnOfTheGridAndPast() {
        for column in [-1, 0] + Array(1...(CellReference.maxColumn + 2000)) {
            #expect(CellReference.columnName(column) == Self.reference(column), "column \(column)")
        }
    }
}
