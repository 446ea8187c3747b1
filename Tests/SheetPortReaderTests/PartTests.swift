import Testing
@testable import SheetPortCore
@testable import SheetPortReader
import SheetPortTestSupport

/// The part readers one by one, on the scripted fixtures.
@Suite struct PartTests {
    @Test func archiveFoldsSeparatorsAndCase() throws {
        let archive = try ZipArchive(path: Project.fixture("backslash_and_case.xlsx"))
        #expect(archive.entries.count == 6)
        #expect(archive.contains("xl/worksheets/sheet1.xml"))
        #expect(archive.entry(named: "/XL/SHAREDSTRINGS.XML")?.name == "xl\\SharedStrings.xml")
        #expect(archive.duplicateNames.isEmpty)
    }

    @Test func relationshipsResolveTargets() throws {
        let archive = try ZipArchive(path: Project.fixture("backslash_and_case.xlsx"))
        let package = try RelationshipsPart.read(of: "", in: archive)
        #expect(package.map(\.type) == ["officeDocument"])
        let workbook = try RelationshipsPart.read(of: "xl/workbook.xml", in: archive)
        let sheet = try #require(workbook.first { $0.type == "worksheet" })
        #expect(sheet.writtenTarget == "/xl/worksheets/sheet1.xml")
        #expect(sheet.target == "xl/worksheets/sheet1.xml")
        #expect(!sheet.isExternal)
    }

    @Test func strictRelationshipTypesReadAsTransitional() throws {
        let workbook = try Workbook(path: Project.fixture("strict_ooxml.xlsx"))
        #expect(workbook.relationships.contains { $0.type == "worksheet" && $0.typeURI.hasPrefix("http://purl.oclc.org/") })
        #expect(workbook.firstWorksheet?.kind == .worksheet)
    }

    @Test func contentTypesByOverrideAndDefault() throws {
        let archive = try ZipArchive(path: Project.fixture("root_workbook.xlsx"))
        let types = try ContentTypes.read(in: archive)
        #expect(types.type(of: "/workbook.xml") == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml")
        #expect(types.type(of: "_rels/.rels") == "application/vnd.openxmlformats-package.relationships+xml")
        #expect(types.type(of: "nothing.bin") == nil)
    }

    @Test func workbookPartDateSystemAndSheets() throws {
        #expect(try Workbook(path: Project.fixture("dates_1904.xlsx")).dateSystem == .excel1904)
        #expect(try Workbook(path: Project.fixture("dates_1900.xlsx")).dateSystem == .excel1900)
        let workbook = try Workbook(path: Project.fixture("multi_sheet.xlsx"))
        #expect(workbook.sheets.map(\.position) == [1, 2, 3])
        #expect(workbook.sheet(named: "data")?.name == "Data")
        #expect(workbook.sheet(named: "2")?.name == "Hidden")
        #expect(workbook.sheet(named: "9") == nil)
    }

    @Test func sharedStringsAreCompactAndCountRichText() throws {
        let workbook = try Workbook(path: Project.fixture("shared_strings_rich.xlsx"))
        let strings = try workbook.sharedStrings()
        #expect(strings.count == 8)
        #expect(strings[0] == "Bold and plain")
        #expect(strings.richTextCount >= 1)
        #expect(strings[8] == nil)
        #expect(strings[-1] == nil)
    }

    @Test func stylesResolveNumberFormatsAndDates() throws {
        let styles = try Workbook(path: Project.fixture("dates_1900.xlsx")).styles()
        let dateFormats = styles.cellFormats.filter(\.isDate)
        #expect(!dateFormats.isEmpty)
        #expect(styles.cellFormats.contains { $0.isDuration && $0.numberFormat == "[h]:mm:ss" })
        #expect(styles.cellFormats.contains { !$0.isDate && $0.numberFormat == "\"day \"0" })
        #expect(styles.format(10_000) == styles.format(0))
    }

    @Test func worksheetRowsStreamWithHeights() throws {
        let workbook = try Workbook(path: Project.fixture("no_cell_refs.xlsx"))
        let reader = try workbook.rows(of: #require(workbook.firstWorksheet))
        var indices: [Int] = []
        while let row = try reader.nextRow() { indices.append(row.index) }
        #expect(indices == indices.sorted())
        #expect(try reader.nextRow() == nil)
    }

    @Test func chartsheetIsNotReadAsCells() throws {
        let workbook = try Workbook(path: Project.fixture("multi_sheet.xlsx"))
        #expect(throws: ReaderError.self) { try workbook.rows(of: workbook.sheets[0]) }
    }
}
