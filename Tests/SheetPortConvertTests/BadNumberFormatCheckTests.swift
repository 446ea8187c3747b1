import Foundation
import Testing
import SheetPortCore
import SheetPortConvert
import SheetPortTestSupport

/// `check` names cells whose number format Excel would not take (`bad-number-format`, warning),
/// counted over every style that has one, and nothing for a workbook whose formats are Excel's.
@Suite struct BadNumberFormatCheckTests {
    @Test func invalidFormatsAreAWarningWithTheirCells() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bad-formats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("bad.xlsx").path
        try writeWithOpenpyxl("""
            for ref, code in [('B2', '0 kg'), ('B3', '0 kg'), ('C4', '[Purple]0'), ('D5', '0.00'), ('E6', '?/' + '?' * 20)]:
                ws[ref] = 5
                ws[ref].number_format = code
            ws['F7'] = 1
            ws['F7'].number_format = '0' * 300
            """, to: bad)
        let report = try Preflight.check(path: bad)
        let findings = report.findings.filter { $0.code == "bad-number-format" }
        try #require(findings.count == 1, "\(report.findings)")
        let finding = findings[0]
        #expect(finding.severity == .warning && finding.count == 4, "\(finding)")
        #expect(finding.message.contains("first: B2") && finding.message.contains("0 kg") && finding.message.contains("General"), "\(finding.message)")

        let good = folder.appendingPathComponent("good.xlsx").path
        try writeWithOpenpyxl("ws['A1'] = 5\nws['A1'].number_format = '# ?/?'\nws['A2'] = 1\nws['A2'].number_format = '[Red]0.00;(0.00)'", to: good)
        #expect(try Preflight.check(path: good).findings.allSatisfy { $0.code != "bad-number-format" })
    }
}
