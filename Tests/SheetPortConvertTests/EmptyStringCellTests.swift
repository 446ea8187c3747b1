import Foundation
import Testing
import SheetPortCore
import SheetPortReader
import SheetPortConvert
import SheetPortTestSupport

/// A cell holding an empty string (`<si><t/></si>`): the reader keeps it as the text "" (Excel's
/// MATCH("",...) finds it), and cell JSONL still leaves it out (Docs/Reference/Formats.md).
@Suite struct EmptyStringCellTests {
    static let file = Project.calcSuite.appendingPathComponent("ironcalc__calc_tests__LOOKUP_AND_REFERENCE__MATCH.xlsx").path

    @Test func anEmptySharedStringIsATextCellThatJSONLLeavesOut() throws {
        try #require(FileManager.default.fileExists(atPath: Self.file), "no calculation suite at \(Project.calcSuite.path)")
        let workbook = try Workbook(path: Self.file)
        let sheet = try #require(workbook.firstWorksheet)
        var shown: CellValue?
        try workbook.rows(of: sheet).forEachRow { row in
            if row.index == 16 { shown = row.cells.first { $0.column == 1 }?.value }
        }
        #expect(shown == .string(""))
        let lines = try convert(Self.file, to: .jsonl)
        #expect(lines.contains(#""ref":"B16""#) && !lines.contains(#""ref":"A16""#))
    }
}
