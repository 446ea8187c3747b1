import Foundation
import Testing
import SheetPortCore
@testable import SheetPortReader
import SheetPortTestSupport

/// `Workbook.lastModified()` reads `dcterms:modified` from the core properties, found through the
/// package relationships; a damaged part or a value that is no W3CDTF date-time gives nil.
@Suite struct WorkbookLastModifiedTests {
    static let rel = "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties"

    static func core(_ modified: String) -> String {
        "<?xml version=\"1.0\"?><cp:coreProperties xmlns:cp=\"http://schemas.openxmlformats.org/package/2006/metadata/core-properties\""
            + " xmlns:dcterms=\"http://purl.org/dc/terms/\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">"
            + "<dcterms:created xsi:type=\"dcterms:W3CDTF\">2001-01-01T00:00:00Z</dcterms:created>"
            + "<dcterms:modified xsi:type=\"dcterms:W3CDTF\">\(modified)</dcterms:modified></cp:coreProperties>"
    }

    static func lastModified(corePart: (String, String)?, coreTarget: String? = nil) throws -> Date? {
        var raw = RawWorkbook(sheets: [.init(name: "S", sheetData: RawWorkbook.row(1, RawWorkbook.number("A1", "1")))])
        raw.otherParts = corePart.map { [$0] } ?? []
        var files = raw.parts
        if let coreTarget {
            files.removeAll { $0.0 == "_rels/.rels" }
            files.append(("_rels/.rels", "<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
                + "<Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" Target=\"xl/workbook.xml\"/>"
                + "<Relationship Id=\"rId2\" Type=\"\(rel)\" Target=\"\(coreTarget)\"/></Relationships>"))
        }
        return try Workbook(bytes: StoredZip.make(files.map { ($0.0, Array($0.1.utf8)) }), name: "core.xlsx").lastModified()
    }

    @Test func readsTheSaveMomentOfExcelsCoreProperties() throws {
        // The gantt template of the calculation suite: saved 2026-07-23T10:33:41Z.
        #expect(try Self.lastModified(corePart: ("docProps/core.xml", Self.core("2026-07-23T10:33:41Z")))?.timeIntervalSince1970 == 1_784_802_821)
        #expect(try Self.lastModified(corePart: ("meta/c.xml", Self.core("1970-01-01T00:00:00Z")), coreTarget: "meta/c.xml")?.timeIntervalSince1970 == 0,
                "found through its relationship")
    }

    @Test func readsEveryW3CDTFForm() {
        #expect(W3CDateTime.unixTime("2026-07-23T10:33:41Z") == 1_784_802_821)
        #expect(W3CDateTime.unixTime("2026-07-23T12:33:41+02:00") == 1_784_802_821, "a zone ahead of UTC")
        #expect(W3CDateTime.unixTime("2026-07-23T05:03:41-05:30") == 1_784_802_821, "a zone behind UTC")
        #expect(W3CDateTime.unixTime("2026-07-23T10:33:41.25Z") == 1_784_802_821.25)
        #expect(W3CDateTime.unixTime("2026-07-23T10:33Z") == 1_784_802_780)
        #expect(W3CDateTime.unixTime("2026-07-23") == 1_784_764_800)
        #expect(W3CDateTime.unixTime("2026-07") == 1_782_864_000)
        #expect(W3CDateTime.unixTime("2024-02-29T00:00:00Z") == 1_709_164_800, "a leap day")
        #expect(W3CDateTime.unixTime("1899-12-31T00:00:00Z") == -2_209_075_200, "before 1970")
    }

    @Test func refusesWhatIsNoDateTime() throws {
        for text in ["", "x026-07-23", "2026-13-01", "2026-00-10", "2023-02-29", "2026-04-31", "2026-07-23T24:00:00Z",
                     "2026-07-23T10:60:00Z", "2026-07-23T10:33:41", "2026-07-23T10:33:41.Z", "2026-07-23T10:33:41+15:00",
                     "2026-07-23T10:33:41Zjunk", "2026-07-23 10:33:41Z", "-2026-07-23", "２０２６-07-23",
                     String(repeating: "9", count: 10_000)] {
            #expect(W3CDateTime.unixTime(text) == nil, "\(text.prefix(40))")
        }
        #expect(W3CDateTime.unixTime("2026") == 1_767_225_600, "a year alone is a W3CDTF date")
        #expect(try Self.lastModified(corePart: nil) == nil, "no core properties")
        #expect(try Self.lastModified(corePart: ("docProps/core.xml", "<cp:coreProperties")) == nil, "a damaged part")
        #expect(try Self.lastModified(corePart: ("docProps/core.xml", Self.core("yesterday"))) == nil)
        #expect(try Self.lastModified(corePart: ("docProps/core.xml", Self.core(String(repeating: "2026-07-23", count: 100_000)))) == nil,
                "a megabyte of text is cut short and refused")
        for target in ["../../etc/passwd", "", "/xl/workbook.xml"] {
            #expect(try Self.lastModified(corePart: ("docProps/core.xml", Self.core("2026-07-23T10:33:41Z")), coreTarget: target) == nil, "\(target)")
        }
    }
}
