import Foundation
import Testing
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortCore
import SheetPortTestSupport

/// Writes of many cells (issue 40): their history is kept a row block to an entry, not a row per
/// cell, and reads as before through the API (each cell's history, undo, restore, another
/// subject's later edit left alone); a write past `maxBatchCells` is refused whole; another
/// user's small write is not held for a large one; a delete during a large write leaves no
/// half sheet. Real server, real SQLite file.
@Suite struct BigWriteTests {
    /// Rows of the large writes: enough row blocks to be batched (`CellHistory.batchedFrom`).
    static let rows = 3_000

    /// The store's history rows of a version, and how many of them are row block entries.
    static func historyRows(_ server: TestServer, sheet: String, version: Int) throws -> (all: Int, batches: Int) {
        let rows = try server.store().query("SELECT row_number, column_number FROM cell_history WHERE sheet_id = ? AND version = ?",
                                            [.text(sheet), .integer(Int64(version))])
        return (rows.count, rows.filter { ($0[1].int ?? 0) == -1 }.count)
    }

    @Test func aLargePasteCopyClearAndUndoKeepHistoryPerCell() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let client = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        let last = Self.rows
        // Column A: a paste of numbers as one write; B2 a formula filled down by copy.
        let paste = try client.write((1...last).map { ("A\($0)", String($0 * 2)) })
        let pasted = try #require(paste["version"] as? Int)
        let blocks = (last + RowBlock.rowsPerBlock - 1) / RowBlock.rowsPerBlock
        let stored = try Self.historyRows(fixture.server, sheet: client.sheet, version: pasted)
        // One marker and one entry per row block, never a row per cell.
        #expect(stored.all == blocks + 1 && stored.batches == blocks, "\(stored) for \(last) cells in \(blocks) blocks")

        #expect(try client.write(["B1": "=A1+1"])["version"] != nil)
        let copy = try client.post("copy", ["source": "B1", "target": "B2:B\(last)"])
        try #require(copy.status == 200, "\(copy.text.prefix(300))")
        let copied = try #require(copy.object["version"] as? Int)
        #expect(try Self.historyRows(fixture.server, sheet: client.sheet, version: copied).batches == blocks)
        var cells = try client.cells()
        #expect(cells["B\(last)"]?["value"] as? Double == Double(last * 2 + 1))

        // Each cell's history reads through the API as before: the paste's entry, the copy's.
        for ref in ["A1", "A64", "A65", "A\(last)"] {
            let history = try fixture.api.object("/api/sheets/\(client.sheet)/cells/\(ref)/history")["history"] as? [[String: Any]] ?? []
            let row = Int(ref.dropFirst())!
            #expect(history.map { $0["input"] as? String } == [String(row * 2)] && history.first?["version"] as? Int == pasted, "\(ref): \(history)")
        }
        let bHistory = try fixture.api.object("/api/sheets/\(client.sheet)/cells/B777/history")["history"] as? [[String: Any]] ?? []
        #expect(bHistory.map { $0["input"] as? String } == ["=A777+1"] && bHistory.first?["change"] as? String == "copy", "\(bHistory)")

        // Another subject writes into the copied range after it: an undo of the copy leaves bob's cell.
        #expect(try fixture.api.call("POST", "/api/sheets/\(client.sheet)/grants", json: ["subject": "bob", "role": "editor"]).status < 300)
        let bob = EditingClient(fixture.server.api(try fixture.server.token("bob")), client.sheet)
        _ = try bob.write(["B100": "bob's"])
        let clear = try client.post("clear", ["range": "A1:A\(last)"])
        try #require(clear.status == 200, "\(clear.text.prefix(300))")
        cells = try client.cells()
        #expect(cells["A5"] == nil && cells["B5"]?["value"] as? Double == 1)

        // Undo the clear, then the copy: the column comes back, then B empties but bob's B100 stays.
        let undoClear = try client.post("undo", [:])
        #expect(undoClear.status == 200 && undoClear.object["undone"] as? Int == clear.object["version"] as? Int)
        cells = try client.cells()
        #expect(cells["A\(last)"]?["value"] as? Double == Double(last * 2) && cells["B5"]?["value"] as? Double == 11)
        let undoCopy = try client.post("undo", [:])
        #expect(undoCopy.status == 200 && undoCopy.object["undone"] as? Int == copied, "\(undoCopy.text.prefix(300))")
        #expect(undoCopy.object["skipped"] as? [String] == ["B100"], "\(undoCopy.text.prefix(300))")
        cells = try client.cells()
        #expect(cells["B5"] == nil && cells["B100"]?["input"] as? String == "bob's" && cells["B1"]?["input"] as? String == "=A1+1")

