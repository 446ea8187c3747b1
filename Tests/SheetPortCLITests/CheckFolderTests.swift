import Foundation
import Testing
import SheetPortTestSupport

/// `check DIR`: every .xlsx/.xlsm under it, recursively, in name order, one JSON object per
/// file, a closing summary on standard error, the worst exit status (Docs/Reference/CLI.md, "sheetport check").
@Suite struct CheckFolderTests {
    private func folder() throws -> URL {
        let root = try temporaryFolder()
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("sub/deeper"), withIntermediateDirectories: true)
        let good = root.appendingPathComponent("b-good.xlsx").path
        try RawWorkbook(sheets: [RawWorkbook.Sheet(name: "S", sheetData: RawWorkbook.row(1, RawWorkbook.number("A1", "1")))]).write(to: good)
        try fm.copyItem(atPath: Project.fixture("multi_sheet.xlsx"), toPath: root.appendingPathComponent("sub/a-warned.XLSM").path)
        try Data("a,b\n".utf8).write(to: root.appendingPathComponent("sub/deeper/c-text.xlsx"))
        try Data("a,b\n".utf8).write(to: root.appendingPathComponent("sub/notes.csv"))
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("d-broken.xlsx").path, withDestinationPath: "/nonexistent/x.xlsx")
        return root
    }

    @Test func everyWorkbookUnderTheFolderInNameOrder() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try runSheetport(["check", root.path, "--json", "--no-progress"])
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let names = objects.compactMap { ($0["file"] as? String).map { String($0.dropFirst(root.path.count + 1)) } }
        #expect(names == ["b-good.xlsx", "d-broken.xlsx", "sub/a-warned.XLSM", "sub/deeper/c-text.xlsx"])
        #expect(objects.map { $0["importable"] as? Bool } == [true, false, true, false])
        let error = try #require(objects[1]["error"] as? [String: Any])
        #expect(error["code"] as? String == "io-error" && (error["message"] as? String)?.isEmpty == false)
        #expect(result.status == 3) // the worst: a file could not be opened
        #expect(result.stderr.contains("checked 4 files: 2 importable, 1 not importable, 1 could not be read"), "\(result.stderr)")
    }

    @Test func theSummarySaysWhyFailOnFailed() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.removeItem(at: root.appendingPathComponent("d-broken.xlsx"))
        try FileManager.default.removeItem(at: root.appendingPathComponent("sub/deeper/c-text.xlsx"))
        let plain = try runSheetport(["check", root.path, "--no-progress"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stderr.contains("checked 2 files: 2 importable, 0 not importable"))
        let gate = try runSheetport(["check", root.path, "--fail-on", "warning", "--ignore", "unsupported-feature", "--no-progress"])
        #expect(gate.status == 1)
        #expect(gate.stderr.contains("--fail-on warning failed on 1 importable file with warnings (extra-worksheets 1, first-worksheet-hidden 1)"), "\(gate.stderr)")
        let empty = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: empty) }
        let none = try runSheetport(["check", empty.path])
        #expect(none.status == 2 && none.stderr.contains("no .xlsx or .xlsm"))
    }
}
