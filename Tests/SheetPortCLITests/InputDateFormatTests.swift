import Foundation
import Testing
@testable import SheetPortCore

/// `convert --input-date-format` on CSV input (Docs/Reference/Formats.md, "CSV and TSV").
@Suite struct InputDateFormatTests {
    private func serial(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Double {
        ExcelDateTime(year: year, month: month, day: day, millisecondOfDay: ((hour * 60 + minute) * 60 + second) * 1000).serial(in: .excel1900)
    }

    @Test func csvColumnsInTheGivenPatternAreDates() throws {
        let csv = "when,at,n\n31.01.2024,01/31/24 01:45 PM,1\n1.2.2024,2/1/24 12:00 AM,2\n"
        let european = try convertText(Array(csv.utf8), name: "d.csv", ["--input-date-format", "%d.%m.%Y"])
        #expect(european.status == 0, "\(european.stderr)")
        #expect(european.rows[1].cells.map(\.value) == [.date(serial: serial(2024, 1, 31)), .string("01/31/24 01:45 PM"), .number(1)])
        let american = try convertText(Array(csv.utf8), name: "d.csv", ["--input-date-format", "%m/%d/%y %I:%M %p"])
        #expect(american.rows[1].cells[1].value == .date(serial: serial(2024, 1, 31, 13, 45)))
        #expect(american.rows[2].cells[1].value == .date(serial: serial(2024, 2, 1)))
        #expect(american.rows[1].cells[0].value == .string("31.01.2024")) // not this pattern: text
        // One field that does not match makes the column text, as every kind does.
        let mixed = try convertText(Array("d\n31.01.2024\n32.01.2024\n".utf8), name: "m.csv", ["--input-date-format", "%d.%m.%Y"])
        #expect(mixed.rows[1].cells[0].value == .string("31.01.2024"))
        for bad in ["%Q", "%", "plain", "%d\u{1B}[2J%"] {
            let result = try convertText(Array(csv.utf8), name: "d.csv", ["--input-date-format", bad])
            #expect(result.status == 2 && result.stderr.contains("--input-date-format"), "\(result.stderr)")
            #expect(!result.stderr.dropLast().containsControlCharacters)
        }
    }
}
