import Foundation
import Testing
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport

/// The shared PostgreSQL database under faults (issue 23): an instance frozen inside a
/// transaction, the database restarting, an instance's connection killed mid-import. Real
/// `sheetport serve` instances on the throwaway cluster of Scripts/postgres.sh.
@Suite(.serialized, .enabled(if: PostgresCluster.url != nil, PostgresCluster.skipReason))
struct SharedDatabaseFaultTests {
    /// The other sessions on the test's database (the one instance running while this is
    /// asked): backend pid and state.
    private func backends(_ database: Database) throws -> [(pid: Int, state: String)] {
        try database.query("SELECT pid, COALESCE(state, '') FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()", [])
            .map { ($0[0].int ?? 0, $0[1].string ?? "") }
    }

    /// Uploads a workbook of `rows` rows through `server` and waits until the job has stored
    /// some rows; its id.
    private func startImport(rows: Int, through server: TestServer, token: String, folder: URL) throws -> String {
        let upload = try server.api(token).upload(try makeLargeWorkbook(rows: rows, in: folder))
        try #require(upload.status == 202, "\(upload.text)")
        let id = try #require(API.job(upload.body)?["id"] as? String)
        var running = false
        for _ in 0..<3000 where !running {
            let job = try #require(API.job(try server.api(token).call("GET", "/api/imports/\(id)").body))
            running = ((job["progress"] as? [String: Any])?["rows"] as? Int ?? 0) > 0
            if !running { usleep(10_000) }
        }
        try #require(running, "the import never stored a row")
        return id
    }

