import Foundation
import Testing
import SheetPortCore
import SheetPortReader
import SheetPortCalc
@testable import SheetPortConvert
import SheetPortTestSupport

/// GETPIVOTDATA through the file's pivot table parts: the corpus's Excel-saved pivot table, and
/// hand-built ones whose parts lie (indexes pointing nowhere, no cache, a location off the sheet).
@Suite struct PivotTableRecalcTests {
    @Test func excelsPivotTableAnswersFromItsCells() throws {
        let path = Project.corpus.appendingPathComponent("poi__54436.xlsx").path
        let calculation = try WorkbookCalculation(try Workbook(path: path), withholdCachedValues: true)
        #expect(calculation.engine.value(at: CellReference("A14")!, sheet: 0) == .number(3))
    }

    /// One sheet: Category/Score source rows, a pivot table at A8:B11 (`pivot`'s XML) and
    /// GETPIVOTDATA formulas in D1, D2, ... (their values are returned).
    func computed(pivot: String, cache: String? = PivotTableRecalcTests.cache, formulas: [String]) throws -> [CalcValue] {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("pivot.xlsx").path
        let rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
        var rows = RawWorkbook.row(8, RawWorkbook.text("A8", "Row Labels"), RawWorkbook.text("B8", "Sum of Score"))
            + RawWorkbook.row(9, RawWorkbook.text("A9", "Category 1"), RawWorkbook.number("B9", "3"))
            + RawWorkbook.row(10, RawWorkbook.text("A10", "Category 2"), RawWorkbook.number("B10", "12"))
            + RawWorkbook.row(11, RawWorkbook.text("A11", "Grand Total"), RawWorkbook.number("B11", "15"))
        rows = formulas.enumerated().map { "<row r=\"\($0.offset + 1)\"><c r=\"D\($0.offset + 1)\"><f>\(RawWorkbook.escaped($0.element))</f></c></row>" }.joined() + rows
        var raw = RawWorkbook(sheets: [.init(name: "S", sheetData: rows)])
        raw.otherParts = [
            ("xl/worksheets/_rels/sheet1.xml.rels", "<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
                + "<Relationship Id=\"rId1\" Type=\"\(rel)/pivotTable\" Target=\"../pivotTables/pivotTable1.xml\"/></Relationships>"),
            ("xl/pivotTables/pivotTable1.xml", pivot),
            ("xl/pivotTables/_rels/pivotTable1.xml.rels", "<?xml version=\"1.0\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
                + "<Relationship Id=\"rId1\" Type=\"\(rel)/pivotCacheDefinition\" Target=\"../pivotCache/pivotCacheDefinition1.xml\"/></Relationships>"),
        ]
        if let cache { raw.otherParts.append(("xl/pivotCache/pivotCacheDefinition1.xml", cache)) }
        try raw.write(to: path)
        let calculation = try WorkbookCalculation(try Workbook(path: path))
        return formulas.indices.map { calculation.engine.value(at: CellReference(row: $0 + 1, column: 4), sheet: 0) }
    }

    static let cache = "<?xml version=\"1.0\"?><pivotCacheDefinition xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><cacheFields count=\"2\">"
        + "<cacheField name=\"Category\"><sharedItems count=\"2\"><s v=\"Category 1\"/><s v=\"Category 2\"/></sharedItems></cacheField>"
        + "<cacheField name=\"Score\"><sharedItems containsNumber=\"1\"/></cacheField></cacheFields></pivotCacheDefinition>"

    /// Excel's layout of the corpus file's pivot table, with `location`, the row items and the
    /// data field's `fld` replaceable.
    static func pivot(location: String = "<location ref=\"A8:B11\" firstHeaderRow=\"1\" firstDataRow=\"1\" firstDataCol=\"1\"/>",
                      rowItems: String = "<i><x/></i><i><x v=\"1\"/></i><i t=\"grand\"><x/></i>", dataField: String = "1") -> String {
        "<?xml version=\"1.0\"?><pivotTableDefinition xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" name=\"P\" cacheId=\"1\">"
            + location + "<pivotFields count=\"2\"><pivotField axis=\"axisRow\"><items count=\"3\"><item x=\"0\"/><item x=\"1\"/><item t=\"default\"/></items></pivotField>"
            + "<pivotField dataField=\"1\"/></pivotFields><rowFields count=\"1\"><field x=\"0\"/></rowFields><rowItems>\(rowItems)</rowItems>"
            + "<colItems count=\"1\"><i/></colItems><dataFields count=\"1\"><dataField name=\"Sum of Score\" fld=\"\(dataField)\"/></dataFields>"
            + "<formats><format><pivotArea><references><reference field=\"0\"><x v=\"1\"/></reference></references></pivotArea></format></formats></pivotTableDefinition>"
    }

    static let formulas = ["GETPIVOTDATA(\"Sum of Score\",A8,\"Category\",\"Category 2\")", "GETPIVOTDATA(\"Score\",B11)",
                           "GETPIVOTDATA(\"Sum of Score\",A8,\"Category\",\"Category 3\")"]

    @Test func aHandBuiltPivotTableAnswers() throws {
        #expect(try computed(pivot: Self.pivot(), formulas: Self.formulas) == [.number(12), .number(15), .error(.reference)])
    }

    /// A part that does not hold together is no pivot table: every call is #REF!.
    @Test func partsThatLieAreNoPivotTable() throws {
        let broken: [(String, String?)] = [
            (Self.pivot(rowItems: "<i><x v=\"7\"/></i><i t=\"grand\"><x/></i>"), Self.cache),  // an item that is not there
            (Self.pivot(rowItems: "<i r=\"3\"><x/></i>"), Self.cache),                         // repeating items never seen
            (Self.pivot(rowItems: "<i><x/><x/><x/></i>"), Self.cache),                         // deeper than its fields
            (Self.pivot(rowItems: "<i i=\"4\"><x/></i>"), Self.cache),                         // a data field that is not there
            (Self.pivot(dataField: "9"), Self.cache),                                          // a data field's source that is not there
            (Self.pivot(location: "<location ref=\"A8:B9\" firstHeaderRow=\"1\" firstDataRow=\"1\" firstDataCol=\"1\"/>"), Self.cache), // more lines than rows
            (Self.pivot(location: "<location ref=\"A8:B11\" firstDataRow=\"-1\" firstDataCol=\"1\"/>"), Self.cache),
            (Self.pivot(location: "<location ref=\"A8:XFE11\" firstDataRow=\"1\" firstDataCol=\"1\"/>"), Self.cache),
            (Self.pivot(location: "<location ref=\"A8:B11\" firstDataRow=\"1\" firstDataCol=\"2\"/>"), Self.cache),
            (Self.pivot(location: ""), Self.cache),
            (Self.pivot(), nil),                                                               // no cache
            (Self.pivot(), "<pivotCacheDefinition"),                                           // a cache that does not parse
            ("<pivotTableDefinition", Self.cache),
        ]
        for (pivot, cache) in broken {
            let got = try computed(pivot: pivot, cache: cache, formulas: Self.formulas)
            #expect(got == [.error(.reference), .error(.reference), .error(.reference)], "\(pivot) \(cache ?? "no cache"): \(got)")
        }
    }
}
