import Foundation
import Testing
import SheetPortTestSupport

/// `convert a.csv b.csv c.tsv -o book.xlsx`: one sheet per input, in order, named from the
/// file or by `--sheet` once per input, published atomically.
@Suite struct SeveralInputsTests {
    static func write(_ text: String, _ name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static func sheets(_ path: String) throws -> [String] {
        let listing = String(decoding: try runSheetport(["sheets", path, "--json"]).stdout, as: UTF8.self)
        let object = try JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [String: Any]
        return (object?["sheets"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    static func csv(_ path: String, sheet: String) throws -> String {
        String(decoding: try runSheetport(["convert", path, "--sheet", sheet, "--line-ending", "lf"]).stdout, as: UTF8.self)
    }

    @Test func eachInputIsASheetInOrder() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = try Self.write("id,n\n007,1\n", "a.csv", in: folder)
        let b = try Self.write("x\ty\n2\tz\n", "b.tsv", in: folder)
        let c = try Self.write("{\"ref\":\"B1\",\"type\":\"number\",\"value\":3}\n", "c.jsonl", in: folder)
        let again = try Self.write("q\n9\n", "other/A.csv", in: folder)
        let book = folder.appendingPathComponent("book.xlsx").path
        let result = try runSheetport(["convert", a, b, c, again, "-o", book, "--no-progress"])
        #expect(result.status == 0, "\(result.stderr)")
        // The same name twice (ignoring case, as Excel compares them) gets a number.
        #expect(try Self.sheets(book) == ["a", "b", "c", "A (2)"])
        #expect(try Self.csv(book, sheet: "a") == "id,n\n007,1\n")
        #expect(try Self.csv(book, sheet: "b") == "x,y\n2,z\n")
        #expect(try Self.csv(book, sheet: "c") == ",3\n")
        #expect(try Self.csv(book, sheet: "A (2)") == "q\n9\n")
        #expect(result.stderr.contains("\"A (2)\": 2 rows"), "\(result.stderr)")

        let named = folder.appendingPathComponent("named.xlsx").path
        let renamed = try runSheetport(["convert", a, b, "-o", named, "--sheet", "First", "--sheet", "Second"])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(try Self.sheets(named) == ["First", "Second"])
    }

    @Test func sheetNamesFromLongFileNamesStayUniqueWithinExcelsLimit() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let long = String(repeating: "n", count: 40)
        let inputs = try (1...3).map { try Self.write("v\n\($0)\n", "d\($0)/\(long).csv", in: folder) }
        let book = folder.appendingPathComponent("book.xlsx").path
        let result = try runSheetport(["convert"] + inputs + ["-o", book])
        #expect(result.status == 0, "\(result.stderr)")
        let names = try Self.sheets(book)
        #expect(names == [String(repeating: "n", count: 31), String(repeating: "n", count: 27) + " (2)", String(repeating: "n", count: 27) + " (3)"])
    }

    @Test func badCombinationsAreUsageErrors() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = try Self.write("a\n1\n", "a.csv", in: folder)
        let b = try Self.write("b\n2\n", "b.csv", in: folder)
        let book = folder.appendingPathComponent("book.xlsx").path
        let workbook = folder.appendingPathComponent("w.xlsx").path
        #expect(try runSheetport(["convert", a, "-o", workbook]).status == 0)
        for arguments in [[a, b], [a, b, "-o", book, "--sheet", "One"], [a, b, "-o", book, "--sheet", "One", "--sheet", "one"],
                          [a, b, "-o", folder.appendingPathComponent("o.csv").path], [a, "-", "-o", book], [a, workbook, "-o", book],
                          [a, b, "-o", book, "--limit", "1"], [a, b, "-o", book, "--recalc"]] {
            let result = try runSheetport(["convert"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: book), "\(arguments)")
        }
        // Explicit names Excel refuses.
        let refused = try runSheetport(["convert", a, b, "-o", book, "--sheet", "ok", "--sheet", "bad/name"])
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: book))
    }

    /// An input that fails halfway (the second, at its second line) leaves no workbook, an
    /// earlier one untouched, and nothing temporary beside it.
    @Test func aFailureHalfwayLeavesNothing() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = try Self.write("a\n" + (1...50_000).map(String.init).joined(separator: "\n") + "\n", "a.csv", in: folder)
        let bad = try Self.write("{\"ref\":\"A1\",\"type\":\"number\",\"value\":1}\n{\"ref\":\"A2\",\"type\":\"bogus\"}\n", "bad.jsonl", in: folder)
        let book = folder.appendingPathComponent("book.xlsx").path
        let result = try runSheetport(["convert", a, bad, "-o", book])
        #expect(result.status == 3)
        #expect(result.stderr.contains("bad.jsonl") && result.stderr.contains("line 2"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: book))
        try Data("earlier".utf8).write(to: URL(fileURLWithPath: book))
        let again = try runSheetport(["convert", a, bad, "-o", book])
        #expect(again.status == 3)
        #expect(try Data(contentsOf: URL(fileURLWithPath: book)) == Data("earlier".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["a.csv", "bad.jsonl", "book.xlsx"])
    }
}