    /// Freezes `server` (SIGSTOP) at a moment one of its sessions is inside a transaction
    /// ("idle in transaction" as PostgreSQL sees a frozen client): the import worker's batch.
    /// Tries until it catches one (each miss thawed at once); whether it did.
    private func freezeInsideATransaction(_ server: TestServer, _ database: Database) throws -> Bool {
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
        let a = try deployment.start("a", ["--lease", String(lease), "--workers", "1"])
        let token = try deployment.token("ann \u{1F9CA}")
        let rows = 60_000
        let database = try deployment.database()
        let id = try startImport(rows: rows, through: a, token: token, folder: deployment.folder)
        let firstClaim = try database.query("SELECT claim FROM jobs WHERE id = ?", [.text(id)]).first?.first?.string
        try #require(try freezeInsideATransaction(a, database), "never caught the worker inside a transaction")
        let frozen = Date()
        defer { kill(a.pid, SIGCONT) }
        let b = try deployment.start("b", ["--lease", String(lease)])
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
        let a = try deployment.start("a", ["--lease", "3", "--workers", "1"])
        let token = try deployment.token("ann")
        let database = try deployment.database()
        let id = try startImport(rows: 60_000, through: a, token: token, folder: deployment.folder)
        try #require(try freezeInsideATransaction(a, database), "never caught the worker inside a transaction")
        defer { kill(a.pid, SIGCONT) }
        let b = try deployment.start("b", ["--lease", "3"])
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

    /// Runs a bash script (`$1` is `argument`); its exit status and output. Spawned and
    /// waited for directly, its output through a file: a PostgreSQL server it starts keeps
    /// every descriptor it inherits open, Foundation's `Process` watches one of its own to see
    /// the child end, and a pipe would never reach its end either.
    private func bash(_ script: String, _ argument: String) throws -> (status: Int32, output: String) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("sheetport-bash-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let arguments = ["/bin/bash", "-c", script + " >\"$0.log\" 2>&1 </dev/null", log.deletingPathExtension().path, argument]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/bash", nil, nil, &argv, environ)
        try #require(spawned == 0, "cannot start bash")
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exit, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    /// The project's Scripts/postgres.sh.
    private var postgresScript: String { Project.root.appendingPathComponent("Scripts/postgres.sh").path }

    /// After PostgreSQL restarts (`pg_ctl restart -m fast`, which ends every session, so every
    /// pooled connection of both instances is broken), 12 requests through each instance,
    /// reads and writes, all succeed, and a new event stream stays open. The cluster is one of
    /// the test's own (Scripts/postgres.sh), so restarting it disturbs no other test. Before,
    /// each broken pooled connection failed its next request with 500.
    @Test func requestsSucceedOnceTheDatabaseIsBackAfterARestart() throws {
        let started = try bash(#""$1" start"#, postgresScript)
        try #require(started.status == 0, "\(started.output)")
        func value(_ name: String) -> String? {
            started.output.split(separator: "\n").first { $0.contains(name + "=") }
                .map { String($0.split(separator: "=", maxSplits: 1)[1]).trimmingCharacters(in: CharacterSet(charactersIn: "'")) }
        }
        let clusterFolder = try #require(value("SHEETPORT_PG_DIR"), "\(started.output)")
        let url = try #require(value("SHEETPORT_TEST_POSTGRES"), "\(started.output)")
        defer { _ = try? bash(#""$0" stop "$1""#.replacingOccurrences(of: "$0", with: postgresScript), clusterFolder) }
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyFile = folder.appendingPathComponent("seal.key").path
        var servers: [TestServer] = []
        defer { servers.forEach { $0.stop() } }
        for name in ["a", "b"] {
            let instance = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: instance, withIntermediateDirectories: true)
            servers.append(try TestServer(folder: instance, arguments: ["--database", url, "--key-file", keyFile, "--threads", "4"]))
        }
        let issued = try runSheetport(["token", "issue", "--database", url, "--key-file", keyFile, "--subject", "ann \u{1F501}"])
        try #require(issued.status == 0, "\(issued.stderr)")
        let token = String(decoding: issued.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let sheet = try servers[0].api(token).importSheet(try makeStyledWorkbook(in: folder, rows: 30))
        // Every pooled connection of both instances in use once.
        for server in servers { for _ in 0..<8 { #expect(try server.api(token).call("GET", "/api/sheets").status == 200) } }

        let restart = try bash("""
            bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
            if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$bin/pg_ctl" -D "$1/data" -w -t 60 -m fast restart
            else "$bin/pg_ctl" -D "$1/data" -w -t 60 -m fast restart; fi
            """, clusterFolder)
        try #require(restart.status == 0, "\(restart.output)")

        var failures: [String] = []
        for (index, server) in servers.enumerated() {
            let api = server.api(token)
            for request in 0..<12 {
                let (method, path, json): (String, String, [String: Any]?) = switch request % 4 {
                case 0: ("GET", "/api/sheets", nil)
                case 1: ("GET", "/api/sheets/\(sheet)/rows?start=1&count=10", nil)
                case 2: ("POST", "/api/sheets/\(sheet)/comments", ["ref": "A\(request + 1)", "text": "after the restart \(index).\(request) \u{202F}"])
                default: ("GET", "/api/sheets/\(sheet)", nil)
                }
                let answer = try api.call(method, path, json: json, client: HTTPClient(timeout: 30))
                if !(200..<300).contains(answer.status) { failures.append("\(index) \(method) \(path): \(answer.status) \(answer.text.prefix(200))") }
            }
        }
        #expect(failures.isEmpty, "\(failures)")
        // A new event stream opens and stays open (it ended at once on a broken connection).
        let stream = try RawConnection(port: RawConnection.port(of: servers[1].base), timeout: 3)
        defer { stream.close() }
        _ = stream.send("GET /api/sheets/\(sheet)/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nAccept: text/event-stream\r\n\r\n")
        let opened = RawAnswer(bytes: stream.receiveAll(limit: 64))
        #expect(opened.status == 200, "\(opened.text)")
        usleep(1_500_000)
        // Whatever is there is read; then the stream must still be open (no end of stream).
        var probe = [UInt8](repeating: 0, count: 4096)
        var ended = false
        while true {
            let count = recv(stream.descriptor, &probe, probe.count, Int32(MSG_DONTWAIT))
            if count > 0 { continue }
            ended = count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
            break
        }
        #expect(!ended, "the event stream ended at once")
        let comments = try servers[0].api(token).call("GET", "/api/sheets/\(sheet)/comments").text
        #expect(comments.components(separatedBy: "after the restart").count - 1 == 6, "\(comments.prefix(400))")
    }

    /// The importing instance's database session is ended (`pg_terminate_backend`) while it
    /// is inside one of its import's transactions: the job still succeeds, run again from its
    /// sealed staged upload, with one complete sheet and nothing left behind. Before, the job
    /// failed (`internal`) although its upload was intact.
    @Test func anImportSurvivesItsConnectionBeingKilled() throws {
        let deployment = try SharedDeployment()
        defer { deployment.close() }
        let a = try deployment.start("a", ["--workers", "1"])
        let token = try deployment.token("ann \u{2620}")
        let database = try deployment.database()
        let rows = 60_000
        let id = try startImport(rows: rows, through: a, token: token, folder: deployment.folder)
        var killed = 0
        for _ in 0..<2000 where killed == 0 {
            killed = try database.query("""
                SELECT COUNT(*) FROM (SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid() AND state IN ('idle in transaction', 'active')) AS t WHERE ended
                """, []).first?.first?.int ?? 0
            if killed == 0 { usleep(2_000) }
        }
        try #require(killed > 0, "never caught the import inside a statement or a transaction")
        let job = try a.api(token).wait(for: id, timeout: 300)
        #expect(job["status"] as? String == "succeeded", "\(job)")
        let sheets = try database.query("SELECT rows, visible FROM sheets WHERE job_id = ?", [.text(id)])
        #expect(sheets.count == 1 && sheets.first?[0].int == rows && sheets.first?[1].int == 1, "\(sheets)")
        #expect(try database.query("SELECT COUNT(*) FROM sheets WHERE visible = 0").first?.first?.int == 0)
        #expect(try database.query("SELECT COUNT(*) FROM staged_uploads").first?.first?.int == 0)
        let attempts = try database.query("SELECT attempts FROM jobs WHERE id = ?", [.text(id)]).first?.first?.int ?? 0
        print("import whose connection was killed: \(job["status"] ?? "?") after \(attempts) tries")
        #expect((1...ImportWorker.maxAttempts).contains(attempts))
    }
}
