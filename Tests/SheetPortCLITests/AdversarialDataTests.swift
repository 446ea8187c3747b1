import Foundation
import Testing
@testable import SheetPortServer
import SheetPortTestSupport
import SheetPortClient

/// Issue 12's data boundaries that only a `sheetport serve` process shows: its standard error
/// failing, and the leftovers of a killed run.
@Suite(.serialized) struct AdversarialDataTests {
    /// A server whose standard error is a closed pipe (EPIPE) or /dev/full (ENOSPC) survives its 500s; a 500's body names no
    /// path and no SQL, only an incident id; a failed job likewise.
    @Test(arguments: ["closed pipe", "/dev/full"])
    func internalErrorsSurviveAFailingLogAndSayNothingInternal(_ standardError: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let process = Process()
        process.executableURL = Project.executable
        process.arguments = ["serve", "--data", data, "--listen", "127.0.0.1:0"]
        let output = Pipe(), log = Pipe()
        process.standardOutput = output
        let full = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        defer { try? full.close() }
        process.standardError = standardError == "/dev/full" ? full : log // every write fails with ENOSPC
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
        if standardError == "closed pipe" {
            try log.fileHandleForReading.close() // every write to stderr now fails with EPIPE
            // No reader is left: the server holds only the write end (its stderr), this process none.
            let stderrPipe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process.processIdentifier)/fd/2")
            let serverFDs = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd")
            #expect(stderrPipe.hasPrefix("pipe:") && serverFDs.filter {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process.processIdentifier)/fd/\($0)")) == stderrPipe
            }.count == 1)
            let ownFDs = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
            #expect(!ownFDs.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == stderrPipe })
        }
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        let base = try #require(line.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }, "\(line)")
        let token = String(decoding: try runSheetport(["token", "issue", "--data", data, "--subject", "ann"]).stdout, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let api = API(base: base, token: token)
        let sheet = try api.importSheet(try makeStyledWorkbook(in: folder))

        // A sealed row block damaged in the database, and the exports folder replaced by a file.
        let database = try Database(path: data + "/sheetport.db")
        try database.query("UPDATE row_blocks SET data = ? WHERE sheet_id = ?", [.blob([1, 2, 3]), .text(sheet)])
        try FileManager.default.removeItem(atPath: data + "/exports")
        #expect(FileManager.default.createFile(atPath: data + "/exports", contents: Data()))
        var incidents: Set<String> = []
        for _ in 0..<3 {
            for path in ["/api/sheets/\(sheet)/rows", "/api/sheets/\(sheet)/export.xlsx"] {
                let response = try api.call("GET", path)
                #expect(response.status == 500, "\(path): \(response.status)")
                let error = response.object["error"] as? [String: Any] ?? [:]
                #expect(error["code"] as? String == "internal")
                let incident = try #require(error["incident"] as? String, "\(response.text)")
                incidents.insert(incident)
                for secret in [folder.path, data, "sqlite", "SQLite", "exports", "row block", "/"] {
                    let message: String = error["message"] as? String ?? ""
                    #expect(!message.contains(secret), "\(response.text)")
                }
                #expect(!response.text.contains(folder.path))
            }
        }
        #expect(incidents.count == 6)
        #expect(process.isRunning)
        #expect(try api.call("GET", "/api/limits").status == 200)

        // A job that fails inside the server (rows out of order collide in the store).
        let unordered = folder.appendingPathComponent("unordered.xlsx").path
        try makeRawWorkbook(at: unordered, sheetName: "U", rows: [1, 5000, 2])
        let failed = try api.importWorkbook(unordered)
        #expect(failed["status"] as? String == "failed", "\(failed)")
        let error = failed["error"] as? [String: Any] ?? [:]
        #expect(error["code"] as? String == "internal" && error["incident"] is String, "\(failed)")
        let failedText = String(decoding: try JSONSerialization.data(withJSONObject: failed), as: UTF8.self)
        for secret in [folder.path, "SQLite", "UNIQUE", "constraint"] { #expect(!failedText.contains(secret), "\(failedText)") }
        #expect(process.isRunning)
    }

    /// A restart sweeps every leftover of a killed run, directories included; a failed import
    /// leaves no sheet, visible or hidden, once it reports failed.
    @Test(.enabled(if: !PostgresCluster.runsServerSuite, "a SQLite trigger holds the sheet's delete"))
    func leftoversAreSweptAndFailedJobsLeaveNoSheet() throws {
        let fixture = try ServeProcessFixture()
        defer { fixture.close() }
        let (folder, server) = (fixture.folder, fixture.server)
        server.kill9()
        let exports = server.data + "/exports", staging = server.data + "/staging"
        for directory in [exports + "/0123.xlsx.d/inner", staging + "/abcd.sealed.d"] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: directory + "/block", contents: Data(repeating: 7, count: 4096)))
        }
        #expect(FileManager.default.createFile(atPath: exports + "/leftover.xlsx", contents: Data(repeating: 1, count: 100)))
        #expect(FileManager.default.createFile(atPath: exports + "/leftover.xlsx.Xa1b2c", contents: Data(repeating: 1, count: 100)))
        try FileManager.default.createSymbolicLink(atPath: exports + "/link", withDestinationPath: folder.path)
        try server.restart()
        #expect(try FileManager.default.contentsOfDirectory(atPath: exports).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: staging).isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("server.log").path)) // not followed
        let api = server.api(fixture.api.token) // the restarted server has another port

        let database = try server.store()
        for attempt in 0..<3 {
            let unordered = folder.appendingPathComponent("unordered\(attempt).xlsx").path
            try makeRawWorkbook(at: unordered, sheetName: "U", rows: [1, 200, 2])
            let job = try api.importWorkbook(unordered)
            #expect(job["status"] as? String == "failed", "\(job)")
            #expect(try database.query("SELECT count(*) FROM sheets").first?.first?.int == 0)
            #expect(try database.query("SELECT count(*) FROM row_blocks").first?.first?.int == 0)
        }
        #expect(isEmptySoon(staging))

        // While the sheet cannot be deleted (a trigger refuses), the job does not end: the
        // removal is retried, and once it goes through the job fails with nothing left.
        try database.execute("""
            CREATE TABLE hold (x INTEGER); INSERT INTO hold VALUES (1);
            CREATE TRIGGER hold_sheets BEFORE DELETE ON sheets WHEN (SELECT count(*) FROM hold) > 0
            BEGIN SELECT RAISE(ABORT, 'held by the test'); END;
            """)
        let held = folder.appendingPathComponent("held.xlsx").path
        try makeRawWorkbook(at: held, sheetName: "U", rows: [1, 200, 2])
        let heldID = try #require(API.job(try api.upload(held).body)?["id"] as? String)
        var sawHidden = false
        for _ in 0..<100 where !sawHidden { // up to 10 s for the job to fail and its removal to be refused
            sawHidden = try database.query("SELECT count(*) FROM sheets WHERE visible = 0").first?.first?.int == 1
            if !sawHidden { usleep(100_000) }
        }
        #expect(sawHidden)
        usleep(1_500_000) // a few retries
        #expect(try api.wait(for: heldID, timeout: 0)["status"] as? String == "running")
        try database.execute("DELETE FROM hold")
        #expect(try api.wait(for: heldID, timeout: 10)["status"] as? String == "failed")
        #expect(try database.query("SELECT count(*) FROM sheets").first?.first?.int == 0)
        try database.execute("DROP TRIGGER hold_sheets; DROP TABLE hold")
    }
}
