import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortConvert
import SheetPortTestSupport
@testable import SheetPortReader
@testable import SheetPortClient
@testable import SheetPortServer

/// `--to json`, `--keep-empty-rows`, and U+2028/U+2029 escaped in every JSON output
/// (Docs/Reference/Formats.md, "Records").
@Suite struct JSONRecordsTests {
    private func book(in folder: URL) throws -> String {
        typealias W = RawWorkbook
        let path = folder.appendingPathComponent("records.xlsx").path
        try RawWorkbook(sheets: [W.Sheet(name: "R", sheetData: W.row(1, W.text("A1", "id"), W.text("B1", "note\u{2028}"))
                                         + W.row(2, W.number("A2", "1"), W.text("B2", "a\u{2028}b\u{2029}c\u{2027}_x0000_"))
                                         + W.row(3, W.text("A3", ""))
                                         + W.row(5, W.number("A5", "2")))]).write(to: path)
        return path
    }

    private func run(_ arguments: [String]) throws -> String {
        let result = try runSheetport(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return String(decoding: result.stdout, as: UTF8.self)
    }

    @Test func jsonIsOneArrayOfTheRecords() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try book(in: folder)
        let ndjson = try run(["convert", path, "--to", "ndjson"])
        let json = try run(["convert", path, "--to", "json"])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(array.count == 2)
        #expect(array[1]["id"] as? Int == 2)
        #expect(array[0]["note\u{2028}"] as? String == "a\u{2028}b\u{2029}c\u{2027}\u{0}")
        #expect(json == "[\n" + ndjson.split(separator: "\n").joined(separator: ",\n") + "\n]\n")
        // The file name gives the format too; an empty sheet is an empty array.
        let out = folder.appendingPathComponent("out.json").path
        _ = try run(["convert", path, "-o", out])
        #expect(try String(contentsOfFile: out, encoding: .utf8) == json)
        let empty = folder.appendingPathComponent("empty.xlsx").path
        try RawWorkbook(sheets: [RawWorkbook.Sheet(name: "E", sheetData: "")]).write(to: empty)
        #expect(try run(["convert", empty, "--to", "json"]) == "[]\n")
    }

    @Test func emptyRowsAreLeftOutUnlessKept() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try book(in: folder)
        #expect(try run(["convert", path, "--to", "ndjson"]).split(separator: "\n").count == 2)
        let kept = try run(["convert", path, "--to", "ndjson", "--keep-empty-rows"]).split(separator: "\n")
        #expect(kept.count == 4)
        #expect(kept[1] == #"{"id":null,"note\u2028":null}"#)
        let keptArray = try #require(try JSONSerialization.jsonObject(with: Data(try run(["convert", path, "--to", "json", "--keep-empty-rows"]).utf8)) as? [Any])
        #expect(keptArray.count == 4)
        for bad in [["--to", "csv", "--keep-empty-rows"], ["--to", "json", "--keep-empty-rows", "--skip-empty-rows"]] {
            let result = try runSheetport(["convert", path] + bad)
            #expect(result.status == 2 && result.stderr.contains("--keep-empty-rows"), "\(result.stderr)")
        }
    }

    @Test func lineAndParagraphSeparatorsAreEscapedInEveryJSONOutput() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try book(in: folder)
        for format in ["ndjson", "json", "jsonl"] {
            let text = try run(["convert", path, "--to", format])
            #expect(!text.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" }, "\(format)")
            #expect(text.contains(#"a\u2028b\u2029c"#) && text.contains("\u{2027}") && text.contains(#"\u0000"#), "\(format): \(text)")
        }
        let check = try run(["check", path, "--json"])
        #expect(!check.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" })
        // The shared escaper and the import's stored cells agree.
        #expect(JSON.quoted("x\u{2028}\u{2029}é€\u{2030}") == #""x\u2028\u2029é€‰""#)
        let sink = ByteSink()
        sink.putEscaped("x\u{2028}\u{2029}é€\u{2030}")
        #expect(Array(sink.bytes) == Array(JSON.quoted("x\u{2028}\u{2029}é€\u{2030}").utf8))
    }
}
