import Foundation
import Testing
@testable import SheetPortReader
@testable import SheetPortConvert
@testable import SheetPortServer
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortClient

/// The server's import reads the first worksheet once: the pre-flight's findings about its
/// cells come from the pass that stores the rows. A server started in this process (on
/// loopback, its own SQLite store) so that its count of worksheet passes can be read.
@Suite(.serialized) struct ImportPassTests {
    /// An in-process `SheetServer` with `maxCells` and a session for "ann".
    final class Fixture {
        let folder: URL
        let server: SheetServer
        let api: API

        init(maxCells: Int = 10_000_000) throws {
            folder = try temporaryFolder()
            let data = folder.appendingPathComponent("data").path
            var configuration = ServerConfiguration(dataDirectory: data, address: try ListenAddress(parsing: "127.0.0.1:0"))
            configuration.maxCells = maxCells
            configuration.workers = 1
            server = try SheetServer(configuration: configuration)
            let token = try server.context.database { try Tokens.issue(subject: "ann", in: $0) }
            api = API(base: "http://127.0.0.1:\(server.port)", token: token)
        }

        var passes: Int { server.context.worksheetPasses.value }

        /// Rows of sheets, and sheets, left in the store.
        func stored() throws -> [Int] {
            try server.context.database { database in
                try ["row_blocks", "sheets"].map { try database.query("SELECT COUNT(*) FROM \($0)").first?.first?.int ?? -1 }
            }
        }

        func close() {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// Accepted workbooks with warnings and notes of every kind: one pass each, and the job's
    /// warnings are `check`'s findings (the comments are stored too).
    @Test(arguments: ["exceljs__comments.xlsx", "phpspreadsheet__32readwriteComboChart1.xlsx", "poi__50154.xlsx",
                      "poi__ExcelWithAttachments.xlsm"])
    func acceptedImportReadsTheWorksheetOnce(_ name: String) throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let book = Project.corpus.appendingPathComponent(name).path
        let job = try fixture.api.importWorkbook(book)
        #expect(job["status"] as? String == "succeeded", "\(job)")
        #expect(fixture.passes == 1)
        let warnings = try #require((job["result"] as? [String: Any])?["warnings"] as? [[String: Any]])
        let report = try Preflight.check(path: book)
        #expect(report.findings.count >= 4)
        #expect(warnings.filter { $0["code"] as? String != "sheet-name-changed" }.map(Self.codeAndMessage)
                == report.findings.map { "\($0.code): \($0.message)" })
        // The comments the pass read are the ones stored.
        let workbook = try Workbook(path: book)
        let expected = try workbook.comments(of: try #require(workbook.firstWorksheet)).count
        let comments = try fixture.api.object("/api/sheets/\(Self.sheetID(job))/comments")["comments"] as? [Any]
        #expect(comments?.count == expected)
        if name == "exceljs__comments.xlsx" { #expect(expected > 0) }
    }

    /// Findings that only the worksheet's cells show, found after rows were stored: the job
    /// still fails with `check`'s errors, in one pass, and leaves no rows or sheet behind.
    @Test(arguments: [("long-text", "exceeds-limit"), ("broken-end", "malformed-xml")])
    func refusalFoundInThePassStillFails(_ kind: String, _ code: String) throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let book = fixture.folder.appendingPathComponent("\(kind).xlsx").path
        try makeSheetWithBadEnd(at: book, rows: 5000, kind: kind)
        let job = try fixture.api.importWorkbook(book)
        #expect(job["status"] as? String == "failed", "\(job)")
        let error = try #require(job["error"] as? [String: Any])
        let report = try Preflight.check(path: book)
        let errors = report.findings.filter { $0.severity == .error }
        #expect(errors.first?.code == code, "\(report.json)")
        #expect(error["code"] as? String == code && error["message"] as? String == errors.first?.message, "\(error)")
        #expect((error["findings"] as? [[String: Any]])?.map(Self.codeAndMessage) == errors.map { "\($0.code): \($0.message)" })
        #expect(fixture.passes == 1)
        // Rows were stored before the pass met the end (progress says how many), and are gone.
        let stored = (job["progress"] as? [String: Any])?["rows"] as? Int ?? 0
        #expect(stored >= 1024, "\(job)")
        #expect(try fixture.stored() == [0, 0])
    }

