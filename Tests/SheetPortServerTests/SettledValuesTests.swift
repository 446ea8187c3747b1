import Foundation
import Testing
@testable import SheetPortCalc
@testable import SheetPortServer
import SheetPortTestSupport
@testable import SheetPortClient

/// A write whose dependents change more cells than its answer lists answers once it knows that;
/// the rest are computed and stored after it (`SheetSettle`). Whatever the timing, a read after
/// an answered write (rows windows, a view, an export) sees every value that write gave, a run
/// of writes loses none, and a server killed part way leaves nothing stale for the next one.
@Suite struct SettledValuesTests {
    /// A running total over `rows` rows on A1: B1 = A1, Bn = Bn-1 + An (An = n % 7).
    private func runningTotal(_ sheet: EditingClient, rows: Int) throws {
        var inputs: [(String, String)] = [("A1", "1"), ("B1", "=A1")]
        for r in 2...rows { inputs += [("A\(r)", String(r % 7)), ("B\(r)", "=B\(r - 1)+A\(r)")] }
        // Batches a debug build writes well within PostgreSQL's idle-in-transaction bound (10 s at
        // the default lease): 4,000 inputs took 8 to 11 s in one transaction on a busy machine.
        for start in stride(from: 0, to: inputs.count, by: 2_000) { _ = try sheet.write(Array(inputs[start..<min(start + 2_000, inputs.count)])) }
    }

    private func total(first: Int, through row: Int) -> Double {
        Double(first + (row < 2 ? 0 : (2...row).reduce(0) { $0 + $1 % 7 }))
    }

