import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
import SheetPortTestSupport

/// `for try await row in reader` gives the rows `nextRow()` gives, and a damaged part ends the
/// loop with its error after the rows before the damage.
@Suite struct AsyncRowsTests {
    @Test func asyncRowsAreTheRowsOfNextRow() async throws {
        let path = Project.fixture("cell_types.xlsx")
        let book = try Workbook(path: path)
        var expected: [Row] = []
        let reader = try book.rows(of: book.firstWorksheet!)
        while let row = try reader.nextRow() { expected.append(row) }
        var rows: [Row] = []
        for try await row in try book.rows(of: book.firstWorksheet!) { rows.append(row) }
        #expect(!rows.isEmpty)
        #expect(rows == expected)
    }

    @Test func aDamagedPartEndsTheLoopWithItsError() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sheetport-async-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var xml = #"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#
        for row in 1...3 { xml += #"<row r="\#(row)"><c r="A\#(row)"><v>\#(row)</v></c></row>"# }
        xml += "<row r=\"4\"><c r=\"A4\"><v>4</v></c></rowx></sheetData></worksheet>"
        let book = try Workbook(path: try minimalWorkbook(sheetXML: xml, in: folder))
        var seen: [Int] = []
        let error = await #expect(throws: ReaderError.self) {
            for try await row in try book.rows(of: book.firstWorksheet!) { seen.append(row.index) }
        }
        #expect(error?.code == .malformedXML)
        #expect(seen == [1, 2, 3])
    }
}
