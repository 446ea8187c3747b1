import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortConvert
import SheetPortTestSupport

/// `--input-date-format` (and the directives `%y %b %B %I %p`, which `--date-format` takes too;
/// CONTRACTS section 6, second round).
@Suite struct InputDateFormatTests {
    private func serial(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Double {
        ExcelDateTime(year: year, month: month, day: day, millisecondOfDay: ((hour * 60 + minute) * 60 + second) * 1000).serial(in: .excel1900)
    }

    @Test func patternsParse() throws {
        let cases: [(String, String, ExcelDateTime?)] = [
            ("%d.%m.%Y", "31.01.2024", ExcelDateTime(year: 2024, month: 1, day: 31)),
            ("%d.%m.%Y", "1.2.2024", ExcelDateTime(year: 2024, month: 2, day: 1)),
            ("%m/%d/%y %I:%M %p", "12/31/99 12:05 am", ExcelDateTime(year: 1999, month: 12, day: 31, millisecondOfDay: 300_000)),
            ("%m/%d/%y %I:%M %p", "1/2/29 1:30 PM", ExcelDateTime(year: 2029, month: 1, day: 2, millisecondOfDay: 48_600_000)),
            ("%d %b %Y", "05 sep 2024", ExcelDateTime(year: 2024, month: 9, day: 5)),
            ("%B %d, %Y", "February 29, 2024", ExcelDateTime(year: 2024, month: 2, day: 29)),
            ("%Y%m%d %H%M%S.%f", "20240131 134500.5", ExcelDateTime(year: 2024, month: 1, day: 31, millisecondOfDay: 49_500_500)),
            ("%d.%m.%Y", "31.02.2024", nil), ("%d.%m.%Y", "31.13.2024", nil), ("%d.%m.%Y", "31.01.2024 ", nil),
            ("%d.%m.%Y", "31.01.24", nil), ("%H:%M", "24:00", nil), ("%I %p", "13 PM", nil), ("%d.%m.%Y", "", nil),
            ("%d.%m.%Y", "\u{0}1.01.2024", nil), ("%B", "Sept", nil), ("%Y", "0999", nil), ("%d.%m.%Y", String(repeating: "9", count: 5000), nil),
        ]
        for (pattern, field, expected) in cases {
            #expect(try DateFormat(pattern).parse(field) == expected, "\(pattern) \(field.debugDescription)")
        }
        #expect(throws: DateFormat.Invalid.self) { try DateFormat("%q") }
    }

    @Test func outputTakesTheNewDirectives() throws {
        let at = ExcelDateTime(year: 2024, month: 3, day: 9, millisecondOfDay: 13 * 3_600_000 + 5 * 60_000)
        #expect(try DateFormat("%y %b %B %I %p").text(at) == "24 Mar March 01 PM")
        #expect(try DateFormat("%I%p").text(ExcelDateTime(year: 2024, month: 1, day: 1)) == "12AM")
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("d.xlsx").path
        try RawWorkbook(sheets: [RawWorkbook.Sheet(name: "D", sheetData: RawWorkbook.row(1, RawWorkbook.number("A1", "45360.5", style: 1)))],
                        numberFormats: [(22, "m/d/yy h:mm")]).write(to: path)
        let result = try runSheetport(["convert", path, "--date-format", "%d %B %Y, %I:%M %p"])
        #expect(String(decoding: result.stdout, as: UTF8.self) == "\"09 March 2024, 12:00 PM\"\r\n")
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
