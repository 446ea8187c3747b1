import SheetPortCore
import SheetPortTestSupport
import SheetPortWriter
import Foundation
import Testing

/// Issue 39, item 1: a big honest workbook of unique text reads in `convert`, `sheets` and
/// `check`, while a bomb made of shared strings is still refused.
@Suite struct LargeSharedStringsTests {
    /// `rows` rows of an id, a UUID, an e-mail address and a comment, all through the shared
    /// strings (as XlsxWriter writes them; `Scripts/make_text_workbook.py` makes the file).
    static func exportWorkbook(rows: Int, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("export.xlsx").path
        let writer = try WorkbookWriter(path: path)
        let sheet = try writer.addWorksheet(named: "Data")
        try sheet.append(Row(index: 1, cells: ["id", "uuid", "email", "comment"].enumerated().map {
            Cell(column: $0.offset + 1, value: .string($0.element))
        }))
        for row in 2...(rows + 1) {
            try sheet.append(Row(index: row, cells: [
                Cell(column: 1, value: .number(Double(row - 1))),
                Cell(column: 2, value: .string(UUID().uuidString.lowercased())),
                Cell(column: 3, value: .string("user\(row).name@example.com")),
                Cell(column: 4, value: .string("order \(row) delivered late, customer asked for a refund; invoice attached")),
            ]))
        }
        try writer.close()
        return path
    }

    @Test func sharedTextOverTenMegabytesReads() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = 100_000 // about 15 MB of shared text: over the old 10 MiB limit
        let book = try Self.exportWorkbook(rows: rows, in: folder)

        let csv = try runSheetport(["convert", book, "--to", "csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let lines = String(decoding: csv.stdout, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        #expect(lines.count == rows + 2) // the header, the rows, the empty string after the last CRLF
        #expect(lines.last == "" && lines[rows].hasPrefix("\(rows),") && lines[rows].hasSuffix("user\(rows + 1).name@example.com,\"order \(rows + 1) delivered late, customer asked for a refund; invoice attached\""))

        let sheets = try runSheetport(["sheets", book, "--json"])
        #expect(sheets.status == 0, "\(sheets.stderr)")
        let listed = try #require(try JSONSerialization.jsonObject(with: sheets.stdout) as? [String: Any])
        let first = try #require((listed["sheets"] as? [[String: Any]])?.first)
        #expect(first["rows"] as? Int == rows + 1 && first["columns"] as? Int == 4)

        let check = try runSheetport(["check", book, "--json"])
        #expect(check.status == 0, "\(check.stderr) \(String(decoding: check.stdout, as: UTF8.self))")
        #expect(String(decoding: check.stdout, as: UTF8.self).contains("\"importable\":true"))

        // A lower limit given on purpose still refuses it, naming the option.
        let limited = try runSheetport(["convert", book, "--to", "csv", "--max-text-size", "1M"])
        #expect(limited.status != 0 && limited.stderr.contains("exceeds-limit") && limited.stderr.contains("--max-text-size"), "\(limited.stderr)")
    }

    /// A shared-string table of 300 MiB that compresses about 1,000:1: what the text limit used
    /// to stop is now stopped by the expansion ratio, before the table is held.
    @Test func sharedStringsBombIsRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bomb = folder.appendingPathComponent("strings-bomb.xlsx").path
        try makeInflationBomb(at: bomb, part: .sharedStrings)
        for command in [["convert", bomb, "--to", "csv"], ["sheets", bomb]] {
            let result = try runSheetport(command)
            #expect(result.status != 0 && result.stderr.contains("zip-bomb"), "\(command): \(result.status) \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        let check = try runSheetport(["check", bomb, "--json"])
        #expect(check.status == 1 && String(decoding: check.stdout, as: UTF8.self).contains("zip-bomb"), "\(check.stderr)")
    }
}
