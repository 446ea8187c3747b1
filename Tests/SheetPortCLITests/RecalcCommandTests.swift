import SheetPortTestSupport
import Foundation
import Testing

/// `sheetport convert --recalc` and `sheetport check --recalc` (Docs/Reference/CLI.md).
@Suite struct RecalcCommandTests {
    private func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    /// The issue's example, written by openpyxl (formulas without cached values), in every format.
    @Test func convertRecalcWritesComputedValuesInEveryFormat() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("issue.xlsx").path
        try writeWithOpenpyxl("""
            ws["A1"] = 1; ws["A2"] = 2; ws["A3"] = "=SUM(A1:A2)"; ws["B1"] = "=A1*10"
            """, to: book)
        let csv = try runSheetport(["convert", book, "--recalc", "--line-ending", "lf"])
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(text(csv.stdout) == "1,10\n2,\n3,\n")
        #expect(text(try runSheetport(["convert", book, "--line-ending", "lf", "--no-recalc"]).stdout) == "1,\n2,\n,\n")
        #expect(text(try runSheetport(["convert", book, "--recalc", "--to", "tsv"]).stdout) == "1\t10\n2\t\n3\t\n")
        let jsonl = text(try runSheetport(["convert", book, "--recalc", "--to", "jsonl"]).stdout)
        #expect(jsonl.contains(#"{"ref":"B1","type":"number","value":10,"formula":"A1*10"}"#), "\(jsonl)")
        #expect(jsonl.contains(#"{"ref":"A3","type":"number","value":3,"formula":"SUM(A1:A2)"}"#), "\(jsonl)")
        for format in ["ndjson", "json"] {
            let records = try runSheetport(["convert", book, "--recalc", "--to", format, "--header-row", "1"])
            #expect(records.status == 0, "\(records.stderr)")
            // The header row is 1 | 10: the computed B1 is a key.
            #expect(text(records.stdout).contains("\"10\""), "\(format): \(text(records.stdout))")
            #expect(text(records.stdout).contains("3"), "\(format): \(text(records.stdout))")
        }
        #expect(try runSheetport(["convert", "--help"]).stdout.range(of: Data("--recalc".utf8)) != nil)
        // Text input has no formulas to recompute: a usage error, not a silent no-op.
        let csvInput = folder.appendingPathComponent("in.csv")
        try Data("a,b\n1,2\n".utf8).write(to: csvInput)
        let refused = try runSheetport(["convert", csvInput.path, "--recalc", "-o", folder.appendingPathComponent("x.xlsx").path])
        #expect(refused.status == 2 && refused.stderr.contains("--recalc"), "\(refused.stderr)")
    }

    /// With --all every sheet is loaded into one engine: references across sheets resolve.
    @Test func convertAllRecalcResolvesReferencesAcrossSheets() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("sheets.xlsx").path
        try writeWithOpenpyxl("""
            ws.title = "Data"; ws["A1"] = 4; ws["A2"] = "=Totals!A1*2"
            t = wb.create_sheet("Totals"); t["A1"] = "=SUM(Data!A1:A1)+1"; t["A2"] = "='Data'!A1&\\" units\\""
            """, to: book)
        let out = folder.appendingPathComponent("out")
        let result = try runSheetport(["convert", book, "--all", "--recalc", "-o", out.path, "--line-ending", "lf"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: out.appendingPathComponent("Data.csv"), encoding: .utf8) == "4\n10\n")
        #expect(try String(contentsOf: out.appendingPathComponent("Totals.csv"), encoding: .utf8) == "5\n4 units\n")
        // One sheet alone resolves too (all sheets are loaded).
        let one = try runSheetport(["convert", book, "--sheet", "Totals", "--recalc", "--line-ending", "lf"])
        #expect(text(one.stdout) == "5\n4 units\n")
    }

    /// NOW and TODAY read the local time zone in convert: 26 hours apart, TODAY differs.
    @Test func todayUsesTheLocalTimeZone() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("today.xlsx").path
        try writeWithOpenpyxl(#"ws["A1"] = "=TODAY()+0""#, to: book)
        func today(_ zone: String) throws -> Double {
            let result = try runSheetport(["convert", book, "--recalc", "--line-ending", "lf"], environment: ["TZ": zone])
            return try #require(Double(text(result.stdout).trimmingCharacters(in: .whitespacesAndNewlines)), "\(text(result.stdout)) \(result.stderr)")
        }
        let east = try today("Etc/GMT-14"), west = try today("Etc/GMT+12")
        #expect(east - west == 1 || east - west == 2, "UTC+14 \(east), UTC-12 \(west)")
    }

    /// `check --recalc` on hostile formulas: findings with their codes, in JSON and for a person.
    @Test func checkRecalcReportsHostileFormulas() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("hostile.xlsx").path
        try writeWithOpenpyxl("""
            ws["A1"] = "=B1+1"; ws["B1"] = "=A1+1"
            ws["C1"] = "=NOSUCHFUNCTION(1)"; ws["C2"] = "=NOSUCHFUNCTION(2)"
            ws["D1"] = "=" + "+".join(["1"] * 4095) + "+2"
            ws["E1"] = "=[1]Sheet1!A1"
            """, to: book)
        let result = try runSheetport(["check", book, "--recalc", "--json"])
        #expect(result.status == 0, "importable: \(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        func finding(_ code: String) -> [[String: Any]] { findings.filter { $0["code"] as? String == code } }
        #expect(finding("circular-reference").first?["severity"] as? String == "warning")
        #expect((finding("circular-reference").first?["message"] as? String)?.contains("A1, B1") == true)
        #expect(finding("unsupported-function").count == 1, "named once for two cells")
        #expect(finding("unsupported-function").first?["severity"] as? String == "info")
        #expect(finding("unsupported-formula").first?["severity"] as? String == "info")
        #expect(finding("stale-cached-value").isEmpty)
        // The cycle is a warning: --fail-on warning fails on it.
        #expect(try runSheetport(["check", book, "--recalc", "--fail-on", "warning"]).status == 1)
        let human = text(try runSheetport(["check", book, "--recalc"]).stdout)
        #expect(human.contains("[circular-reference]") && human.contains("NOSUCHFUNCTION"), "\(human)")
        // Without --recalc the engine does not run.
        #expect(!text(try runSheetport(["check", book, "--json"]).stdout).contains("circular-reference"))
    }
}
