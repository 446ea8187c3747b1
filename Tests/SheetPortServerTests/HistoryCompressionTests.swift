import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport

/// History payloads are zstd-compressed, then sealed (issue 35, attack 7): a copy of one long
/// text over a range no longer stores the text again in full for every cell; entries written
/// before (sealed JSON, no format byte) still read, restore and undo.
@Suite struct HistoryCompressionTests {
    /// The stored entries of `version`: the bytes stored, the bytes the same entries took sealed
    /// uncompressed (as written before), and how many are cells' entries.
    private static func sizes(_ server: TestServer, sheet: String, version: Int) throws -> (stored: Int, uncompressed: Int, cells: Int) {
        let context = try #require(server.server).context
        let rows = try server.store().query("SELECT row_number, column_number, data FROM cell_history WHERE sheet_id = ? AND version = ?",
                                            [.text(sheet), .integer(Int64(version))])
        var stored = 0, uncompressed = 0, cells = 0
        for row in rows {
            let cell = CellReference(row: row[0].int ?? 0, column: row[1].int ?? 0)
            let data = row[2].bytes ?? []
            let plaintext = try context.sealer.open(data, context: CellHistory.context(sheet, cell, version), what: "cell history")
            stored += data.count
            uncompressed += Sealer.overhead + (try CellHistory.unpacked(plaintext)).count
            if cell.row > 0 && cell.column > 0 { cells += 1 }
        }
        return (stored, uncompressed, cells)
    }

    @Test func copiedLongTextIsStoredCompressed() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let client = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        _ = try client.write(["A1": #"=REPT("x",16000)"#])
        let copy = try client.post("copy", ["source": "A1", "target": "A2:A101"])
        try #require(copy.status == 200, "\(copy.text.prefix(300))")
        let version = try #require(copy.object["version"] as? Int)
        let (stored, uncompressed, cells) = try Self.sizes(fixture.server, sheet: client.sheet, version: version)
        #expect(cells == 100)
        print("history of a copy of REPT(\"x\",16000) over 100 cells: \(stored) bytes stored (\(stored / cells) a cell), "
              + "\(uncompressed) uncompressed (\(uncompressed / cells) a cell), \(String(format: "%.0f", Double(uncompressed) / Double(stored)))x")
        #expect(stored * 50 < uncompressed, "\(stored) bytes stored of \(uncompressed)")
        #expect(stored / cells < 1_000)

        // The compressed entries read back: the history lists the write, and undo takes it back.
        let history = try fixture.api.object("/api/sheets/\(client.sheet)/cells/A50/history")["history"] as? [[String: Any]] ?? []
        #expect(history.first?["version"] as? Int == version && history.first?["input"] as? String == #"=REPT("x",16000)"#, "\(history)")
        #expect(try client.post("undo", [:]).status == 200)
        #expect(try client.cells()["A50"] == nil)
        #expect((try client.cells()["A1"]?["value"] as? String)?.count == 16_000)
    }

    @Test func entriesWrittenBeforeCompressionStillRead() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let client = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        let long = String(repeating: "yz", count: 2_000)
        _ = try client.write(["B5": "first"])
        let version = try #require(try client.write(["B5": long])["version"] as? Int)
        let context = try #require(fixture.server.server).context
        let store = try fixture.server.store()
        let cell = CellReference(row: 5, column: 2), sealing = CellHistory.context(client.sheet, cell, version)
        let sealed = try #require(try store.cellHistoryData(of: client.sheet, version: version, row: 5, column: 2))
        let plaintext = try context.sealer.open(sealed, context: sealing, what: "cell history")
        #expect(plaintext.first == CellHistory.zstdFormat, "a long entry is stored compressed")
        let json = try CellHistory.unpacked(plaintext)
        #expect(json.first == UInt8(ascii: "{") && json.count > 4_000)

        // The entry as the store held it before: its JSON sealed as it is, no format byte.
        _ = try store.query("DELETE FROM cell_history WHERE sheet_id = ? AND version = ? AND row_number = 5 AND column_number = 2",
                        [.text(client.sheet), .integer(Int64(version))])
        try store.insertCellHistory(sheet: client.sheet, version: version, row: 5, column: 2, subject: "ann", at: 1, change: "cells",
                                    data: context.sealer.seal(json, context: sealing))
        let history = try fixture.api.object("/api/sheets/\(client.sheet)/cells/B5/history")["history"] as? [[String: Any]] ?? []
        #expect(history.map { $0["input"] as? String } == [long, "first"], "\(history.map { ($0["input"] as? String)?.prefix(20) })")
        #expect(try client.post("undo", [:]).status == 200)
        #expect(try client.cells()["B5"]?["input"] as? String == "first")
        #expect(try client.post("cells/B5/restore", ["version": version]).status == 200)
        #expect(try client.cells()["B5"]?["input"] as? String == long)
    }

    /// Hostile stored plaintexts: an unknown format byte, an empty or cut zstd frame, a frame
    /// claiming more than a block may hold. Each is an error, never a trap.
    @Test func damagedEntriesAreErrors() throws {
        let frame = CellHistory.packed(Array(String(repeating: "{\"input\":\"abc\"}", count: 200).utf8))
        #expect(frame.first == CellHistory.zstdFormat)
        #expect(try CellHistory.unpacked(frame) == Array(String(repeating: "{\"input\":\"abc\"}", count: 200).utf8))
        #expect(CellHistory.packed(Array("{}".utf8)) == Array("{}".utf8), "a small entry is kept as it is")
        let hostile: [[UInt8]] = [[0x07, 1, 2], [CellHistory.zstdFormat], Array(frame.prefix(frame.count / 2)),
                                  [CellHistory.zstdFormat, 0x28, 0xB5, 0x2F, 0xFD, 0xA0, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]]
        for plaintext in hostile {
            #expect(throws: CellHistory.FormatError.self, "\(plaintext.prefix(12))") { try CellHistory.unpacked(plaintext) }
        }
    }
}
