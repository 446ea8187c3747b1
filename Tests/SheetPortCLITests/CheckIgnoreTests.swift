import SheetPortTestSupport
import Foundation
import Testing

/// `check --ignore CODE[,CODE...]`: those codes are left out of `--fail-on warning`.
@Suite struct CheckIgnoreTests {
    /// multi_sheet.xlsx has three warnings: extra-worksheets, unsupported-feature (a chart) and
    /// first-worksheet-hidden.
    let book = Project.fixture("multi_sheet.xlsx")

    static let cases: [([String], Int32)] = [
        ([], 1),
        (["--ignore", "extra-worksheets"], 1),
        (["--ignore", "extra-worksheets,unsupported-feature"], 1),
        (["--ignore", "extra-worksheets,unsupported-feature,first-worksheet-hidden"], 0),
        (["--ignore", "extra-worksheets", "--ignore", "Unsupported-Feature", "--ignore", "first-worksheet-hidden"], 0),
        (["--ignore=unsupported-feature, extra-worksheets,date-1904,First-Worksheet-Hidden"], 0),
    ]

    @Test(arguments: cases)
    func ignoredCodesDoNotFail(_ extra: [String], _ status: Int32) throws {
        let result = try runSheetport(["check", book, "--fail-on", "warning"] + extra)
        #expect(result.status == status, "\(result.stderr)")
        // The findings are still reported.
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("[extra-worksheets"))
    }

    @Test func ignoringDoesNotMakeAnUnimportableFileImportable() throws {
        let result = try runSheetport(["check", "-", "--fail-on", "warning", "--ignore", "extra-worksheets"], input: Data("a,b\n".utf8))
        #expect(result.status == 1)
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("NOT importable"))
    }

    @Test(arguments: [
        ("not-a-zip", "cannot be ignored"),
        ("zip-bomb", "cannot be ignored"),
        ("extra-worksheet", "did you mean extra-worksheets?"),
        ("", "unknown code \"\""),
        ("a,,b", "unknown code"),
        ("\u{1B}[31mred", "unknown code \"\\u{1B}[31mred\""),
        (String(repeating: "x", count: 50_000), "the codes are"),
    ])
    func badCodesAreUsageErrors(_ code: String, _ message: String) throws {
        let result = try runSheetport(["check", book, "--fail-on", "warning", "--ignore", code])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr.prefix(300))")
        #expect(!result.stderr.contains("\u{1B}"))
    }
}
