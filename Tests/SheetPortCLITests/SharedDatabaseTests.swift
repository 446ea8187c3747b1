import Foundation
import Testing
@testable import SheetPortServer
import SheetPortTestSupport
import SheetPortClient

/// `sheetport serve` instances on one PostgreSQL database (Docs/Reference/CLI.md, "sheetport
/// serve"): one killed mid-import, and hostile `--database` options; skipped, saying so, without
/// the cluster.
@Suite(.serialized, .enabled(if: PostgresCluster.url != nil, PostgresCluster.skipReason))
struct SharedDatabaseTests {
    /// kill -9 of A in the middle of a 60,000-row import: B takes the job over once the lease
    /// runs out and it ends with one complete sheet, no duplicate or missing rows, no staging left.
    @Test func jobOfAKilledInstanceIsTakenOver() throws {
        let deployment = try SharedDeployment()
        defer { deployment.close() }
        let lease = 3.0
        let a = try deployment.startProcess("a", ["--lease", String(lease), "--workers", "1"])
        let token = try deployment.token("ann")
        let rows = 60_000
        let workbook = try makeLargeWorkbook(rows: rows, in: deployment.folder)
        let upload = try a.api(token).upload(workbook)
        try #require(upload.status == 202, "\(upload.text)")
        let id = try #require(API.job(upload.body)?["id"] as? String)

        // Kill A once it has stored some rows (and before it ends).
        var running = false
        for _ in 0..<3000 {
            let job = try #require(API.job(try a.api(token).call("GET", "/api/imports/\(id)").body))
            if job["status"] as? String != "queued" && job["status"] as? String != "running" { break }
            if ((job["progress"] as? [String: Any])?["rows"] as? Int ?? 0) > 0 { running = true; break }
            usleep(10_000)
        }
        try #require(running, "the import ended before it could be interrupted")
        let database = try deployment.database()
        let firstClaim = try database.query("SELECT claim FROM jobs WHERE id = ?", [.text(id)]).first?.first?.string
        a.kill9()
        let killed = Date()

        let b = try deployment.startProcess("b", ["--lease", String(lease)])
        var takenOver: Double?
        for _ in 0..<6000 where takenOver == nil {
            let claim = try database.query("SELECT claim FROM jobs WHERE id = ?", [.text(id)]).first?.first?.string
            if claim != firstClaim { takenOver = Date().timeIntervalSince(killed) } else { usleep(10_000) }
        }
        let takeover = try #require(takenOver)
        #expect(takeover < lease + 5, "taken over after \(takeover) s with a lease of \(lease) s")
        let job = try b.api(token).wait(for: id, timeout: 300)
        #expect(job["status"] as? String == "succeeded", "\(job)")
        print("takeover: \(String(format: "%.2f", takeover)) s after kill -9 (lease \(lease) s); job ended \(String(format: "%.1f", Date().timeIntervalSince(killed))) s after it")

        // One complete sheet: every row once, in order; nothing hidden, no staging left.
        let sheets = try database.query("SELECT id, rows, visible FROM sheets WHERE job_id = ?", [.text(id)])
        #expect(sheets.count == 1 && sheets.first?[2].int == 1, "\(sheets)")
        let sheet = try #require(sheets.first?[0].string)
        #expect(sheets.first?[1].int == rows) // the header row is one of them
        let stored = try database.query("SELECT COUNT(*), COALESCE(SUM(last_row - first_row + 1), 0) FROM row_blocks WHERE sheet_id = ?", [.text(sheet)])
        #expect(stored.first?[0].int == (rows + RowBlock.rowsPerBlock - 1) / RowBlock.rowsPerBlock)
        var seen = 0, next: Int? = 1
        while let start = next, seen <= rows {
            let window = try b.api(token).object("/api/sheets/\(sheet)/rows?start=\(start)&count=5000")
            for row in window["rows"] as? [[String: Any]] ?? [] {
                seen += 1
                #expect(row["row"] as? Int == seen)
                if row["row"] as? Int != seen { break }
            }
            next = window["next"] as? Int
        }
        #expect(seen == rows)
        #expect(try database.query("SELECT COUNT(*) FROM sheets WHERE visible = 0").first?.first?.int == 0)
        #expect(try database.query("SELECT COUNT(*) FROM staged_uploads").first?.first?.int == 0)
        #expect(try database.query("SELECT attempts FROM jobs WHERE id = ?", [.text(id)]).first?.first?.int == 2)
        b.stop()
        #expect(filesUnder(b.data + "/staging").isEmpty)
    }

    /// Refused at the command line: --database without --key-file, a URL with a control
    /// character, a lease out of range; an unreachable database stops the start with exit 2
    /// and a message that does not repeat the password.
    @Test func hostileDatabaseOptions() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("d").path, key = folder.appendingPathComponent("k").path
        let url = try #require(PostgresCluster.url)
        for arguments in [["--database", url],
                          ["--database", url + "\u{1B}[2J", "--key-file", key],
                          ["--database", "mysql://x", "--key-file", key],
                          ["--database", url, "--key-file", key, "--lease", "0"],
                          ["--database", url, "--key-file", key, "--lease", "-5"],
                          ["--database", url, "--key-file", key, "--lease", "nan"]] {
            let result = try runSheetport(["serve", "--data", data, "--listen", "127.0.0.1:0"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("\u{1B}"))
        }
        let unreachable = try runSheetport(["serve", "--data", data, "--listen", "127.0.0.1:0", "--key-file", key,
                                            "--database", "postgresql://ann:hunter2secret@/none?host=\(folder.path)&connect_timeout=2"])
        #expect(unreachable.status != 0)
        #expect(!unreachable.stderr.contains("hunter2secret"), "\(unreachable.stderr)")
        let token = try runSheetport(["token", "issue", "--database", url, "--data", data, "--subject", "ann"])
        #expect(token.status == 2, "\(token.stderr)")
    }
}
