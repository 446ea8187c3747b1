import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortWriter
@testable import SheetPortReader
@testable import SheetPortServer
import SheetPortTestSupport

/// Row blocks are compressed before they are sealed (issue 26), and blocks of the previous
/// format (the text lines sealed as they are) stay readable: a store whose blocks are all
/// rewritten to the previous format answers the same rows windows and exports the same cells.
@Suite(.serialized) struct RowBlockFormatTests {
    /// The blocks of `sheet`: (block, sealed bytes).
    static func blocks(_ server: TestServer, sheet: String) throws -> [(Int, [UInt8])] {
        try server.store().query("SELECT block, data FROM row_blocks WHERE sheet_id = ? ORDER BY block", [.text(sheet)])
            .map { ($0[0].int ?? -1, $0[1].bytes ?? []) }
    }

    @Test func aStoreOfThePreviousFormatIsRead() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let server = fixture.server
        let book = try StorageReclaimTests.workbook(in: fixture.folder, rows: 700)
        let sheet = try fixture.api.importSheet(book)
        let window = try fixture.api.call("GET", "/api/sheets/\(sheet)/rows?start=1&count=1000").body
        let exported = try fixture.api.call("GET", "/api/sheets/\(sheet)/export.xlsx")
        try #require(exported.status == 200)
        let keyFile = server.databaseURL == nil ? server.data + "/seal.key" : fixture.folder.appendingPathComponent("seal.key").path
        let location: StoreLocation = server.databaseURL.map { .postgres(url: $0) } ?? .sqlite(path: server.data + "/sheetport.db")
        let sealer = try #require(try KeyCheck.establish(keyFile: keyFile, store: location, staging: nil, create: false))

        // Every block is stored compressed, and is several times smaller than its text.
        var compressed = 0, text = 0
        let store = try server.store()
        for (block, sealed) in try Self.blocks(server, sheet: sheet) {
            let context = RowBlock.context(sheet: sheet, block: block)
            let stored = try sealer.open(sealed, context: context, what: "row block")
            #expect(stored.first == RowBlock.zstdFormat)
            let lines = try RowBlock.text(stored)
            compressed += stored.count
            text += lines.count
            // Back to the previous format: the text lines sealed as they are.
            try store.query("UPDATE row_blocks SET data = ? WHERE sheet_id = ? AND block = ?",
                            [.blob(sealer.seal(lines, context: context)), .text(sheet), .integer(Int64(block))])
        }
        #expect(compressed * 4 < text, "compressed \(compressed) bytes of \(text)")
        #expect(try fixture.api.call("GET", "/api/sheets/\(sheet)/rows?start=1&count=1000").body == window)
        let again = try fixture.api.call("GET", "/api/sheets/\(sheet)/export.xlsx")
        #expect(again.status == 200)
        let paths = [fixture.folder.appendingPathComponent("new.xlsx").path, fixture.folder.appendingPathComponent("old.xlsx").path]
        try Data(exported.body).write(to: URL(fileURLWithPath: paths[0]))
        try Data(again.body).write(to: URL(fileURLWithPath: paths[1]))
        let rows = try paths.map { path -> [Row] in
            let workbook = try Workbook(path: path)
            let reader = try workbook.rows(of: try #require(workbook.firstWorksheet))
            var rows: [Row] = []
            while let row = try reader.nextRow() { rows.append(row) }
            return rows
        }
        #expect(rows[0].count == 701 && rows[0] == rows[1])

        // A store of the previous version has no mark that its blocks are compressed: the next
        // start compresses them in the background, and the rows read the same.
        try store.query("DELETE FROM meta WHERE name = ?", [.text(RowBlockMigration.doneName)])
        server.stop()
        try server.restart()
        let api = server.api(fixture.api.token)
        let deadline = Date().addingTimeInterval(60)
        var formats: Set<UInt8> = []
        repeat {
            usleep(100_000)
            formats = Set(try Self.blocks(server, sheet: sheet).map { block, sealed in
                try sealer.open(sealed, context: RowBlock.context(sheet: sheet, block: block), what: "row block").first ?? 0
            })
        } while formats != [RowBlock.zstdFormat] && Date() < deadline
        #expect(formats == [RowBlock.zstdFormat])
        #expect(try store.query("SELECT 1 FROM meta WHERE name = ?", [.text(RowBlockMigration.doneName)]).count == 1)
        #expect(try api.call("GET", "/api/sheets/\(sheet)/rows?start=1&count=1000").body == window)
    }

    /// Hostile stored bytes are refused with a reason, never read past or trusted: an unknown
    /// format byte, a cut frame, a frame that claims more than a block may hold, garbage, and
    /// nothing at all (an empty block has no rows).
    @Test func hostileStoredBytesAreRefused() throws {
        let text = Array("#1 - 0\n{\"col\":1,\"input\":\"a\",\"ref\":\"A1\",\"type\":\"string\",\"value\":\"a\"}\n".utf8)
        let stored = RowBlock.stored(text)
        #expect(try RowBlock.text(stored) == text)
        #expect(try RowBlock.entries(stored: stored).first?.cells.count == 1)
        #expect(try RowBlock.text([]) == [])
        #expect(throws: RowBlock.FormatError.self) { try RowBlock.text([0x02] + stored.dropFirst()) }
        #expect(throws: RowBlock.FormatError.self) { try RowBlock.text(Array(stored.dropLast(3))) }
        #expect(throws: RowBlock.FormatError.self) { try RowBlock.text([RowBlock.zstdFormat, 1, 2, 3, 4, 5]) }
        #expect(throws: RowBlock.FormatError.self) { try RowBlock.text([RowBlock.zstdFormat]) }
        // A frame header claiming 1 GiB of content (single segment, 4-byte size) is refused before allocating it.
        let bomb: [UInt8] = [RowBlock.zstdFormat, 0x28, 0xB5, 0x2F, 0xFD, 0x80 | 0x20, 0, 0, 0, 0x40] + [UInt8](repeating: 0, count: 16)
        #expect(throws: RowBlock.FormatError.self) { try RowBlock.text(bomb) }
        // The lenient reader used by other code logs and gives no rows rather than garbage.
        #expect(RowBlock.entries([0x7F, 1, 2]).isEmpty)
    }
}
