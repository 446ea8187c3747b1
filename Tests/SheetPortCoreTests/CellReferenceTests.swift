import Testing
import SheetPortCore
import Foundation

/// Core's cell and range types: what every module parses requests, files and typing with.
@Suite struct CellReferenceTests {
    @Test(arguments: [
        ("A1", 1, 1), ("b2", 2, 2), ("$B$2", 2, 2), ("$b2", 2, 2), ("B$2", 2, 2), ("Z9", 9, 26), ("AA10", 10, 27),
        ("xfd1048576", 1_048_576, 16_384), ("XFD1", 1, 16_384), ("A1048576", 1_048_576, 1), ("A007", 7, 1),
    ])
    func parses(_ text: String, _ row: Int, _ column: Int) throws {
        let cell = try #require(CellReference(text))
        #expect(cell == CellReference(row: row, column: column))
        #expect(cell.description == text.uppercased().replacingOccurrences(of: "$", with: "").replacingOccurrences(of: "A007", with: "A7"))
    }

    /// Outside the grid, malformed, `$` out of place, and bytes no reference holds.
    @Test(arguments: [
        "", "$", "$$", "A", "1", "$A", "$1", "A$", "XFE1", "AAAA1", "A0", "A00", "A1048577", "A-1", "A+1", " A1", "A1 ",
        "$$A1", "A$$1", "A1$", "1A", "A1B", "A1:B2", "A\u{0}1", "A1\u{0}", "\u{0}", "Ａ1", "A１", "É1", "A1é",
        "A" + String(repeating: "9", count: 40), String(repeating: "A", count: 40) + "1", "A99999999999999999999999",
    ])
    func refuses(_ text: String) {
        #expect(CellReference(text) == nil)
    }

    @Test func columnNamesRoundTrip() {
        for column in [1, 2, 25, 26, 27, 52, 53, 701, 702, 703, 16_383, 16_384] {
            let name = CellReference.columnName(column)
            #expect(CellReference(name + "1") == CellReference(row: 1, column: column))
        }
        #expect(CellReference.columnName(0).isEmpty && CellReference.columnName(-5).isEmpty)
    }

    @Test func ordersRowByRow() {
        let cells = ["B2", "A2", "XFD1", "A1", "C1"].map { CellReference($0)! }
        #expect(cells.sorted().map(\.description) == ["A1", "C1", "XFD1", "A2", "B2"])
        #expect(CellReference("XFD1")! < CellReference("A2")!)
        #expect(!(CellReference("A1")! < CellReference("A1")!))
    }
}

@Suite struct CellRangeTests {
    @Test(arguments: [
        ("A1:C3", "A1:C3"), ("C3:A1", "A1:C3"), ("C1:A3", "A1:C3"), ("B2", "B2"), ("$a$1:$c$3", "A1:C3"), ("B2:B2", "B2"),
    ])
    func parsesCellRanges(_ text: String, _ expected: String) throws {
        #expect(try #require(CellRange(text)).description == expected)
    }

    /// The ST_Ref reader takes cells only: whole rows and columns need a grid.
    @Test(arguments: ["", ":", "A1:", ":A1", "A1:B2:C3", "A:C", "3:5", "A1:XFE1", "A0:B2", "A1-B2", "A1\u{0}:B2", "A1 :B2"])
    func refusesOtherText(_ text: String) {
        #expect(CellRange(text) == nil)
    }

    @Test func measuresAndContains() throws {
        let range = try #require(CellRange("B2:D5"))
        #expect(range.rowCount == 4 && range.columnCount == 3 && range.cellCount == 12)
        #expect(range.rows == 2...5 && range.columns == 2...4)
        #expect(range.contains(CellReference("B2")!) && range.contains(CellReference("D5")!) && range.contains(CellReference("C3")!))
        #expect(!range.contains(CellReference("A2")!) && !range.contains(CellReference("E5")!) && !range.contains(CellReference("B6")!))
        #expect(!range.contains(CellReference(row: 0, column: 0)))
        #expect(CellRange(CellReference("D5")!, CellReference("B2")!) == range)
    }

    @Test(arguments: [
        ("A1", "A1"), ("a1:c9", "A1:C9"), ("C9:A1", "A1:C9"), ("$A$1:$C$9", "A1:C9"), ("B:D", "B:D"), ("d:b", "B:D"),
        ("$B:$D", "B:D"), ("B:B", "B:B"), ("3:5", "3:5"), ("5:3", "3:5"), ("$3:$5", "3:5"), ("1:1", "1:1"),
        ("A:XFD", "A1:XFD1048576"), ("1:1048576", "A1:XFD1048576"), ("XFD1048576", "XFD1048576"),
    ])
    func parsesWholeRowsAndColumnsOfTheGrid(_ text: String, _ expected: String) throws {
        let range = try #require(CellRange(text, in: .excel))
        #expect(range.description(in: .excel) == expected)
        #expect(CellRange(range.description(in: .excel), in: .excel) == range)
    }

    @Test(arguments: [
        "", ":", "A", "3", "B:", ":B", "A:3", "3:A", "0:3", "1:1048577", "B:XFE", "XFE1", "A0", "A1048577", "A1:B2:C3",
        "B$:C", "$$B:C", "B :C", "+3:5", "3:+5", "-1:2", "A:B\u{0}", "\u{0}", "é:é", "１:２", String(repeating: "9", count: 60) + ":1",
        "A:" + String(repeating: "A", count: 60),
    ])
    func refusesWhatIsNoRangeOfTheGrid(_ text: String) {
        #expect(CellRange(text, in: .excel) == nil)
    }

    @Test func readsInASmallerGrid() throws {
        let grid = GridSize(rows: 100, columns: 10)
        #expect(CellRange("B:C", in: grid) == CellRange("B1:C100"))
        #expect(CellRange("2:3", in: grid) == CellRange("A2:J3"))
        #expect(try #require(CellRange("B:C", in: grid)).description(in: grid) == "B:C")
        #expect(CellRange("A1:J100", in: grid)?.description(in: grid) == "A1:J100")
        for outside in ["K1", "A101", "K:K", "101:101", "A1:K1"] { #expect(CellRange(outside, in: grid) == nil) }
        #expect(grid.contains(CellReference("J100")!) && !grid.contains(CellReference("K1")!) && !grid.contains(CellReference(row: 0, column: 1)))
        #expect(grid.clamp(CellRange("H90:XFD1048576")!) == CellRange("H90:J100"))
    }
}
