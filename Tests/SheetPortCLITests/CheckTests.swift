import Foundation
import Testing
import SheetPortTestSupport

/// `check` on the command line: exit codes, one JSON report a line, standard input and the
/// limit flags (the checks themselves: SheetPortConvertTests' `CheckTests`).
@Suite struct CheckTests {
    @Test func exitCodes() throws {
        let good = Project.fixture("cell_types.xlsx")
        #expect(try runSheetport(["check", good]).status == 0)
        let multi = Project.fixture("multi_sheet.xlsx")
        #expect(try runSheetport(["check", multi]).status == 0)
        #expect(try runSheetport(["check", multi, "--fail-on", "warning"]).status == 1)
        let encrypted = Project.root.appendingPathComponent("Fixtures/hostile/encrypted.xlsx").path
        #expect(try runSheetport(["check", good, encrypted]).status == 1)
        #expect(try runSheetport(["check", "/nonexistent/book.xlsx"]).status == 3)
        #expect(try runSheetport(["check", "--bogus", good]).status == 2)
        #expect(try runSheetport(["check"]).status == 2)
        #expect(try runSheetport(["check", "--help"]).status == 0)
    }

    @Test func jsonOutputIsOneReportPerLine() throws {
        let result = try runSheetport(["check", "--json", Project.fixture("multi_sheet.xlsx"), Project.fixture("cell_types.xlsx")])
        #expect(result.status == 0)
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["importable"] as? Bool == true)
        }
    }

    @Test func standardInputAndLimitFlags() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Project.fixture("cell_types.xlsx")))
        #expect(try runSheetport(["check", "-"], input: bytes).status == 0)
        #expect(try runSheetport(["check", "--max-entries", "2", Project.fixture("cell_types.xlsx")]).status == 1)
        #expect(try runSheetport(["check", "--max-entry-size", "10X", Project.fixture("cell_types.xlsx")]).status == 2)
        #expect(try runSheetport(["check", "--min-inflate-ratio", "0.5", "--max-text-size", "1M",
                                  "--max-total-size", "1G", Project.fixture("cell_types.xlsx")]).status == 0)
    }
}
