import Foundation
import Testing
@testable import SheetPortCore

/// The library's accessors: a Foundation `Date` in a date system, `.isoDate` normalised as
/// the CLI prints it, and `row[column]`. (A workbook's own date system: `WorkbookDateTests`.)
@Suite struct CellAccessTests {
    @Test func datesKnowTheWorkbooksDateSystem() throws {
        let utc = { (text: String) in ISO8601DateFormatter().date(from: text)! }
        #expect(CellValue.date(serial: 45322.5).date(in: .excel1900) == utc("2024-01-31T12:00:00Z"))
        #expect(CellValue.date(serial: 0).date(in: .excel1904) == utc("1904-01-01T00:00:00Z"))
        #expect(CellValue.date(serial: 0.25).date(in: .excel1900) == utc("1899-12-30T06:00:00Z"))
        let shown = try #require(CellValue.date(serial: 45322.0005).date(in: .excel1900))
        #expect(abs(shown.timeIntervalSince(utc("2024-01-31T00:00:00Z")) - 43.2) < 0.000_5) // to the millisecond
        #expect(CellValue.number(45322).date(in: .excel1900) == nil)
        #expect(CellValue.date(serial: -1).date(in: .excel1900) == nil)
        #expect(CellValue.date(serial: .nan).date(in: .excel1900) == nil)
        #expect(CellValue.isoDate("not a date").date(in: .excel1900) == nil)
    }

    @Test func isoDatesAreNormalisedAsTheCLIPrintsThem() {
        #expect(CellValue.isoDate("2024-01-31").isoText(in: .excel1900) == "2024-01-31T00:00:00.000")
        #expect(CellValue.isoDate("2024-01-31T13:45:00.5").isoText(in: .excel1904) == "2024-01-31T13:45:00.500")
        #expect(CellValue.date(serial: 45322.5).isoText(in: .excel1900) == "2024-01-31T12:00:00.000")
        #expect(CellValue.string("2024-01-31").isoText(in: .excel1900) == nil)
    }

    @Test func aRowsCellByColumn() {
        let row = Row(index: 1, cells: [1, 3, 700, 16_384].map { Cell(column: $0, value: .number(Double($0))) })
        #expect(row[3]?.value == .number(3))
        #expect(row[16_384]?.value == .number(16_384))
        #expect(row[2] == nil && row[0] == nil && row[-5] == nil && row[20_000] == nil)
        #expect(Row(index: 1)[1] == nil)
    }
}
