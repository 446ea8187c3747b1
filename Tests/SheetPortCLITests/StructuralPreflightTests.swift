import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortConvert
@testable import SheetPortClient
import SheetPortTestSupport
import SheetPortServer

/// `sheetport import` pre-flights the structure only (issue 26): a broken package is refused
/// before anything is uploaded; a problem only the cells show is the server's import job's to
/// report, so the workbook is read once.
@Suite struct StructuralPreflightTests {
    /// A workbook whose relationship points to a worksheet part the zip does not hold.
    private func danglingWorkbook(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("dangling.xlsx").path
        let script = """
        import sys, zipfile
        ct = '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>'
        rels = '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>'
        wb = '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>'
        wbrels = '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'
        with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
            for name, text in [('[Content_Types].xml', ct), ('_rels/.rels', rels), ('xl/workbook.xml', wb), ('xl/_rels/workbook.xml.rels', wbrels)]:
                z.writestr(name, text)
        """
        let generated = try Project.python(["-c", script, path])
        #expect(generated.status == 0, "\(generated.output)")
        return path
    }

    @Test func aBrokenPackageIsRefusedBeforeUploadAndCellProblemsAreTheImportJobs() throws {
        let server = try ClientFixture { $0.maxCells = 50 }
        defer { server.stop() }
        let tokenFile = try server.tokenFile(subject: "alice")
        let connection = try ServerConnection(url: server.url, token: try ServerConnection.token(file: tokenFile))

        // Structure: the worksheet part is missing. Refused by the client, no job.
        let dangling = try danglingWorkbook(in: server.folder)
        let refused = try runSheetport(["import", dangling, "--server", server.url, "--token-file", tokenFile, "--wait", "--no-progress", "--json"])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("not importable; nothing was uploaded"), "\(refused.stderr)")
        #expect(String(decoding: refused.stdout, as: UTF8.self).contains("missing-part"))
        #expect(try connection.jobs(client: HTTPClient()).isEmpty)

        // Cells: 100 of them (A1:A100) with no <dimension>, over the server's 50. Only the
        // cells show it: the file is uploaded, and the job fails with the finding's code.
        let sparse = try makeBulkyWorkbook(megabytes: 0, in: server.folder)
        let structural = try Preflight.structural(path: sparse, options: { var options = PreflightOptions(); options.maxCells = 50; return options }())
        #expect(structural.importable)
        let imported = try runSheetport(["import", sparse, "--server", server.url, "--token-file", tokenFile, "--wait", "--no-progress", "--json"])
        #expect(imported.status == 1, "\(imported.stderr)")
        #expect(!imported.stderr.contains("nothing was uploaded"), "\(imported.stderr)")
        let answer = try JSONSerialization.jsonObject(with: imported.stdout) as? [String: Any]
        #expect((answer?["error"] as? [String: Any])?["code"] as? String == "exceeds-limit", "\(String(decoding: imported.stdout, as: UTF8.self))")
        let jobs = try connection.jobs(client: HTTPClient())
        #expect(jobs.count == 1 && jobs.first?.status == .failed && jobs.first?.errorCode == .exceedsLimit, "\(jobs)")
        // `check --server` reads the cells, and still refuses it with nothing uploaded.
        let check = try runSheetport(["check", sparse, "--server", server.url, "--token-file", tokenFile])
        #expect(check.status == 1)
        #expect(try connection.jobs(client: HTTPClient()).count == 1)
    }
}
