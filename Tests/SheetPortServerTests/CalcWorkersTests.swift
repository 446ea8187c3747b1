import Foundation
import Testing
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport

/// Issue 35, attack 4: a long write runs on a calculation worker, not on the polling thread
/// that owns its connection, so other users' small reads are answered meanwhile; a write past
/// `serve --calc-timeout` is refused whole (422 `calc-timeout`, nothing stored), while undo and
/// restore never are.
@Suite(.serialized) struct CalcWorkersTests {
    /// Values the formulas count over (A1:A`dataRows`).
    static let dataRows = 2_000
    /// Formulas of a long write: each counts over every value (debug builds: a few seconds).
    static let formulas = 600

    /// A1:A`dataRows` holding 1...`dataRows`.
    static func data() -> [(String, String)] { (1...dataRows).map { ("A\($0)", String($0)) } }

    /// C1:C`formulas`, each `=SUMPRODUCT(--($A$1:$A$N>ROW()))` (no criteria index makes it quick): C`r` is `dataRows - r` while A holds 1...N.
    static func longWrite() -> [(String, String)] {
        (1...formulas).map { ("C\($0)", "=SUMPRODUCT(--($A$1:$A$\(dataRows)>ROW()))") }
    }

    /// Ann's sheet "A" holding `data()` and bob's sheet "B" holding `other`.
    static func twoSheets(_ fixture: ServerFixture, other inputs: KeyValuePairs<String, String>) throws -> (written: EditingClient, other: EditingClient) {
        let bob = fixture.server.api(try fixture.server.token("bob"))
        let written = EditingClient(fixture.api, try EditingClient.create(fixture.api, name: "A"))
        let other = EditingClient(bob, try EditingClient.create(bob, name: "B"))
        _ = try written.write(data())
        _ = try other.write(inputs)
        return (written, other)
    }

    /// The long write's answer: 200 with its formulas computed on `data()`, the sheet one
    /// version past `before`.
    static func expectLongWriteAnswered(_ answer: HTTPResponse?, _ written: EditingClient, after before: Int) throws {
        let answer = try #require(answer)
        #expect(answer.status == 200, "\(answer.text)")
        let changed = EditingClient.changed(try EditingClient.object(answer))
        #expect(number(changed["C1"]) == Double(dataRows - 1) && number(changed["C\(formulas)"]) == Double(dataRows - formulas))
        #expect(try version(written.api, written.sheet) == before + 1)
    }

    /// Sends the long write through `client` from a thread of its own and returns once it is on
    /// a worker of `server` (queued or running); `ended` gets `"write"` when it is answered.
    static func startLongWrite(_ client: EditingClient, on server: TestServer, ended: LockedBox<[String]>) throws
        -> (answer: LockedBox<HTTPResponse?>, finished: DispatchSemaphore) {
        let answer = LockedBox<HTTPResponse?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let inputs = longWrite()
        let running = try #require(server.server)
        waitForIdleWorkers(running)
        Thread.detachNewThread {
            answer.value = try? client.post("cells", ["cells": inputs.map { ["ref": $0.0, "input": $0.1] }])
            ended.update { $0.append("write") }
            finished.signal()
        }
        let bound = Date().addingTimeInterval(60)
        while running.context.writers.load == 0 && ended.value.isEmpty && Date() < bound { usleep(1_000) }
        return (answer, finished)
    }

    /// Waits (60 s at most) until no job waits or runs on `server`'s workers. A worker counts its
    /// job until after the answer is sent, so a test that counts queued jobs right after a write
    /// was answered could count that write's job, and send the next request too early.
    static func waitForIdleWorkers(_ server: SheetServer) {
        let bound = Date().addingTimeInterval(60)
        while server.context.writers.load > 0 && Date() < bound { usleep(500) }
    }

    static func number(_ cell: [String: Any]?) -> Double? { cell?["value"] as? Double }

    static func version(_ api: API, _ sheet: String) throws -> Int {
        try #require(try api.object("/api/sheets/\(sheet)")["version"] as? Int)
    }

    /// Another user's small reads of another sheet, and reads of the written sheet, are all
    /// answered while a long write computes (the order they end in, not a time budget), the
    /// latter from the last answered version; the write then answers right.
    @Test func smallReadsAreAnsweredWhileALongWriteComputes() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let (written, other) = try Self.twoSheets(fixture, other: ["A1": "21", "B1": "=A1*2"])
        let ann = fixture.api
        let before = try Self.version(ann, written.sheet)

