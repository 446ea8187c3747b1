import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
import SheetPortTestSupport
import SheetPortConvert

/// The reader bugs that held-out real workbooks showed (issue 13), each on a workbook made for
/// it: Fixtures/heldout/make_heldout.py, and `dxfs_number_formats` and `dates_1904` of
/// Fixtures/make_fixtures.py. Each of these failed before its fix.
@Suite struct HeldOutReaderTests {
    static func heldOut(_ name: String) -> String {
        Project.root.appendingPathComponent("Fixtures/heldout/\(name)").path
    }

    /// Reads every row of the first worksheet; the number of cells with a value.
    static func readAll(_ path: String, limits: ArchiveLimits = ArchiveLimits()) throws -> Int {
        let workbook = try Workbook(path: path, limits: limits)
        let rows = try workbook.rows(of: try #require(workbook.firstWorksheet))
        var cells = 0
        for _ in 0..<1_000_000 {
            guard let row = try rows.nextRow() else { break }
            cells += row.cells.count
        }
        return cells
    }

    // MARK: differential formats

    @Test func numberFormatsOfDifferentialFormatsDoNotChangeTheCells() throws {
        let workbook = try Workbook(path: Project.fixture("dxfs_number_formats.xlsx"))
        let styles = try workbook.styles()
        #expect(styles.format(1).numberFormat == "mm-dd-yy") // built-in 14, not the dxf's "0.00%"
        #expect(styles.format(2).numberFormat == "yyyy-mm-dd hh:mm") // numFmts' 164, not the dxf's "0.0"
        #expect(styles.format(3).numberFormat == "General") // 165 is defined only in a dxf
        #expect(styles.format(1).isDate && styles.format(2).isDate && !styles.format(3).isDate)
        let jsonl = try convert(Project.fixture("dxfs_number_formats.xlsx"), to: .jsonl)
        #expect(jsonl.contains(#"{"ref":"A1","type":"date","value":"2024-01-31T00:00:00.000""#))
    }

    // MARK: the expansion ratio

    @Test func aSheetThatCompressesPast121To1Reads() throws {
        let path = Self.heldOut("high_ratio.xlsx")
        let archive = try ZipArchive(path: path)
        let sheet = try #require(archive.entry(named: "xl/worksheets/sheet1.xml"))
        #expect(Double(sheet.size) / Double(sheet.compressedSize) > 121, "the fixture must compress past 121:1")
        #expect(try Self.readAll(path) == 3749 * 2)
    }

    /// The ratio still refuses an entry once its expansion is large too: here with the grace
    /// size lowered to 1 MiB, the same sheet is a zip bomb, named with its part.
    @Test func theRatioStillRefusesALargeExpansion() throws {
        var limits = ArchiveLimits()
        limits.ratioGraceSize = 1 << 20
        #expect {
            _ = try Self.readAll(Self.heldOut("high_ratio.xlsx"), limits: limits)
        } throws: { error in
            let error = error as? ReaderError
            return error?.code == .zipBomb && error?.part == "xl/worksheets/sheet1.xml"
                && error?.message.contains("past 1 MiB") == true
        }
    }

    /// Within the grace size the entry and total limits bound the work all the same.
    @Test func theAbsoluteLimitsHoldWithinTheGraceSize() throws {
        var limits = ArchiveLimits()
        limits.maxEntrySize = 1 << 20
        #expect(throws: ReaderError(.zipBomb, file: Self.heldOut("high_ratio.xlsx"), part: "xl/worksheets/sheet1.xml",
                                    "inflates past the entry limit of 1048576 bytes")) {
            _ = try Self.readAll(Self.heldOut("high_ratio.xlsx"), limits: limits)
        }
        limits = ArchiveLimits()
        limits.maxTotalSize = 2 << 20
        #expect {
            _ = try Self.readAll(Self.heldOut("high_ratio.xlsx"), limits: limits)
        } throws: { ($0 as? ReaderError)?.code == .zipBomb }
    }

    // MARK: damaged compressed data

    /// The damage, not the broken XML it leads to, is reported: CRC mismatch or inflate error,
    /// through the worksheet reader and the shared-strings reader (`convert` and `check`:
    /// SheetPortCLITests' `HeldOutReaderTests`).
    @Test(arguments: [("crc_damage.xlsx", "xl/worksheets/sheet1.xml", "CRC-32"),
                      ("inflate_damage.xlsx", "xl/worksheets/sheet1.xml", "cannot be inflated"),
                      ("strings_crc_damage.xlsx", "xl/sharedStrings.xml", "CRC-32")])
    func damagedDataIsCorruptZipNamingThePart(_ name: String, _ part: String, _ reason: String) throws {
        let path = Self.heldOut(name)
        #expect {
            let workbook = try Workbook(path: path)
            _ = try workbook.sharedStrings()
            _ = try Self.readAll(path)
        } throws: { error in
            let error = error as? ReaderError
            return error?.code == .corruptZip && error?.part == part && error?.message.contains(reason) == true
        }
    }

    /// Sound data with broken XML is still malformed XML (reading the entry through finds nothing).
    @Test func soundDataWithBrokenXMLIsStillMalformed() throws {
        let path = Project.corpus.appendingPathComponent("exceljs__invalid-xml.xlsx").path
        try #require(FileManager.default.fileExists(atPath: path), "needs the shared corpus")
        #expect {
            _ = try Self.readAll(path)
            _ = try Workbook(path: path).styles()
        } throws: { ($0 as? ReaderError)?.code == .malformedXML }
    }

    // MARK: 1904 dates

    @Test func serialZeroInThe1904SystemIsJanuaryFirst1904() throws {
        let jsonl = try convert(Project.fixture("dates_1904.xlsx"), to: .jsonl)
        #expect(jsonl.contains(#"{"ref":"B1","type":"date","value":"1904-01-01T00:00:00.000""#))
        #expect(!jsonl.contains("1899-12-30"))
        // The 1900 system keeps times with no date part on 1899-12-30.
        #expect(try convert(Project.fixture("dates_1900.xlsx"), to: .jsonl).contains("1899-12-30T12:00:00.000"))
    }
}
