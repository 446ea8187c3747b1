import Foundation
import Testing
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport

/// The shared PostgreSQL database with an instance frozen inside a transaction (SIGSTOP, issue
/// 23): real `sheetport serve` instances on the throwaway cluster of Scripts/postgres.sh.
@Suite(.serialized, .enabled(if: PostgresCluster.url != nil, PostgresCluster.skipReason))
struct SharedDatabaseFaultTests {
    /// The other sessions on the test's database (the one instance running while this is
    /// asked): backend pid and state.
    private func backends(_ database: Database) throws -> [(pid: Int, state: String)] {
        try database.query("SELECT pid, COALESCE(state, '') FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()", [])
            .map { ($0[0].int ?? 0, $0[1].string ?? "") }
    }

    /// Freezes `server` (SIGSTOP) at a moment one of its sessions is inside a transaction
    /// ("idle in transaction" as PostgreSQL sees a frozen client): the import worker's batch.
    /// Tries until it catches one (each miss thawed at once); whether it did.
    private func freezeInsideATransaction(_ server: ServeProcess, _ database: Database) throws -> Bool {
        for _ in 0..<400 {
            kill(server.pid, SIGSTOP)
            usleep(60_000) // a statement in flight ends; the session then waits inside its transaction
            if try backends(database).contains(where: { $0.state == "idle in transaction" }) { return true }
            kill(server.pid, SIGCONT)
            usleep(UInt32.random(in: 5_000...40_000))
        }
        return false
    }

    /// A frozen instance (SIGSTOP inside its import batch's transaction, so PostgreSQL holds
    /// its locks) does not hold its job: another instance takes it over within the lease and
    /// a margin, as for a dead instance (its session ended after half a lease, its locks with
    /// it). Thawed, the frozen one has lost its claim and stops without touching the job: the
    /// job ends once, succeeded, with one complete sheet. Before, the job's row stayed locked
    /// and no one took it over however long the freeze.
    @Test func aFrozenInstancesJobIsTakenOver() throws {
        let deployment = try SharedDeployment()
        defer { deployment.close() }
        let lease = 3.0
        let a = try deployment.startProcess("a", ["--lease", String(lease), "--workers", "1"])
        let token = try deployment.token("ann \u{1F9CA}")
        let rows = 60_000
        let database = try deployment.database()
        let id = try startImport(rows: rows, through: a.api(token), folder: deployment.folder)
        let firstClaim = try database.query("SELECT claim FROM jobs WHERE id = ?", [.text(id)]).first?.first?.string
        try #require(try freezeInsideATransaction(a, database), "never caught the worker inside a transaction")
        let frozen = Date()
        defer { kill(a.pid, SIGCONT) }
        let b = try deployment.startProcess("b", ["--lease", String(lease)])
        var takenOver: Double?
        while takenOver == nil, Date().timeIntervalSince(frozen) < 40 {
            let claim = try database.query("SELECT claim FROM jobs WHERE id = ?", [.text(id)]).first?.first?.string
            if claim != firstClaim { takenOver = Date().timeIntervalSince(frozen) } else { usleep(20_000) }
        }
        print("frozen instance: job taken over \(takenOver.map { String(format: "%.2f s", $0) } ?? "never") after SIGSTOP (lease \(lease) s)")
        let takeover = try #require(takenOver, "no one took the frozen instance's job over")
        #expect(takeover < lease + 5, "taken over after \(takeover) s")
        kill(a.pid, SIGCONT)
        let job = try b.api(token).wait(for: id, timeout: 300)
        #expect(job["status"] as? String == "succeeded", "\(job)")
        usleep(1_000_000) // the thawed worker has had time to do whatever it would
        let sheets = try database.query("SELECT id, rows, visible FROM sheets WHERE job_id = ?", [.text(id)])
        #expect(sheets.count == 1 && sheets.first?[2].int == 1 && sheets.first?[1].int == rows, "\(sheets)")
        let sheet = try #require(sheets.first?[0].string)
        let stored = try database.query("SELECT COUNT(*), COALESCE(SUM(last_row - first_row + 1), 0) FROM row_blocks WHERE sheet_id = ?", [.text(sheet)])
        #expect(stored.first?[0].int == (rows + RowBlock.rowsPerBlock - 1) / RowBlock.rowsPerBlock, "\(stored)")
        #expect(try database.query("SELECT COUNT(*) FROM sheets WHERE visible = 0").first?.first?.int == 0)
        #expect(try database.query("SELECT COUNT(*) FROM staged_uploads").first?.first?.int == 0)
        #expect(try b.api(token).call("GET", "/api/imports/\(id)").status == 200)
        #expect(a.process.isRunning, "the thawed instance died")
        #expect(try a.api(token).call("GET", "/api/sheets").status == 200, "the thawed instance does not serve")
    }

    /// A cancel through another instance of a job whose instance is frozen inside its batch's
    /// transaction answers promptly (a bounded lock wait, the frozen session ended), and the
    /// job ends cancelled; thawed, the frozen instance leaves no sheet or upload behind.
    @Test func aCancelDoesNotWaitOnAFrozenInstance() throws {
        let deployment = try SharedDeployment()
        defer { deployment.close() }
        let a = try deployment.startProcess("a", ["--lease", "3", "--workers", "1"])
        let token = try deployment.token("ann")
        let database = try deployment.database()
        let id = try startImport(rows: 60_000, through: a.api(token), folder: deployment.folder)
        try #require(try freezeInsideATransaction(a, database), "never caught the worker inside a transaction")
        defer { kill(a.pid, SIGCONT) }
        let b = try deployment.startProcess("b", ["--lease", "3"])
        let asked = Date()
        let answer = try b.api(token).call("DELETE", "/api/imports/\(id)", client: HTTPClient(timeout: 60))
        let seconds = Date().timeIntervalSince(asked)
        print("cancel through B while A is frozen in a transaction: \(answer.status) after \(String(format: "%.2f", seconds)) s")
        #expect(answer.status == 200, "\(answer.text)")
        #expect(seconds < 8, "the cancel waited \(seconds) s")
        kill(a.pid, SIGCONT)
        #expect(try b.api(token).wait(for: id)["status"] as? String == "cancelled")
        #expect(eventually(within: 30) { ((try? database.query("SELECT COUNT(*) FROM sheets").first?.first?.int) ?? -1) == 0 }, "a sheet was left")
        #expect(try database.query("SELECT COUNT(*) FROM staged_uploads").first?.first?.int == 0)
    }
}