        let ended = LockedBox<[String]>([])
        let (writeAnswer, finished) = try Self.startLongWrite(written, on: fixture.server, ended: ended)
        var readFailures: [String] = []
        for index in 0..<12 {
            // Each on a connection of its own, as separate users' requests are.
            let rows = try other.api.call("GET", "/api/sheets/\(other.sheet)/rows?start=1&count=10")
            let cells = try other.api.call("GET", "/api/sheets/\(other.sheet)")
            let mine = try ann.call("GET", "/api/sheets/\(written.sheet)/rows?start=1&count=5")
            for (name, response) in [("B rows", rows), ("B sheet", cells), ("A rows", mine)] where response.status != 200 {
                readFailures.append("\(index) \(name): \(response.status)")
            }
            // Sheet A read while the write computes: the last answered version, no C cell yet.
            if let window = try? EditingClient.object(mine), ended.value.isEmpty {
                let refs = (window["rows"] as? [[String: Any]] ?? []).flatMap { ($0["cells"] as? [[String: Any]] ?? []).compactMap { $0["ref"] as? String } }
                if refs.contains(where: { $0.hasPrefix("C") }) { readFailures.append("\(index): A read shows the unanswered write: \(refs)") }
            }
            ended.update { $0.append("read \(index)") }
        }
        finished.wait()
        #expect(readFailures.isEmpty, "\(readFailures)")
        // Every read ended before the write did.
        #expect(ended.value.last == "write" && ended.value.count == 13, "\(ended.value)")
        try Self.expectLongWriteAnswered(writeAnswer.value, written, after: before)
    }

    /// Another user's small writes to another sheet are all answered (200) while a long write
    /// computes, each before it ends, their versions in order: the long write computes before
    /// its transaction opens, so it holds no database lock (SQLite's is the whole file's, and
    /// these writes waited for it up to the busy timeout, then failed with 500).
    @Test func otherUsersSmallWritesAreAnsweredWhileALongWriteComputes() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let (written, other) = try Self.twoSheets(fixture, other: ["B1": "=A1*2"])
        let ann = fixture.api
        let before = try Self.version(ann, written.sheet)

        let ended = LockedBox<[String]>([])
        let (writeAnswer, finished) = try Self.startLongWrite(written, on: fixture.server, ended: ended)
        var failures: [String] = []
        var versions: [Int] = []
        for index in 1...12 {
            let answer = try other.post("cells", ["cells": [["ref": "A1", "input": String(index)]]])
            if answer.status == 200, let object = try? EditingClient.object(answer) {
                versions.append(object["version"] as? Int ?? 0)
                if Self.number(EditingClient.changed(object)["B1"]) != Double(2 * index) { failures.append("\(index): B1 \(answer.text)") }
            } else {
                failures.append("\(index): \(answer.status) \(answer.text.prefix(200))")
            }
            ended.update { $0.append("small write \(index)") }
        }
        finished.wait()
        #expect(failures.isEmpty, "\(failures)")
        #expect(versions == versions.sorted() && Set(versions).count == 12 && versions.last! - versions.first! == 11, "\(versions)")
        // Every small write ended before the long one did.
        #expect(ended.value.last == "write" && ended.value.count == 13, "\(ended.value)")
        try Self.expectLongWriteAnswered(writeAnswer.value, written, after: before)
        #expect(Self.number(try other.cells()["B1"]) == 24)
    }

    /// The timeout of the timed servers below: a long write (seconds in a debug build) passes it,
    /// a small one stays well within it even on a loaded machine.
    static let timeout = 0.5

    /// A server on the store of `first` (stopped now) whose writes are refused past `timeout`
    /// seconds, and a session of ann's on it: what a test writes before runs under the default.
    static func timed(after first: ServerFixture) throws -> (server: TestServer, api: API) {
        first.server.stop()
        let server = try TestServer(folder: first.folder) {
            $0 = first.server.configuration
            $0.calcTimeout = timeout
        }
        return (server, server.api(try server.token("ann")))
    }

    /// A write past a small `--calc-timeout` is 422 `calc-timeout`: nothing of it stored, the
    /// version unchanged; the sheet's next small write computes right (the engine the refused
    /// write left is not the one used).
    @Test func aWritePastTheTimeoutIsRefusedWhole() throws {
        let first = try ServerFixture()
        defer { first.close() }
        let id = try EditingClient.create(first.api)
        _ = try EditingClient(first.api, id).write(Self.data())
        _ = try EditingClient(first.api, id).write(["E1": "=SUM(A1:A3)"])
        let (server, api) = try Self.timed(after: first)
        defer { server.stop() }
        let sheet = EditingClient(api, id)
        let before = try Self.version(api, id)
        let refused = try sheet.post("cells", ["cells": (Self.longWrite() + [("A1", "100")]).map { ["ref": $0.0, "input": $0.1] }])
        #expect(refused.status == 422 && EditingClient.code(refused) == "calc-timeout", "\(refused.status) \(refused.text)")
        #expect(refused.text.contains("0.5 s"), "\(refused.text)")
        #expect(try Self.version(api, id) == before)
        let cells = try sheet.cells()
        #expect(cells["C1"] == nil && Self.number(cells["A1"]) == 1 && Self.number(cells["E1"]) == 6, "\(cells["C1"] ?? [:]) \(cells["A1"] ?? [:])")
        // The next small write: stored, and computed on the stored cells (A1 is still 1).
        let next = EditingClient.changed(try sheet.write(["A2": "10", "E2": "=E1+A3"]))
        #expect(Self.number(next["E1"]) == 14 && Self.number(next["E2"]) == 17, "\(next)")
        #expect(try Self.version(api, id) == before + 1)
        #expect(try sheet.cells()["C1"] == nil)
    }

    /// Undo and restore are never refused for time: formulas stored under a large timeout,
    /// then a server on the same store with a timeout the recalculation passes refuses a write
    /// of a value they all count, but undoes and restores such writes.
    @Test func undoAndRestoreAreNeverRefusedForTime() throws {
        let first = try ServerFixture()
        defer { first.close() }
        let sheet = EditingClient(first.api, try EditingClient.create(first.api))
        _ = try sheet.write(Self.data())
        _ = try sheet.write(Self.longWrite())
        let changedA1 = try Self.version(first.api, sheet.sheet) + 1
        _ = try sheet.write(["A1": "5000"]) // every formula counts it: C1 is 2000 now
        let (second, api) = try Self.timed(after: first)
        defer { second.stop() }
        let again = EditingClient(api, sheet.sheet)
        // Its first write builds this instance's graph of the sheet (not timed), then recalculates every formula (timed).
        let version = try Self.version(api, sheet.sheet)
        let refused = try again.post("cells", ["cells": [["ref": "A2", "input": "6000"]]])
        #expect(refused.status == 422 && EditingClient.code(refused) == "calc-timeout", "\(refused.status) \(refused.text)")
        #expect(try Self.version(api, sheet.sheet) == version)

        // The undo recomputes every formula, for longer than the timeout, and is answered.
        let start = Date()
        let undone = try again.post("undo", [:])
        let took = Date().timeIntervalSince(start)
        #expect(undone.status == 200, "\(undone.text)")
        #expect(took > Self.timeout, "the undo took \(took) s: too short to show it is not timed")
        var cells = try again.cells()
        #expect(Self.number(cells["A1"]) == 1 && Self.number(cells["C1"]) == Double(Self.dataRows - 1), "\(cells["C1"] ?? [:])")
        // Restoring A1's input of the write undone recomputes them again: answered too.
        let restored = try again.post("cells/A1/restore", ["version": changedA1])
        #expect(restored.status == 200, "\(restored.text)")
        cells = try again.cells()
        #expect(Self.number(cells["A1"]) == 5000 && Self.number(cells["C1"]) == Double(Self.dataRows), "\(cells["C1"] ?? [:])")
        #expect(try Self.version(api, sheet.sheet) == version + 2)
    }

    /// A sheet's writes keep their order on the workers: several sent at once, each from its
    /// own thread in a known order, are answered with versions in that order.
    @Test func aSheetsWritesRunInTheOrderTheyCame() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        _ = try sheet.write(Self.data())
        let server = try #require(fixture.server.server)
        Self.waitForIdleWorkers(server)
        let versions = LockedBox<[Int: Int]>([:])
        let group = DispatchGroup()
        // The long write first holds the sheet; the short ones queue behind it, one by one.
        let inputs = Self.longWrite()
        group.enter()
        Thread.detachNewThread {
            if let answer = try? sheet.post("cells", ["cells": inputs.map { ["ref": $0.0, "input": $0.1] }]),
               let version = (try? EditingClient.object(answer))?["version"] as? Int { versions.update { $0[0] = version } }
            group.leave()
        }
        for index in 1...5 {
            let bound = Date().addingTimeInterval(60)
            while server.context.writers.load < index && Date() < bound { usleep(500) }
            group.enter()
            Thread.detachNewThread {
                if let answer = try? sheet.post("cells", ["cells": [["ref": "F1", "input": String(index)]]]),
                   let version = (try? EditingClient.object(answer))?["version"] as? Int { versions.update { $0[index] = version } }
                group.leave()
            }
        }
        group.wait()
        let answered = versions.value
        #expect(answered.count == 6 && (0...5).map { answered[$0] ?? 0 } == (0...5).map { answered[0]! + $0 }, "\(answered)")
        #expect(Self.number(try sheet.cells()["F1"]) == 5)
    }
}
