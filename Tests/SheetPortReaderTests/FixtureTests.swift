import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert
import SheetPortTestSupport

/// Every scripted fixture converts to exactly the JSONL written by hand beside it.
@Suite struct FixtureTests {
    static let fixtures = ((try? FileManager.default.contentsOfDirectory(atPath: Project.readerFixtures.path)) ?? [])
        .filter { $0.hasSuffix(".xlsx") }.sorted()

    @Test func fixturesArePresent() {
        #expect(Self.fixtures.count >= 17)
    }

    @Test(arguments: fixtures)
    func convertsToExpectedJSONL(_ name: String) throws {
        let base = String(name.dropLast(5))
        let expected = try String(contentsOfFile: Project.fixture(base + ".expected.jsonl"), encoding: .utf8)
        // What the file stores: the golden files keep a formula without a cached value empty
        // (convert computes it by default, and cell_types.xlsx has a NOW() among them).
        var stored = TextOutputOptions()
        stored.computeMissingValues = false
        let actual = try convert(Project.fixture(name), to: .jsonl, options: stored)
        #expect(try jsonObjects(actual, ignoring: ["style"]) == jsonObjects(expected))
    }

    @Test(arguments: ["Data", "3"])
    func selectsSheetByNameOrPosition(_ sheet: String) throws {
        let expected = try String(contentsOfFile: Project.fixture("multi_sheet.sheet-\(sheet).expected.jsonl"), encoding: .utf8)
        let actual = try convert(Project.fixture("multi_sheet.xlsx"), sheet: sheet, to: .jsonl)
        #expect(try jsonObjects(actual, ignoring: ["style"]) == jsonObjects(expected))
    }

    @Test func multiSheetKindsAndStates() throws {
        let workbook = try Workbook(path: Project.fixture("multi_sheet.xlsx"))
        #expect(workbook.sheets.map(\.kind) == [.chartsheet, .worksheet, .worksheet])
        #expect(workbook.firstWorksheet?.name == "Hidden")
        #expect(workbook.firstWorksheet?.state == .hidden)
    }

    @Test func resolvesKeptFormatting() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Project.fixture("styles_kept.styles.json")))
        let expected = try #require((JSONSerialization.jsonObject(with: data) as? [String: Any])?["cells"] as? [String: [String: Any]])
        let workbook = try Workbook(path: Project.fixture("styles_kept.xlsx"))
        let styles = try workbook.styles()
        let reader = try workbook.rows(of: #require(workbook.firstWorksheet))
        var checked = 0
        while let row = try reader.nextRow() {
            for cell in row.cells {
                let ref = CellReference(row: row.index, column: cell.column).description
                guard let want = expected[ref] else { continue }
                let format = styles.format(cell.styleIndex)
                #expect(format.isBold == (want["bold"] as? Bool), "\(ref) bold")
                #expect(format.isItalic == (want["italic"] as? Bool), "\(ref) italic")
                #expect(format.horizontalAlignment == want["horizontal"] as? String, "\(ref) horizontal")
                #expect(format.numberFormat == want["numFmt"] as? String, "\(ref) numFmt")
                #expect(format.fillColor == want["fill"] as? String, "\(ref) fill")
                #expect(format.textColor == want["color"] as? String, "\(ref) color")
                checked += 1
            }
        }
        #expect(checked == expected.count)
    }

    @Test func readsSheetMetadataAndComments() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Project.fixture("comments_hyperlinks_merged.meta.json")))
        let expected = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let workbook = try Workbook(path: Project.fixture("comments_hyperlinks_merged.xlsx"))
        let sheet = try #require(workbook.firstWorksheet)
        let reader = try workbook.rows(of: sheet)
        var heights: [Int: Double] = [:]
        while let row = try reader.nextRow() { if let height = row.height { heights[row.index] = height } }
        let metadata = reader.metadata
        #expect(metadata.mergedRanges == expected["mergedCells"] as? [String])
        let wantHeights = (expected["rowHeights"] as? [[String: Any]] ?? []).map { ($0["row"] as! Int, $0["height"] as! Double) }
        #expect(heights == Dictionary(uniqueKeysWithValues: wantHeights))
        var widths: [String: Double] = [:]
        for column in metadata.columns {
            for index in column.first...column.last { widths[CellReference.columnName(index)] = column.width }
        }
        #expect(widths == (expected["columnWidths"] as? [String: Double]))
        let links = (expected["hyperlinks"] as? [[String: Any]] ?? []).compactMap { $0["ref"] as? String }
        #expect(metadata.hyperlinks == links)
        let comments = try workbook.comments(of: sheet)
        let wantComments = (expected["comments"] as? [[String: String]] ?? [])
        #expect(comments.map(\.reference) == wantComments.map { $0["ref"]! })
        #expect(comments.map(\.author) == wantComments.map { $0["author"]! })
        #expect(comments.map(\.text) == wantComments.map { $0["text"]! })
    }

    @Test func dimensionIsNotTrusted() throws {
        let workbook = try Workbook(path: Project.fixture("dimension_lies.xlsx"))
        let reader = try workbook.rows(of: #require(workbook.firstWorksheet))
        var rows: [Row] = []
        while let row = try reader.nextRow() { rows.append(row) }
        #expect(reader.metadata.dimension == "A1:XFD1048576")
        #expect(rows.last?.index == CellReference.maxRow)
        #expect(rows.last?.cells.last?.column == CellReference.maxColumn)
    }

    @Test func strictAndPrefixedWorkbooksRead() throws {
        let strict = try Workbook(path: Project.fixture("strict_ooxml.xlsx"))
        #expect(strict.isStrict)
        let prefixed = try Workbook(path: Project.fixture("prefixed_x.xlsx"))
        #expect(!prefixed.isStrict)
        #expect(prefixed.firstWorksheet != nil)
    }

    @Test func sharedFormulaGroupsPerRowStayCorrectAfterSweeps() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try makeLargeWorkbook(rows: 3_000, in: folder, options: ["--shared-formula-rows"])
        let workbook = try Workbook(path: path)
        let reader = try workbook.rows(of: #require(workbook.firstWorksheet))
        var checked = 0
        while let row = try reader.nextRow() {
            #expect(row.cells[6].formula == "A\(row.index)*2")
            #expect(row.cells[7].formula == "B\(row.index)*2")
            checked += 1
        }
        #expect(checked == 3_000)
    }
}
