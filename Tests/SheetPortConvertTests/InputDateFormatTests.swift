import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortConvert
import SheetPortTestSupport
@testable import SheetPortReader

/// `DateFormat`, the patterns of `--input-date-format` and `--date-format` (the directives
/// `%y %b %B %I %p`; Docs/Reference/Formats.md, "CSV and TSV"). CSV input through `convert`:
/// SheetPortCLITests' `InputDateFormatTests`.
@Suite struct InputDateFormatTests {
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

    /// The refusals list every directive, in the order of the directive table the parser reads.
    @Test func refusalsNameEveryDirective() throws {
        let every = "%Y %m %d %H %M %S %f %y %b %B %I %p"
        func refusal(_ pattern: String) -> String? {
            do { _ = try DateFormat(pattern); return nil } catch { return error.description }
        }
        #expect(refusal("%q") == "unknown date directive %q; use \(every) or %%")
        #expect(refusal("%\u{1}%Y") == "unknown date directive %\\u{1}; use \(every) or %%")
        #expect(refusal("%é") == "unknown date directive %é; use \(every) or %%")
        #expect(refusal("100%%") == "a date format needs at least one of \(every)")
        #expect(refusal("") == "a date format needs at least one of \(every)")
        #expect(refusal("%Y%") == "a date format cannot end in %")
        #expect(refusal(every) == nil)
        #expect(try DateFormat("%%%Y%%%m").text(ExcelDateTime(year: 2024, month: 3, day: 9)) == "%2024%03")
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
        var options = TextOutputOptions()
        options.dateFormat = try DateFormat("%d %B %Y, %I:%M %p")
        #expect(try convert(path, to: .csv, options: options) == "\"09 March 2024, 12:00 PM\"\r\n")
    }
}
