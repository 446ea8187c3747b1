import Foundation
import Testing
import SheetPortTestSupport

/// The held-out workbooks of the reader's bugs (Fixtures/heldout) through `convert` and
/// `check`: a sheet past 121:1 checks clean, and damaged data is reported as the damage.
@Suite struct HeldOutReaderTests {
    static func heldOut(_ name: String) -> String { Project.root.appendingPathComponent("Fixtures/heldout/\(name)").path }

    @Test func aSheetThatCompressesPast121To1Checks() throws {
        let result = try runSheetport(["check", Self.heldOut("high_ratio.xlsx"), "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!String(decoding: result.stdout, as: UTF8.self).contains("zip-bomb"))
    }

    @Test(arguments: [("crc_damage.xlsx", "xl/worksheets/sheet1.xml"), ("inflate_damage.xlsx", "xl/worksheets/sheet1.xml"),
                      ("strings_crc_damage.xlsx", "xl/sharedStrings.xml")])
    func damagedDataIsCorruptZipNamingThePart(_ name: String, _ part: String) throws {
        let path = Self.heldOut(name)
        let converted = try runSheetport(["convert", path, "--to", "csv", "-o", "-", "--no-progress"])
        #expect(converted.status != 0)
        #expect(converted.stderr.contains("\(part): damaged") && converted.stderr.contains("(corrupt-zip)"), "\(converted.stderr)")
        let checked = try runSheetport(["check", path, "--json"])
        let report = String(decoding: checked.stdout, as: UTF8.self)
        #expect(report.contains(#""code":"corrupt-zip""#) && !report.contains("malformed-xml"), "\(report)")
    }
}
