import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert
import SheetPortTestSupport

/// Numbers, dates, JSON strings, CSV and TSV fields as the converter writes them.
@Suite struct TextTests {
    @Test(arguments: [
        (3.0, "3"), (-0.5, "-0.5"), (0.1, "0.1"), (1e-05, "1e-05"), (0.30000000000000004, "0.30000000000000004"),
        (1e16, "1e+16"), (123456789012.0, "123456789012"), (Double.leastNonzeroMagnitude, "5e-324"),
    ])
    func numbersRoundTrip(_ value: Double, _ text: String) {
        #expect(ValueText.number(value) == text)
        #expect(Double(text) == value)
    }

    @Test func datesAsFields() {
        #expect(ValueText.field(.date(serial: 45322), system: .excel1900) == "2024-01-31")
        #expect(ValueText.field(.date(serial: 45322.5), system: .excel1900) == "2024-01-31 12:00:00")
        #expect(ValueText.field(.date(serial: 0.75), system: .excel1900) == "18:00:00")
    }

    @Test func jsonStringsEscapeOnlyWhatTheyMust() {
        var bytes: [UInt8] = []
        JSON.appendQuoted("a\"b\\c\n\t\u{1}/é", to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "\"a\\\"b\\\\c\\n\\t\\u0001/é\"")
    }

    @Test func csvQuotingAndPadding() throws {
        let text = try convert(Project.fixture("shared_strings_rich.xlsx"), to: .csv)
        #expect(text.contains("\"line one\nline two\""))
        #expect(text.hasSuffix("\r\n"))
        let tsv = try convert(Project.fixture("shared_strings_rich.xlsx"), to: .tsv)
        #expect(tsv.contains("line one\\nline two"))
        #expect(!tsv.contains("\r"))
    }

    @Test func csvLineNumbersAreRowNumbers() throws {
        let text = try convert(Project.fixture("no_cell_refs.xlsx"), to: .csv)
        let lines = text.components(separatedBy: "\r\n")
        let jsonl = try jsonObjects(convert(Project.fixture("no_cell_refs.xlsx"), to: .jsonl))
        let lastRow = jsonl.compactMap { ($0["ref"] as? String).flatMap(CellReference.init)?.row }.max()
        #expect(lines.count - 1 == lastRow)
    }

}
