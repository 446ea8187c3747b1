import Testing
@testable import SheetPortCore

/// Serials to calendar dates in both date systems, and ISO 8601 cells.
@Suite struct ExcelDateTests {
    @Test(arguments: [
        (1.0, "1900-01-01T00:00:00.000"),
        (59.0, "1900-02-28T00:00:00.000"),
        (60.0, "1900-02-28T00:00:00.000"),
        (61.0, "1900-03-01T00:00:00.000"),
        (0.5, "1899-12-30T12:00:00.000"),
        (0.0, "1899-12-30T00:00:00.000"),
        (45322.5729166667, "2024-01-31T13:45:00.000"),
        (45322.999999999, "2024-02-01T00:00:00.000"),
        (2958465.0, "9999-12-31T00:00:00.000"),
        (43861.000011574, "2020-01-31T00:00:01.000"),
    ])
    func system1900(_ serial: Double, _ expected: String) {
        #expect(ExcelDateTime(serial: serial, system: .excel1900)?.iso8601 == expected)
    }

    @Test(arguments: [
        (0.0, "1904-01-01T00:00:00.000"), // day 0 is a date in 1904, as Excel shows it
        (1.0, "1904-01-02T00:00:00.000"),
        (43860.0, "2024-01-31T00:00:00.000"),
        (0.25, "1904-01-01T06:00:00.000"),
        (0.9999999999, "1904-01-02T00:00:00.000"),
    ])
    func system1904(_ serial: Double, _ expected: String) {
        #expect(ExcelDateTime(serial: serial, system: .excel1904)?.iso8601 == expected)
    }

    @Test func outsideTheCalendar() {
        #expect(ExcelDateTime(serial: -1, system: .excel1900) == nil)
        #expect(ExcelDateTime(serial: 3_000_000, system: .excel1900) == nil)
        #expect(ExcelDateTime(serial: .nan, system: .excel1900) == nil)
    }

    @Test(arguments: [
        ("2024-01-31", "2024-01-31T00:00:00.000"),
        ("2024-01-31T13:45:00", "2024-01-31T13:45:00.000"),
        ("2024-01-31T13:45:00.5Z", "2024-01-31T13:45:00.500"),
        ("2024-01-31T13:45:00+02:00", "2024-01-31T13:45:00.000"),
        ("13:45:10", "1899-12-30T13:45:10.000"),
        ("T08:00", "1899-12-30T08:00:00.000"),
    ])
    func isoCells(_ text: String, _ expected: String) {
        #expect(ExcelDateTime(iso: text)?.iso8601 == expected)
    }

    @Test(arguments: ["", "2024-13-01", "yesterday", "2024-01-31T25:00"])
    func badIsoCells(_ text: String) {
        #expect(ExcelDateTime(iso: text) == nil)
    }

    @Test func textRenderings() {
        let dateTime = ExcelDateTime(year: 2024, month: 1, day: 31, millisecondOfDay: 49_500_250)
        #expect(dateTime.dateText == "2024-01-31")
        #expect(dateTime.timeText(milliseconds: false) == "13:45:00.250")
    }
}