    @Test func readsAfterAWriteSeeEveryValueItGave() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        let rows = 12_000
        try runningTotal(sheet, rows: rows)
        var versions: [Int] = []
        for a in 2...21 {
            let answer = try sheet.write([("A1", String(a))])
            versions.append(answer["version"] as? Int ?? -1)
            // The answer: the input and the first 999 dependents, each with this write's value.
            let changed = try #require(answer["changed"] as? [[String: Any]])
            #expect(answer["more"] as? Bool == true)
            #expect(changed.count == 1_000)
            let values = Dictionary(changed.map { ($0["ref"] as? String ?? "", $0["value"] as? Double ?? -1) }, uniquingKeysWith: { a, _ in a })
            #expect(values["A1"] == Double(a))
            #expect(values["B999"] == total(first: a, through: 999))
        }
        #expect(versions == versions.sorted() && Set(versions).count == versions.count)
        // Read at once: the last write's values down to the last row.
        let cells = try sheet.cells()
        for r in [1, 1_000, 1_001, 6_000, rows] {
            #expect(cells["B\(r)"]?["value"] as? Double == total(first: 21, through: r), "B\(r)")
        }
        // A view sorts by the values the writes gave; an export carries them.
        _ = try sheet.write([("A1", "100")])
        let view = try sheet.api.object("/api/sheets/\(sheet.sheet)/view?sort=B:desc&count=1")
        #expect((view["rows"] as? [[String: Any]])?.first?["row"] as? Int == rows)
        _ = try sheet.write([("A1", "200")])
        let exported = try sheet.exportedValues(in: fixture.folder)
        #expect(exported["B\(rows)"] as? Double == total(first: 200, through: rows))
    }

    /// Reads while a run of writes goes on: every value a rows window shows is one a write
    /// gave, never older than the last write answered before the read began.
    @Test func readsDuringWritesSeeNoOlderValue() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        try runningTotal(sheet, rows: 5_000)
        let (reads, failures) = EditingClient.readsDuringWrites(writer: sheet, readers: [sheet, sheet], writes: 30, row: 3_000,
                                                                 offset: total(first: 0, through: 3_000))
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        print("reads during writes: \(reads), failures \(failures.count)")
        #expect(reads >= 2)
        #expect(try sheet.cells()["B5000"]?["value"] as? Double == total(first: 31, through: 5_000))
    }

    /// An in-process server whose settling thread is stopped: what writes leave stays flagged,
    /// deterministically. A run of writes takes up what the previous ones left; a rows window
    /// and a view show the values left without storing them; an export brings the store level; a graph gone
    /// (another instance's write, an eviction, a crash) is rebuilt from the inputs and the stale
    /// values stored; a restarted server settles flagged sheets itself.
    @Test func whatAWriteLeavesIsStoredByTheNextReadOrTheNextStart() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let configuration = ServerConfiguration(dataDirectory: data, address: try ListenAddress(parsing: "127.0.0.1:0"))
        var server = try SheetServer(configuration: configuration)
        server.context.settler.stop()
        let token = try server.context.database { try Tokens.issue(subject: "ann", in: $0) }
        var api = API(base: "http://127.0.0.1:\(server.port)", token: token)
        var sheet = EditingClient(api, try EditingClient.create(api))
        let rows = 5_000
        try runningTotal(sheet, rows: rows)
        let id = sheet.sheet
        func pending() throws -> Int? {
            try server.context.database { try $0.query("SELECT values_pending FROM sheets WHERE id = ?", [.text(id)]).first?.first?.int }
        }
        // Writes one after another, nothing settled between them: each answer is right.
        for a in 2...6 {
            let answer = try sheet.write([("A1", String(a))])
            #expect(EditingClient.changed(answer)["B999"]?["value"] as? Double == total(first: a, through: 999))
            #expect(try pending() == 1)
        }
        // A rows window shows the last write's values, computed as far as the window needs and
        // laid over the stored ones: nothing is stored, the chain past it is left to compute.
        let window = try sheet.api.object("/api/sheets/\(id)/rows?start=1500&count=3")
        let shown = (window["rows"] as? [[String: Any]] ?? []).flatMap { $0["cells"] as? [[String: Any]] ?? [] }
        #expect(shown.count == 6)
        for cell in shown where cell["ref"] as? String == "B1501" {
            #expect(cell["value"] as? Double == total(first: 6, through: 1_501))
            #expect(cell["display"] as? String == String(Int(total(first: 6, through: 1_501))))
            #expect(cell["input"] as? String == "=B1500+A1501")
        }
        #expect(try pending() == 1)
        #expect(try server.context.engines.withSheet(id) { $0?.engine.hasPendingRecalculation } == true)
        // Windows down to the last row, the same.
        let all = try sheet.cells()
        for r in [1, 999, 1_000, 1_001, 3_000, rows] {
            #expect(all["B\(r)"]?["value"] as? Double == total(first: 6, through: r), "B\(r)")
        }
        #expect(try pending() == 1)
        // A view sorts and filters by the same values, laid over the stored ones as well.
        // (Rows 4,994 to 5,000 add 3, 4, 5, 6, 0, 1, 2 to row 4,993's total.)
        let filter = String(Int(total(first: 6, through: 4_993)))
        let view = try sheet.api.object("/api/sheets/\(id)/view?sort=B:desc&filter=B:%3E\(filter)&count=2")
        let viewed = view["rows"] as? [[String: Any]] ?? []
        #expect(view["total"] as? Int == 7)
        #expect(viewed.map { $0["row"] as? Int } == [rows, rows - 1])
        let top = (viewed.first?["cells"] as? [[String: Any]] ?? []).first { $0["ref"] as? String == "B\(rows)" }
        #expect(top?["value"] as? Double == total(first: 6, through: rows))
        #expect(try pending() == 1)
        // An export writes every value: the store is brought level first.
        #expect(try sheet.exportedValues(in: folder)["B\(rows)"] as? Double == total(first: 6, through: rows))
        #expect(try pending() == 0)
        // The background coming after the read finds nothing to do, and keeps the graph.
        #expect(try SheetSettle.step(id, server.context, whole: false))
        #expect(server.context.engines.usage.sheets == 1)
        // The graph goes with values left: the next read rebuilds it from the inputs.
        _ = try sheet.write([("A1", "7")])
        server.context.engines.drop(id, olderThan: .max)
        #expect(try sheet.cells()["B\(rows)"]?["value"] as? Double == total(first: 7, through: rows))
        // Stopped with values left: the next start stores them without being asked.
        _ = try sheet.write([("A1", "8")])
        server.stop()
        server = try SheetServer(configuration: configuration)
        defer { server.stop() }
        var waited = 0
        while try pending() != 0, waited < 600 { usleep(50_000); waited += 1 }
        #expect(try pending() == 0)
        api = API(base: "http://127.0.0.1:\(server.port)", token: token)
        sheet = EditingClient(api, id)
        #expect(try sheet.cells()["B\(rows)"]?["value"] as? Double == total(first: 8, through: rows))
    }
}