        // Restore a cell to the copy's version: its formula at that version comes back.
        let restore = try client.post("cells/B900/restore", ["version": copied])
        #expect(restore.status == 200)
        #expect(try client.cells()["B900"]?["input"] as? String == "=A900+1")
    }

    /// Hostile sizes: a write of 1,000,000 cells is refused whole (413 `batch-too-large`, the
    /// `maxBatchCells` limit), as a copy over 1,000,000 cells and a clear of a range holding more
    /// stored cells than the limit; nothing is stored and the version does not move.
    @Test func writesPastTheBatchLimitAreRefusedWhole() throws {
        let fixture = try ServerFixture { $0.maxBatchCells = 2_000 }
        defer { fixture.close() }
        let client = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        let version = try #require(try client.write((1...2_000).map { ("A\($0)", "1") })["version"] as? Int)
        let million = try client.post("cells", ["cells": (1...1_000_000).map { ["ref": "C\($0)", "input": "1"] }])
        #expect([413].contains(million.status), "\(million.status) \(million.text.prefix(200))")
        let copy = try client.post("copy", ["source": "A1", "target": "D1:D1000000"])
        #expect(copy.status == 413 && copy.text.contains("batch-too-large"), "\(copy.status) \(copy.text.prefix(200))")
        _ = try client.write(["B1": "1", "B2": "2"])
        let clear = try client.post("clear", ["range": "A1:B2000"])
        #expect(clear.status == 413, "\(clear.status) \(clear.text.prefix(200))")
        let sheet = try fixture.api.object("/api/sheets/\(client.sheet)")
        #expect(sheet["version"] as? Int == version + 1, "\(sheet)")
        #expect(try client.cells().count == 2_002)
    }

    /// Two users at once: bob's one-cell write to another sheet answers while ann's large copy
    /// runs, not after it; and a delete during a large write leaves the sheet gone whole.
    @Test func aLargeWriteHoldsNeitherOtherWritesNorADelete() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let ann = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        let bobAPI = fixture.server.api(try fixture.server.token("bob"))
        let bob = EditingClient(bobAPI, try EditingClient.create(bobAPI, name: "Bob"))
        _ = try ann.write(["A1": "1", "B1": "=A1*2"])
        let rows = 4_000
        let big = LockedBox<(Int, Double)>((0, 0))
        let small = LockedBox<[Double]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 {
                let started = Date()
                let status = (try? ann.post("copy", ["source": "A1:B1", "target": "A2:B\(rows)"]).status) ?? -1
                big.value = (status, Date().timeIntervalSince(started))
            } else {
                Thread.sleep(forTimeInterval: 0.2)
                for index in 1...5 {
                    let started = Date()
                    _ = try? bob.write(["A\(index)": String(index)])
                    small.update { $0.append(Date().timeIntervalSince(started)) }
                }
            }
        }
        #expect(big.value.0 == 200)
        // Each small write took less than the large one (it did not wait for all of it).
        let slowest = small.value.max() ?? .infinity
        #expect(small.value.count == 5 && slowest < big.value.1, "bob's writes \(small.value), ann's copy \(big.value.1) s")
        #expect(try bob.cells().count == 5)

        // A delete while a large clear runs: the delete answers, the clear answers 200 or 404,
        // and the sheet is gone whole afterwards.
        let outcome = LockedBox<(Int, Int)>((0, 0))
        let owner = fixture.api
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 {
                let status = (try? ann.post("clear", ["range": "A1:B\(rows)"]).status) ?? -1
                outcome.update { $0.0 = status }
            } else {
                Thread.sleep(forTimeInterval: 0.1)
                let status = (try? owner.call("DELETE", "/api/sheets/\(ann.sheet)").status) ?? -1
                outcome.update { $0.1 = status }
            }
        }
        #expect([200, 404].contains(outcome.value.0) && outcome.value.1 == 204, "\(outcome.value)")
        #expect(try fixture.api.call("GET", "/api/sheets/\(ann.sheet)/rows?start=1&count=5").status == 404)
        let left = try fixture.server.store().query("SELECT COUNT(*) FROM row_blocks WHERE sheet_id = ?", [.text(ann.sheet)])
        #expect(left.first?.first?.int == 0)
        #expect(try fixture.server.store().query("SELECT COUNT(*) FROM cell_history WHERE sheet_id = ?", [.text(ann.sheet)]).first?.first?.int == 0)
    }
}
