import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortWriter
import SheetPortBench
import SheetPortTestSupport

/// The worksheet reader's threads (`BackgroundInflater`, `XMLEventThread`): stopping early,
/// reading other parts meanwhile, and errors arriving after the rows before them.
@Suite struct ReaderThreadTests {
    /// A benchmark workbook big enough for many event buffers and inflated chunks.
    private func workbook(rows: Int) throws -> (String, URL) {
        let folder = try temporaryFolder()
        let path = folder.appendingPathComponent("big.xlsx").path
        let writer = try WorkbookWriter(path: path)
        try SyntheticSheet(rows: rows).write(into: writer)
        try writer.close()
        return (path, folder)
    }

    @Test func aReaderDroppedEarlyStopsItsThreads() throws {
        let (path, folder) = try workbook(rows: 60_000)
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try Workbook(path: path)
        for _ in 0..<20 {
            // Each reader is dropped with its parser blocked on a full pipe: deinit must not hang.
            let reader = try book.rows(of: book.firstWorksheet!)
            let first = try reader.nextRow()
            #expect(first?.index == 1)
        }
        // The archive is still usable, and a full read still sees every row.
        var rows = 0
        try book.rows(of: book.firstWorksheet!).forEachRow { _ in rows += 1 }
        #expect(rows == 60_001)
    }

    @Test func otherPartsReadWhileAWorksheetInflates() throws {
        let (path, folder) = try workbook(rows: 30_000)
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try Workbook(path: path)
        let reader = try book.rows(of: book.firstWorksheet!)
        var rows = 0
        while let _ = try reader.nextRow() {
            rows += 1
            // libzip is used from the caller's thread while the inflating thread reads on.
            if rows % 5_000 == 0 { #expect(try book.styles().numberKind(1) == .date) }
        }
        #expect(rows == 30_001)
        #expect(reader.progress.bytesRead > 0)
    }

    @Test func malformedXMLComesAfterTheRowsBeforeIt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var xml = #"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#
        for row in 1...5_000 { xml += #"<row r="\#(row)"><c r="A\#(row)"><v>\#(row)</v></c></row>"# }
        xml += "<row r=\"5001\"><c r=\"A5001\"><v>1</v></c></rowx></sheetData></worksheet>"
        let path = try minimalWorkbook(sheetXML: xml, in: folder)
        let book = try Workbook(path: path)
        let reader = try book.rows(of: book.firstWorksheet!)
        var rows = 0
        let error = #expect(throws: ReaderError.self) {
            while let _ = try reader.nextRow() { rows += 1 }
        }
        #expect(error?.code == .malformedXML)
        #expect(error?.description.contains("xl/worksheets/sheet1.xml") == true)
        #expect(rows >= 4_000) // rows of the buffers before the error arrived first
    }
}

