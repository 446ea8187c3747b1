import Foundation
import Testing
import SheetPortCore
@testable import SheetPortCalc
@testable import SheetPortServer
import SheetPortTestSupport

/// A write keeps the blocks its planning decoded for its transaction only while their sealed
/// bytes are the ones it read: a block stored meanwhile (another instance settling values into
/// it) is read again, so the write keeps what that stored.
@Suite struct SheetEditPlannedBlocksTests {
    @Test func aBlockStoredBetweenPlanningAndStoringIsReadAgain() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = ServerConfiguration(dataDirectory: folder.appendingPathComponent("data").path,
                                                address: try ListenAddress(parsing: "127.0.0.1:0"))
        let server = try SheetServer(configuration: configuration)
        defer { server.stop() }
        let context = server.context
        let token = try context.database { try Tokens.issue(subject: "ann", in: $0) }
        let api = API(base: "http://127.0.0.1:\(server.port)", token: token)
        let sheet = EditingClient(api, try EditingClient.create(api))
        // Hostile text beside the cells written: quotes, a backslash, a line break, U+2028.
        _ = try sheet.write([("A1", "1"), ("B1", "2"), ("C1", "say \"hi\"\\\n\u{2028}")])
        let id = sheet.sheet

        func storedBlock(_ database: Database) throws -> [RowBlock.Entry] {
            let sealed = try #require(try database.rowBlock(of: id, block: 0))
            return try RowBlock.entries(stored: context.sealer.open(sealed, context: RowBlock.context(sheet: id, block: 0), what: "row block"))
        }
        // Unchanged first (the planned block serves the write), then stored meanwhile.
        for changeMeanwhile in [false, true] {
            let written = Double(changeMeanwhile ? 5 : 6)
            _ = try SheetWrite.run(id, subject: "ann", change: .cells, context) { edit in
                // Planning reads block 0.
                let planned = try edit.stored(CellReference(row: 1, column: 2))
                #expect(planned?.value == .number(2))
                edit.set(CellReference(row: 1, column: 1), CellUpdate(content: .value(.number(written), input: changeMeanwhile ? "5" : "6")))
                guard changeMeanwhile else { return }
                edit.storing {
                    // Another instance's value stored into B1 after the planning read the block.
                    var entries = try storedBlock(edit.database)
                    let index = try #require(entries[0].cells.firstIndex { StoredCell(line: $0, row: 1)?.column == 2 })
                    var cell = try #require(StoredCell(line: entries[0].cells[index], row: 1))
                    cell.input = "7"
                    cell.value = .number(7)
                    entries[0].cells[index] = ArraySlice(cell.line)
                    try edit.database.replaceRowBlock(sheet: id, block: 0, firstRow: 1, lastRow: 1,
                                                      data: context.sealer.seal(RowBlock.binary(entries), context: RowBlock.context(sheet: id, block: 0)))
                }
            }
            let cells = try context.database { try storedBlock($0) }[0].cells.compactMap { StoredCell(line: $0, row: 1) }
            #expect(cells.map(\.column) == [1, 2, 3])
            #expect(cells.first { $0.column == 1 }?.value == .number(written))
            #expect(cells.first { $0.column == 2 }?.input == (changeMeanwhile ? "7" : "2"), "the value stored meanwhile is kept")
            #expect(cells.first { $0.column == 3 }?.input == "say \"hi\"\\\n\u{2028}")
        }
    }
}
