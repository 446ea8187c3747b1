import Foundation
import Testing
@testable import SheetPortReader
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortClient
@testable import SheetPortServer

/// `.xlsb` and `.ods` told apart by content, with codes of their own (Docs/Reference/Formats.md, "Findings";
/// second round), in `check`, `convert` and `sheets`, whatever the file is named.
@Suite struct BinaryAndODSTests {
    /// An Excel Binary Workbook's layout: the package parts of an xlsx, BIFF12 records inside.
    static func xlsb() -> [UInt8] {
        let rels = #"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.bin"/></Relationships>"#
        let types = #"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="bin" ContentType="application/vnd.ms-excel.sheet.binary.macroEnabled.main"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/></Types>"#
        return StoredZip.make([("[Content_Types].xml", Array(types.utf8)), ("_rels/.rels", Array(rels.utf8)),
                               ("xl/workbook.bin", [0x83, 0x01, 0x00, 0x80, 0x01, 0x00, 0x00, 0x1A]),
                               ("xl/worksheets/sheet1.bin", [0x81, 0x01, 0x00])])
    }

    static func ods() -> [UInt8] {
        StoredZip.make([("mimetype", Array("application/vnd.oasis.opendocument.spreadsheet".utf8)),
                        ("content.xml", Array(#"<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"/>"#.utf8)),
                        ("META-INF/manifest.xml", Array("<manifest/>".utf8))])
    }

    @Test(arguments: [("book.xlsb", "xlsb-workbook", "Excel Binary Workbook"), ("book.xlsx", "xlsb-workbook", "Excel Binary Workbook"),
                      ("sheet.ods", "ods-workbook", "OpenDocument spreadsheet"), ("sheet.xlsx", "ods-workbook", "OpenDocument spreadsheet")])
    func eachCommandNamesWhatTheFileIs(_ name: String, _ code: String, _ what: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(name).path
        try Data(code == "xlsb-workbook" ? Self.xlsb() : Self.ods()).write(to: URL(fileURLWithPath: path))
        let check = try runSheetport(["check", path, "--json"])
        #expect(check.status == 1, "\(check.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: check.stdout) as? [String: Any])
        #expect(report["importable"] as? Bool == false)
        #expect(report["format"] as? String == (code == "xlsb-workbook" ? "xlsb" : "ods"))
        let finding = try #require((report["findings"] as? [[String: Any]])?.first)
        #expect(finding["code"] as? String == code && finding["severity"] as? String == "error")
        #expect((finding["message"] as? String)?.contains(what) == true)
        #expect((finding["message"] as? String)?.contains("save it as .xlsx") == true)
        for command in [["convert", path, "-o", folder.appendingPathComponent("out.csv").path], ["sheets", path]] {
            let result = try runSheetport(command)
            #expect(result.status == 3, "\(command[0]): \(result.stderr)")
            #expect(result.stderr.contains(name) && result.stderr.contains(what) && result.stderr.contains("(\(code))"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.csv").path))
    }
}
