import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
import SheetPortTestSupport
@testable import SheetPortConvert

/// Several `<row>` elements with the same `r` are one row (Docs/Reference/Formats.md, "CSV and TSV"):
/// every consumer (CSV, TSV, ndjson, check, import) sees one row, on both XML engines.
@Suite struct RowAssemblyTests {
    private func rows(_ workbook: Workbook, engine: WorksheetReader.Engine) throws -> [Row] {
        let reader = try workbook.rows(of: #require(workbook.firstWorksheet), engine: engine)
        var rows: [Row] = []
        while let row = try reader.nextRow() { rows.append(row) }
        return rows
    }

    private func workbook(_ sheetData: String) throws -> Workbook {
        let xml = #"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"# + sheetData + "</sheetData></worksheet>"
        return try Workbook(bytes: StoredZip.workbook(sheetXML: Array(xml.utf8)), name: "rows.xlsx")
    }

    @Test(arguments: [WorksheetReader.Engine.automatic, .libxml2])
    func aRowPerCellIsOneRow(_ engine: WorksheetReader.Engine) throws {
        let book = try Workbook(path: Project.fixture("row_per_cell.xlsx"))
        let read = try rows(book, engine: engine)
        #expect(read.map(\.index) == Array(1...20))
        for row in read {
            #expect(row.cells.map(\.column) == Array(1...13), "row \(row.index)")
        }
        #expect(read[19].cells.first?.value == .number(2000))
    }

    @Test(arguments: [WorksheetReader.Engine.automatic, .libxml2])
    func aLaterCellOfTheSameColumnWinsAndOutOfOrderRowsStayWhereTheyAre(_ engine: WorksheetReader.Engine) throws {
        let book = try workbook(#"<row r="2"><c r="C2"><v>3</v></c></row><row r="2" ht="20"><c r="A2"><v>1</v></c><c r="C2"><v>4</v></c></row>"#
                                + #"<row r="1"><c r="B1"><v>9</v></c></row><row r="2"><c r="B2"><v>2</v></c></row>"#)
        let read = try rows(book, engine: engine)
        #expect(read.map(\.index) == [2, 1, 2])
        #expect(read[0].cells.map(\.column) == [1, 3])
        #expect(read[0].cells.map(\.value) == [.number(1), .number(4)])
        #expect(read[0].height == 20)
    }

    @Test func theRowBeforeAnErrorComesFirst() throws {
        let book = try workbook(#"<row r="1"><c r="A1"><v>1</v></c></row><row r="1"><c r="B1"><v>2</v></c></row><row r="x"/>"#)
        let reader = try book.rows(of: #require(book.firstWorksheet))
        #expect(try reader.nextRow()?.cells.count == 2)
        #expect(throws: ReaderError.self) { try reader.nextRow() }
    }

    @Test func everyConsumerSeesTwentyRows() throws {
        let book = Project.fixture("row_per_cell.xlsx")
        for format in [TextFormat.csv, .tsv] {
            let text = try convert(book, to: format)
            let lines = text.split(separator: format == .csv ? "\r\n" : "\n")
            #expect(lines.count == 20, "\(format): \(text)")
            #expect(lines.allSatisfy { $0.split(separator: format == .csv ? "," : "\t", omittingEmptySubsequences: false).count == 13 })
        }
        let records = try convert(book, to: .ndjson).split(separator: "\n")
        #expect(records.count == 19)
        #expect(records.first == #"{"Id":200,"Name":"name 2","Qty":202,"Price":203,"Total":204,"Code":205,"Region":"region 2","Flag":207,"Score":208,"Rank":209,"Note":"note 2","Ratio":211,"Last":212}"#)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(Preflight.check(path: book).json.utf8)) as? [String: Any])
        let sheet = try #require((report["worksheets"] as? [[String: Any]])?.first)
        #expect(sheet["rows"] as? Int == 20 && sheet["columns"] as? Int == 13 && sheet["cells"] as? Int == 260, "\(sheet)")
    }
}

/// CSV and TSV records: one per row of the used range, every one as wide as the used range
/// found from the cells (Docs/Reference/Formats.md, "CSV and TSV").
@Suite struct RectangularOutputTests {
    private func converted(_ sheetData: String, dimension: String? = nil, to format: TextFormat = .csv,
                           _ options: TextOutputOptions = TextOutputOptions()) throws -> String {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("book.xlsx").path
        try RawWorkbook(sheets: [RawWorkbook.Sheet(name: "Data", sheetData: sheetData, dimension: dimension)]).write(to: path)
        return try convert(path, to: format, options: options)
    }

    @Test func noDimensionStillGivesEqualRecords() throws {
        typealias W = RawWorkbook
        // No <dimension> (SheetPort's own writer and many producers leave it out); a gap at row 3.
        let data = W.row(1, W.text("A1", "a")) + W.row(2, W.number("A2", "1"), W.number("D2", "4")) + W.row(4, W.text("B4", "x\ty"))
        #expect(try converted(data) == "a,,,\r\n1,,,4\r\n,,,\r\n,x\ty,,\r\n")
        #expect(try converted(data, to: .tsv) == "a\t\t\t\n1\t\t\t4\n\t\t\t\n\tx\\ty\t\t\n")
        var skipping = TextOutputOptions()
        (skipping.skipEmptyRows, skipping.lineEnding) = (true, .lf)
        #expect(try converted(data, skipping) == "a,,,\n1,,,4\n,x\ty,,\n")
    }

    @Test func aDimensionThatLiesIsIgnored() throws {
        typealias W = RawWorkbook
        #expect(try converted(W.row(2, W.number("B2", "1")), dimension: "A1:Z9") == ",\r\n,1\r\n")
        #expect(try converted(W.row(1, W.number("A1", "1")) + W.row(2, W.number("C2", "2")), dimension: "A1") == "1,,\r\n,,2\r\n")
    }

    @Test func anEmptySheetWritesNothing() throws {
        #expect(try converted("").isEmpty)
        #expect(try converted(#"<row r="3" ht="30"/>"#, dimension: "A1:C3").isEmpty)
    }
}
