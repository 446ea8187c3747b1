import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortWriter
@testable import SheetPortConvert
@testable import SheetPortClient
@testable import SheetPortServer

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

/// A one-sheet package around `sheetXML`, with `extraParts` (name to XML) beside it, zipped by
/// Python's zipfile (the writer refuses to write what these tests need: malformed XML, parts
/// that are missing).
func minimalWorkbook(sheetXML: String, extraParts: [String: String] = [:], in folder: URL) throws -> String {
    let path = folder.appendingPathComponent("minimal.xlsx").path
    let sheet = folder.appendingPathComponent("sheet1.xml")
    try sheetXML.write(to: sheet, atomically: true, encoding: .utf8)
    let extras = folder.appendingPathComponent("extra-parts.json")
    try JSONSerialization.data(withJSONObject: extraParts).write(to: extras)
    let script = """
    import json, sys, zipfile
    out, sheet, extras = sys.argv[1], sys.argv[2], sys.argv[3]
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    pkg = "http://schemas.openxmlformats.org/package/2006/relationships"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>')
        z.writestr("_rels/.rels", '<Relationships xmlns="%s"><Relationship Id="rId1" Target="xl/workbook.xml" '
            'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"/></Relationships>' % pkg)
        z.writestr("xl/workbook.xml", '<workbook xmlns="%s" xmlns:r="%s"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>' % (main, rel))
        z.writestr("xl/_rels/workbook.xml.rels", '<Relationships xmlns="%s"><Relationship Id="rId1" Target="worksheets/sheet1.xml" '
            'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"/></Relationships>' % pkg)
        z.write(sheet, "xl/worksheets/sheet1.xml")
        for name, text in json.load(open(extras)).items():
            z.writestr(name, text)
    """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, path, sheet.path, extras.path]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    return path
}
