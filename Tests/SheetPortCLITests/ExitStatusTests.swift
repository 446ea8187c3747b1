import Foundation
import Testing
import SheetPortTestSupport

/// The exit statuses of `convert`, `sheets` and `check` (Docs/Reference/CLI.md, "Exit status"):
/// 2 usage, 3 an input that cannot be read, 4 an output that cannot be written; `--json` puts
/// the error object on standard error; `check` judges corrupt and encrypted files not importable.
@Suite struct ExitStatusTests {
    private let encrypted = Project.root.appendingPathComponent("Fixtures/hostile/encrypted.xlsx").path
    private let good = Project.fixture("multi_sheet.xlsx")

    @Test func convertAndSheetsTellUsageInputAndOutputApart() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let corrupt = folder.appendingPathComponent("corrupt.xlsx").path
        try Data([0x50, 0x4B, 0x03, 0x04] + Array(repeating: 0xEE, count: 64)).write(to: URL(fileURLWithPath: corrupt))
        let cases: [([String], Int32, String)] = [
            (["convert", good, "--to", "pdf"], 2, "usage"),
            (["convert", good, "--bogus"], 2, "usage"),
            (["convert", encrypted, "-o", folder.appendingPathComponent("e.csv").path], 3, "encrypted-workbook"),
            (["convert", corrupt, "-o", folder.appendingPathComponent("c.csv").path], 3, "corrupt-zip"),
            (["convert", folder.appendingPathComponent("missing.xlsx").path, "--from", "xlsx"], 3, "io-error"),
            (["convert", good, "-o", folder.appendingPathComponent("no/such/folder/out.csv").path], 4, "unwritable-output"),
            (["convert", good, "-o", "/proc/version"], 4, "unwritable-output"),
            (["sheets", encrypted], 3, "encrypted-workbook"),
            (["sheets", good, "--bogus"], 2, "usage"),
        ]
        for (arguments, status, code) in cases {
            let quiet = arguments[0] == "convert" ? ["--no-progress"] : []
            let plain = try runSheetport(arguments + quiet)
            #expect(plain.status == status, "\(arguments): \(plain.status) \(plain.stderr)")
            #expect(plain.stderr.hasPrefix("sheetport: "), "\(plain.stderr)")
            let json = try runSheetport(arguments + quiet + ["--json"])
            #expect(json.status == status && json.stdout.isEmpty, "\(arguments): \(json.status)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stderr.utf8)) as? [String: Any], "\(json.stderr)")
            let error = try #require(object["error"] as? [String: String])
            #expect(error["code"] == code && error["message"]?.isEmpty == false, "\(arguments): \(error)")
        }
        // A misfit of --types is the input's fault: 3, naming the line.
        let csv = folder.appendingPathComponent("t.csv").path
        try Data("a\nx\n".utf8).write(to: URL(fileURLWithPath: csv))
        let misfit = try runSheetport(["convert", csv, "-o", folder.appendingPathComponent("t.xlsx").path, "--types", "a=number", "--json"])
        #expect(misfit.status == 3 && misfit.stderr.contains("\"code\":\"malformed-text\""), "\(misfit.stderr)")
    }

    @Test func checkJudgesWhatOpensAndFailsOnlyOnWhatDoesNot() throws {
        #expect(try runSheetport(["check", encrypted]).status == 1)
        #expect(try runSheetport(["check", good, encrypted]).status == 1)
        #expect(try runSheetport(["check", "/nonexistent/book.xlsx"]).status == 3)
        #expect(try runSheetport(["check", encrypted, "/nonexistent/book.xlsx", good]).status == 3) // the worst
        #expect(try runSheetport(["check", "--bogus", good]).status == 2)
    }
}