    /// A workbook over the cell cap: refused in the pass, with the pre-flight's message.
    @Test func overTheCellCapIsRefusedWithThePreflightMessage() throws {
        let fixture = try Fixture(maxCells: 1000)
        defer { fixture.close() }
        let book = try makeStyledWorkbook(in: fixture.folder, name: "many.xlsx", rows: 170)
        let job = try fixture.api.importWorkbook(book)
        #expect(job["status"] as? String == "failed")
        var options = PreflightOptions()
        options.maxCells = 1000
        let expected = try #require(try Preflight.check(path: book, options: options).findings.first)
        let error = try #require(job["error"] as? [String: Any])
        #expect(error["code"] as? String == "exceeds-limit" && error["message"] as? String == expected.message, "\(error)")
        #expect(fixture.passes == 1)
        #expect(try fixture.stored() == [0, 0])
    }

    /// A workbook refused by its package alone still gets its worksheet's findings too (the
    /// same errors as `check`), from one pass.
    @Test func packageRefusalKeepsTheWorksheetFindings() throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let book = fixture.folder.appendingPathComponent("dangling.xlsx").path
        try makeSheetWithBadEnd(at: book, rows: 10, kind: "dangling-comments-long-text")
        let job = try fixture.api.importWorkbook(book)
        #expect(job["status"] as? String == "failed", "\(job)")
        let errors = try Preflight.check(path: book).findings.filter { $0.severity == .error }
        #expect(errors.map(\.code) == ["missing-part", "exceeds-limit"], "\(errors)")
        let findings = (job["error"] as? [String: Any])?["findings"] as? [[String: Any]]
        #expect(findings?.map(Self.codeAndMessage) == errors.map { "\($0.code): \($0.message)" })
        #expect(fixture.passes == 1)
    }

    static func codeAndMessage(_ finding: [String: Any]) -> String {
        "\(finding["code"] as? String ?? "?"): \(finding["message"] as? String ?? "?")"
    }

    static func sheetID(_ job: [String: Any]) throws -> String {
        try #require(((job["result"] as? [String: Any])?["sheet"] as? [String: Any])?["id"] as? String)
    }
}

/// A one-sheet workbook of `rows` rows of numbers whose end the pre-flight refuses: `long-text`
/// (a last cell of 40,000 characters), `broken-end` (a last row that is not well-formed XML),
/// or `dangling-comments-long-text` (a comments relationship to no part, and a long last cell).
func makeSheetWithBadEnd(at path: String, rows: Int, kind: String) throws {
    let script = """
    import sys, zipfile
    path, rows, kind = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    z = zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED)
    z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>')
    z.writestr("_rels/.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="' + rel + '/officeDocument" Target="xl/workbook.xml"/></Relationships>')
    z.writestr("xl/workbook.xml", '<?xml version="1.0"?><workbook xmlns="' + main + '" xmlns:r="' + rel + '"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>')
    z.writestr("xl/_rels/workbook.xml.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="' + rel + '/worksheet" Target="worksheets/sheet1.xml"/></Relationships>')
    if kind.startswith("dangling-comments"):
        z.writestr("xl/worksheets/_rels/sheet1.xml.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="' + rel + '/comments" Target="../comments1.xml"/></Relationships>')
    with z.open("xl/worksheets/sheet1.xml", "w") as sheet:
        sheet.write(('<?xml version="1.0"?><worksheet xmlns="' + main + '"><sheetData>').encode())
        for r in range(1, rows + 1):
            sheet.write(('<row r="%d"><c r="A%d"><v>%d</v></c><c r="B%d"><v>%d.5</v></c></row>' % (r, r, r, r, r)).encode())
        last = rows + 1
        if kind == "broken-end":
            sheet.write(('<row r="%d"><c r="A%d"><v>1</v></row></sheetData></worksheet>' % (last, last)).encode())
        else:
            sheet.write(('<row r="%d"><c r="A%d" t="inlineStr"><is><t>%s</t></is></c></row></sheetData></worksheet>' % (last, last, "x" * 40000)).encode())
    z.close()
    """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, path, String(rows), kind]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
}
