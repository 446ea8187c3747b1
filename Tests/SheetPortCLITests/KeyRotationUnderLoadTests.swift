import Foundation
import Testing
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport

/// Key rotation while the server is serving (issue 23): a client imports, reads windows of rows
/// and exports in a loop while `key rotate` seals the data key under a new key file, the running
/// server reloads it on SIGHUP and `key retire` drops the old one. No request fails, and every
/// sheet (those from before and those imported during the rotation) reads back the same
/// afterwards, also after a restart with the new key alone. On SQLite here, and on PostgreSQL in
/// Scripts/test.sh's second run of the server suite (SHEETPORT_TEST_STORE=postgres).
@Suite(.serialized) struct KeyRotationUnderLoadTests {
    /// What the client saw: every failed request (method, path, status) and each sheet's rows.
    final class Load: @unchecked Sendable {
        private let lock = NSLock()
        private var failures: [String] = []
        private var sheets: [String: String] = [:]
        private var rounds = 0
        private var stopped = false

        var isStopped: Bool { lock.withLock { stopped } }
        func stop() { lock.withLock { stopped = true } }
        func fail(_ what: String) { lock.withLock { failures.append(what) } }
        func record(sheet: String, rows: String) { lock.withLock { sheets[sheet] = rows; rounds += 1 } }
        var snapshot: (failures: [String], sheets: [String: String], rounds: Int) { lock.withLock { (failures, sheets, rounds) } }
    }

    /// One round: an import (to its end), a window of rows of every sheet so far, an export.
    static func round(_ api: API, workbook: String, load: Load, known: [String: String]) {
        do {
            let upload = try api.upload(workbook, filename: "rotation «Q1» ünïcode.xlsx")
            guard upload.status == 202, let id = API.job(upload.body)?["id"] as? String else {
                return load.fail("POST /api/imports: \(upload.status) \(upload.text.prefix(200))")
            }
            let job = try api.wait(for: id)
            guard job["status"] as? String == "succeeded",
                  let sheet = ((job["result"] as? [String: Any])?["sheet"] as? [String: Any])?["id"] as? String else {
                return load.fail("import \(id): \(job)")
            }
            let rows = try api.call("GET", "/api/sheets/\(sheet)/rows")
            guard rows.status == 200 else { return load.fail("GET rows of \(sheet): \(rows.status) \(rows.text.prefix(200))") }
            load.record(sheet: sheet, rows: rows.text)
            for (old, text) in known {
                let window = try api.call("GET", "/api/sheets/\(old)/rows?start=5&count=20")
                if window.status != 200 { load.fail("GET rows window of \(old): \(window.status) \(window.text.prefix(200))") }
                let whole = try api.call("GET", "/api/sheets/\(old)/rows")
                if whole.status != 200 || whole.text != text { load.fail("GET rows of \(old): \(whole.status), \(whole.text == text ? "same" : "changed")") }
            }
            let export = try api.call("GET", "/api/sheets/\(sheet)/export.xlsx")
            if export.status != 200 || export.body.count < 100 { load.fail("GET export of \(sheet): \(export.status) \(export.body.count) bytes") }
        } catch {
            load.fail("request failed: \(error)")
        }
    }

    @Test func noRequestFailsWhileTheKeyIsRotatedAndRetired() throws {
        let fixture = try ServeProcessFixture()
        defer { fixture.close() }
        let server = fixture.server
        var known: [String: String] = [:]
        for rows in [40, 700] {
            let sheet = try fixture.api.importSheet(try makeStyledWorkbook(in: fixture.folder, name: "before-\(rows).xlsx", rows: rows))
            known[sheet] = try fixture.api.call("GET", "/api/sheets/\(sheet)/rows").text
        }
        let workbook = try makeStyledWorkbook(in: fixture.folder, name: "during.xlsx", rows: 300)
        let keyPath = SealKeyTests.keyPath(server)
        let oldKey = try #require(try KeyFile.load(at: keyPath))
        let oldCopy = fixture.folder.appendingPathComponent("old.key").path
        _ = try SealKeyTests.writeKey(oldCopy, oldKey)
        let newPath = fixture.folder.appendingPathComponent("new.key").path

        let load = Load()
        nonisolated(unsafe) let api = fixture.api
        let before = known
        let client = Thread { while !load.isStopped { Self.round(api, workbook: workbook, load: load, known: before) } }
        client.start()
        defer { load.stop() }
        #expect(eventually(within: 60) { load.snapshot.rounds >= 2 }, "the load never ran")

        // Rotate while it runs; the server reloads the new key file on SIGHUP; the old is retired.
        let rotated = try runWithDeadline(["key", "rotate"] + Array(server.storeArguments.prefix(2)) + ["--old", keyPath, "--new", newPath], seconds: 60)
        try #require(rotated.status == 0, "\(rotated.stderr)")
        let newKey = try #require(try KeyFile.load(at: newPath))
        let atRotation = load.snapshot.rounds
        #expect(eventually(within: 60) { load.snapshot.rounds >= atRotation + 2 }, "the load stalled after the rotation")
        _ = try SealKeyTests.writeKey(keyPath, newKey)
        kill(server.pid, SIGHUP)
        let log = fixture.folder.appendingPathComponent("server.log").path
        #expect(eventually(within: 10) {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("sealing key reloaded: fingerprint \(KeyCheck.fingerprint(of: newKey))")
        })
        let atReload = load.snapshot.rounds
        #expect(eventually(within: 60) { load.snapshot.rounds >= atReload + 2 }, "the load stalled after the reload")
        let retired = try runWithDeadline(["key", "retire"] + Array(server.storeArguments.prefix(2)) + ["--old", oldCopy], seconds: 60)
        #expect(retired.status == 0, "\(retired.stderr)")
        let atRetire = load.snapshot.rounds
        #expect(eventually(within: 60) { load.snapshot.rounds >= atRetire + 2 }, "the load stalled after the retirement")
        load.stop()
        while !client.isFinished { usleep(20_000) }

        let seen = load.snapshot
        #expect(seen.failures.isEmpty, "\(seen.failures.count) requests failed: \(seen.failures.prefix(10))")
        #expect(seen.rounds >= 8, "only \(seen.rounds) rounds")
        // Every sheet reads back the same: on the running server, and after a restart with the new key alone.
        let everything = known.merging(seen.sheets) { $1 }
        for restarted in [false, true] {
            if restarted {
                server.stop()
                try server.restart()
            }
            let api = server.api(fixture.api.token)
            for (sheet, rows) in everything {
                let now = try api.call("GET", "/api/sheets/\(sheet)/rows")
                #expect(now.status == 200 && now.text == rows, "sheet \(sheet) after the rotation (restarted: \(restarted)): \(now.status)")
                #expect(try api.call("GET", "/api/sheets/\(sheet)/export.xlsx").status == 200)
            }
        }
        #expect(try server.store().recordedKeyCheck() == KeyCheck.value(of: newKey))
    }
}
