import Testing
import SheetPortCore
@testable import SheetPortReader
import SheetPortTestSupport

/// `Workbook.application()` finds `docProps/app.xml` through the package relationships read
/// when the workbook was opened: a part under another name is found by its relationship, a
/// damaged `_rels/.rels` falls back on the usual name, and a hostile target names no part.
@Suite struct WorkbookApplicationTests {
    static let rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    static let properties = "<?xml version=\"1.0\"?><Properties xmlns=\"http://schemas.openxmlformats.org/officeDocument/2006/extended-properties\">"
        + "<Application>Microsoft Macintosh Excel</Application></Properties>"

    static func application(packageRelationships: String?, parts: [(String, String)]) throws -> String? {
        var raw = RawWorkbook(sheets: [.init(name: "S", sheetData: RawWorkbook.row(1, RawWorkbook.number("A1", "1")))])
        raw.otherParts = parts
        var files = raw.parts
        if let packageRelationships {
            files.removeAll { $0.0 == "_rels/.rels" }
            files.append(("_rels/.rels", packageRelationships))
        }
        let workbook = try Workbook(bytes: StoredZip.make(files.map { ($0.0, Array($0.1.utf8)) }), name: "app.xlsx")
        #expect(workbook.workbookPart == "xl/workbook.xml")
        return workbook.application()
    }

    static func relationships(appTarget: String) -> String {
        "<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
            + "<Relationship Id=\"rId1\" Type=\"\(rel)/officeDocument\" Target=\"xl/workbook.xml\"/>"
            + "<Relationship Id=\"rId2\" Type=\"\(rel)/extended-properties\" Target=\"\(appTarget)\"/></Relationships>"
    }

    @Test func theRelationshipNamesThePart() throws {
        #expect(try Self.application(packageRelationships: Self.relationships(appTarget: "meta/props.xml"),
                                     parts: [("meta/props.xml", Self.properties)]) == "Microsoft Macintosh Excel")
        #expect(try Self.application(packageRelationships: nil, parts: [("docProps/app.xml", Self.properties)])
                == "Microsoft Macintosh Excel", "no relationship: the usual name")
    }

    @Test func hostileOrDamagedRelationshipsNameNoOtherPart() throws {
        #expect(try Self.application(packageRelationships: "<Relationships", parts: [("docProps/app.xml", Self.properties)])
                == "Microsoft Macintosh Excel", "a damaged _rels/.rels: located by content type, app by its usual name")
        for target in ["../../etc/passwd", "", "/xl/workbook.xml", String(repeating: "a/", count: 5_000)] {
            #expect(try Self.application(packageRelationships: Self.relationships(appTarget: target),
                                         parts: [("docProps/app.xml", Self.properties)]) == nil, "\(target.prefix(40))")
        }
    }
}
