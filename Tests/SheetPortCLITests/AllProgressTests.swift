import Foundation
import Testing
@testable import SheetPortReader
@testable import SheetPortConvert
import SheetPortTestSupport

/// `convert --all` reports one progress across every sheet, not one restarting per sheet.
@Suite struct AllProgressTests {
    @Test func progressRunsOnceAcrossAllSheets() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        typealias W = RawWorkbook
        let rows = (1...9000).map { W.row($0, W.number("A\($0)", "\($0)"), W.text("B\($0)", "row \($0)")) }.joined()
        let path = folder.appendingPathComponent("three.xlsx").path
        try RawWorkbook(sheets: ["One", "Two", "Three"].map { W.Sheet(name: $0, sheetData: rows) }).write(to: path)
        let workbook = try Workbook(path: path)
        var heard: [(Int, ConversionSummary)] = []
        let out = folder.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let converted = try SheetConverter.convertAll(workbook, sheets: workbook.sheets, to: .csv, folder: out) { heard.append(($0, $1)) }
        #expect(converted.count == 3)
        #expect(heard.count >= 6)
        #expect(Set(heard.map(\.1.totalBytes)).count == 1) // one total for the whole run
        let fractions = heard.map { Double($0.1.bytesRead) / Double($0.1.totalBytes) }
        #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 }, "\(fractions)")
        #expect(fractions.last == 1)
        #expect(heard.last?.1.rows == 27_000)
        #expect(zip(heard.map(\.1.rows), heard.dropFirst().map(\.1.rows)).allSatisfy { $0 <= $1 })
    }
}
