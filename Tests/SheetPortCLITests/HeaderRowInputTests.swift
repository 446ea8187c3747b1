import Testing
@testable import SheetPortCore
import Foundation
@testable import SheetPortReader
@testable import SheetPortConvert

/// CSV/TSV input: the first row is a header by default, stored as text and out of type
/// inference; `--no-header` makes it data (Docs/Reference/Formats.md, "CSV and TSV").
@Suite struct HeaderRowInputTests {
    private func values(_ rows: [Row]) -> [[CellValue]] { rows.map { $0.cells.map(\.value) } }

    @Test(arguments: ["data.csv", "data.tsv"])
    func headersThatLookLikeValuesDoNotPoisonTheColumn(_ name: String) throws {
        let separator = name.hasSuffix(".csv") ? "," : "\t"
        let text = ["2024,#,€,%,TRUE,2024-01-31,13:45", "1,2,3,4,5,6,7", "8,9,10,11,12,13,14"]
            .map { $0.replacing(",", with: separator) }.joined(separator: "\n") + "\n"
        let result = try convertText(Array(text.utf8), name: name)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(values(result.rows)[0] == ["2024", "#", "€", "%", "TRUE", "2024-01-31", "13:45"].map { .string($0) })
        #expect(values(result.rows)[1] == (1...7).map { .number(Double($0)) })
        #expect(values(result.rows)[2] == (8...14).map { .number(Double($0)) })
        let data = try convertText(Array(text.utf8), name: name, ["--no-header"])
        #expect(data.status == 0, "\(data.stderr)")
        // Each column but the first has a non-number now, so it is text.
        #expect(values(data.rows)[1] == [.number(1)] + (2...7).map { .string(String($0)) })
        #expect(values(data.rows)[0][0] == .number(2024) && values(data.rows)[0][4] == .string("TRUE"))
    }

    @Test func hostileHeadersStayText() throws {
        let header = "\"\u{0}\",\"=SUM(A1)\",\"\(String(repeating: "h", count: 32_767))\",\"a\r\nb\",1e5"
        let result = try convertText(Array((header + "\n1,2,3,4,5\n").utf8), name: "hostile.csv")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(values(result.rows)[0] == [.string("\u{0}"), .string("=SUM(A1)"), .string(String(repeating: "h", count: 32_767)),
                                           .string("a\r\nb"), .string("1e5")])
        #expect(values(result.rows)[1] == (1...5).map { .number(Double($0)) })
        // Cell JSONL has no header row.
        let jsonl = try convertText(Array(#"{"ref":"A1","type":"number","value":1}"#.utf8) + [0x0A], name: "c.jsonl", ["--no-header"])
        #expect(jsonl.status == 2 && jsonl.stderr.contains("--no-header"))
    }
}
