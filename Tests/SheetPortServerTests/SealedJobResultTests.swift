import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortWriter
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport

/// Sheet names an import did not take are part of the workbook: a job's result and warnings
/// are sealed in the store, and only the imported sheet's name is stored in plaintext (issue 23).
extension ServerTests {
    /// Distinctive names of the sheets an import does not take, hostile ones among them.
    static let untakenSheets = ["OTTER-UNTAKEN-SHEET-41", "Ωmega-UNTAKEN-\u{1F9A6}", "LYNX 'quoted' UNTAKEN"]

    /// A workbook whose first worksheet is "Taken" and whose others have the names above.
    static func makeMultiSheetWorkbook(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("multi.xlsx").path
        let writer = try WorkbookWriter(path: path)
        let taken = try writer.addWorksheet(named: "Taken")
        try taken.append(Row(index: 1, cells: [Cell(column: 1, value: .string("visible content"))]))
        for name in untakenSheets {
            let sheet = try writer.addWorksheet(named: name)
            try sheet.append(Row(index: 1, cells: [Cell(column: 1, value: .string("other \(name)"))]))
        }
        try writer.close()
        return path
    }

    /// Whether `bytes` hold `text` (its UTF-8 bytes).
    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0] == needle[0] && Array(bytes[$0..<$0 + needle.count]) == needle }
    }

    /// Imports a multi-sheet workbook: the API answers as before (the `extra-worksheets`
    /// warning names the sheets not taken), but the store's files hold none of those names
    /// (SQLite: the database file and its WAL; PostgreSQL: every table's rows as text). Before,
    /// the job's result held them in plaintext.
    @Test func untakenSheetNamesAreNotStoredInPlaintext() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let job = try fixture.api.importWorkbook(try Self.makeMultiSheetWorkbook(in: fixture.folder))
        #expect(job["status"] as? String == "succeeded", "\(job)")
        let answered = String(decoding: try JSONSerialization.data(withJSONObject: job), as: UTF8.self)
        for name in Self.untakenSheets {
            let escaped = String(decoding: try JSONSerialization.data(withJSONObject: [name]), as: UTF8.self).dropFirst(2).dropLast(2)
            #expect(answered.contains(escaped), "the API no longer names \(name): \(answered)")
        }
        let id = try #require(job["id"] as? String)
        // Through a second read too (the stored result, not the worker's copy).
        #expect(try fixture.api.object("/api/imports/\(id)").description.contains("extra-worksheets"))
        if let url = fixture.server.databaseURL {
            let database = try StoreLocation.postgres(url: url).connect()
            let tables = try database.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'", []).compactMap { $0[0].string }
            for table in tables {
                let text = try database.query("SELECT COALESCE(string_agg(t::text, E'\\n'), '') FROM \(table) t", []).first?.first?.string ?? ""
                for name in Self.untakenSheets { #expect(!text.contains(name), "\(table) holds \(name)") }
            }
        } else {
            fixture.server.stop() // the WAL checkpointed or not: both files are looked at
            for file in filesUnder(fixture.server.data) {
                let bytes = Array((try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data())
                for name in Self.untakenSheets {
                    let holds = Self.contains(bytes, name) // the bytes themselves stay out of the message
                    #expect(!holds, "\(file) holds \(name)")
                }
            }
            #expect(Self.contains(Array((try? Data(contentsOf: URL(fileURLWithPath: fixture.server.data + "/sheetport.db"))) ?? Data()), "Taken")
                    || filesUnder(fixture.server.data).contains { Self.contains(Array((try? Data(contentsOf: URL(fileURLWithPath: $0))) ?? Data()), "Taken") },
                    "the imported sheet's name is not where it was looked for")
        }
    }

    /// A job result written before results were sealed (plaintext JSON in the row) is read as
    /// before, and sealed when the server next starts.
    @Test func aPlaintextResultOfAnEarlierVersionIsReadAndSealedAtStart() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let id = try #require(try fixture.api.importWorkbook(try makeStyledWorkbook(in: fixture.folder, rows: 5))["id"] as? String)
        let old = #"{"sheet":{"id":"x","name":"Old"},"warnings":[{"code":"extra-worksheets","severity":"warning","message":"OLD-PLAINTEXT-NAME"}]}"#
        try fixture.server.store().query("UPDATE jobs SET result = ? WHERE id = ?", [.text(old), .text(id)])
        #expect(try fixture.api.call("GET", "/api/imports/\(id)").text.contains("OLD-PLAINTEXT-NAME"))
        fixture.server.stop()
        try fixture.server.restart()
        let stored = try fixture.server.store().query("SELECT result FROM jobs WHERE id = ?", [.text(id)]).first?.first?.string ?? ""
        #expect(stored.hasPrefix("sealed:1:") && !stored.contains("OLD-PLAINTEXT-NAME"), "\(stored.prefix(80))")
        #expect(try fixture.server.api(fixture.api.token).call("GET", "/api/imports/\(id)").text.contains("OLD-PLAINTEXT-NAME"))
    }
}
