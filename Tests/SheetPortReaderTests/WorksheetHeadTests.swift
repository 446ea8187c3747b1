import Foundation
import Testing
@testable import SheetPortReader
import SheetPortCore
import SheetPortTestSupport

/// `Workbook.declaredDimension(of:)`: the `<dimension ref>` read from the worksheet's head
/// through the hardened parser, the cells never read; hostile heads refused as any part is.
@Suite struct WorksheetHeadTests {
    private let main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"

    private func dimension(_ sheetXML: String) throws -> String? {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let workbook = try Workbook(path: try minimalWorkbook(sheetXML: sheetXML, in: folder))
        return try workbook.declaredDimension(of: #require(workbook.firstWorksheet))
    }

    @Test func theHeadIsReadUpToSheetData() throws {
        #expect(try dimension("<worksheet xmlns=\"\(main)\"><dimension ref=\"A1:J20\"/><sheetData><row r=\"1\"/></sheetData></worksheet>") == "A1:J20")
        // A prefixed namespace, and a dimension after other head elements.
        #expect(try dimension("<x:worksheet xmlns:x=\"\(main)\"><x:sheetPr/><x:dimension ref=\"$B$2:$XFD$1048576\"/><x:sheetData/></x:worksheet>") == "$B$2:$XFD$1048576")
        // None before the cells: a dimension after `<sheetData>` is not the head's.
        #expect(try dimension("<worksheet xmlns=\"\(main)\"><sheetData/><dimension ref=\"A1:B2\"/></worksheet>") == nil)
        // The cells after `<sheetData>` are never parsed: malformed ones do not matter here.
        #expect(try dimension("<worksheet xmlns=\"\(main)\"><dimension ref=\"A1\"/><sheetData><row r=\"1\"><c r=\"A1\"><v>1</v></row></bogus>") == "A1")
    }

    @Test func hostileHeadsAreRefusedAsAnyPart() throws {
        let doctype = "<!DOCTYPE worksheet [<!ENTITY x \"y\">]><worksheet xmlns=\"\(main)\"><dimension ref=\"&x;\"/><sheetData/></worksheet>"
        #expect { try dimension(doctype) } throws: { ($0 as? ReaderError)?.code == .forbiddenDTD }
        #expect { try dimension("<worksheet xmlns=\"\(main)\"><dimension ref=\"A1\"") } throws: { ($0 as? ReaderError)?.code == .malformedXML }
    }
}
