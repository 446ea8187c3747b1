import Foundation
import Testing
@testable import SheetPortCore
import SheetPortTestSupport
@testable import SheetPortReader
@testable import SheetPortClient
@testable import SheetPortServer

/// Finding `first-worksheet-hidden`, and Windows-reserved device names made safe in `--all`
/// (Docs/Reference/CLI.md, "sheetport convert").
@Suite struct HiddenAndReservedTests {
    @Test(arguments: [("hidden", true), ("veryHidden", true), ("visible", false)])
    func theSheetAnImportTakesIsHidden(_ state: String, _ warned: Bool) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        typealias W = RawWorkbook
        let path = folder.appendingPathComponent("hidden.xlsx").path
        var first = W.Sheet(name: "Secret \"plans\"", sheetData: W.row(1, W.number("A1", "1")))
        first.state = state
        try RawWorkbook(sheets: [W.Sheet(name: "Chart", kind: "chartsheet"), first,
                                 W.Sheet(name: "Shown", sheetData: W.row(1, W.number("A1", "2")))]).write(to: path)
        let result = try runSheetport(["check", path, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        let finding = findings.first { $0["code"] as? String == "first-worksheet-hidden" }
        #expect((finding != nil) == warned, "\(findings)")
        if let finding {
            #expect(finding["severity"] as? String == "warning")
            #expect((finding["message"] as? String)?.contains(state == "veryHidden" ? "very hidden" : "is hidden") == true)
            #expect((finding["message"] as? String)?.contains("Secret \"plans\"") == true)
            #expect(report["importable"] as? Bool == true)
            let gate = try runSheetport(["check", path, "--fail-on", "warning", "--ignore", "extra-worksheets,first-worksheet-hidden"])
            #expect(gate.status == 0, "\(gate.stdout) \(gate.stderr)")
            #expect(try runSheetport(["check", path, "--fail-on", "warning", "--ignore", "extra-worksheets"]).status == 1)
        }
    }

    @Test func windowsDeviceNamesAreMadeSafe() throws {
        for (name, safe) in [("CON", "CON_"), ("con", "con_"), ("Aux.old", "Aux_.old"), ("NUL ", "NUL_"), ("LPT9", "LPT9_"),
                             ("COM1", "COM1_"), ("prn.tar.gz", "prn_.tar.gz"), ("COM10", "COM10"), ("CONSOLE", "CONSOLE"),
                             ("LPT0", "LPT0"), ("xCON", "xCON"), ("COM\u{B9}", "COM\u{B9}_"), ("..CON", "CON_")] {
            #expect(FileNames.safe(name) == safe, "\(name)")
        }
        #expect(FileNames.unique(for: ["CON", "CON_", "con"], fileExtension: "csv") == ["CON_.csv", "CON_ (2).csv", "con_ (3).csv"])
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        typealias W = RawWorkbook
        let path = folder.appendingPathComponent("devices.xlsx").path
        try RawWorkbook(sheets: ["PRN", "aux.data", "COM3", "Report"].map { W.Sheet(name: $0, sheetData: W.row(1, W.number("A1", "1"))) })
            .write(to: path)
        let out = folder.appendingPathComponent("out")
        let result = try runSheetport(["convert", path, "--all", "-o", out.path, "--no-progress"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["COM3_.csv", "PRN_.csv", "Report.csv", "aux_.data.csv"])
    }
}
