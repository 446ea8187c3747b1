import Foundation
import Testing
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert

/// The shared PostgreSQL database under faults (issue 23): the database restarting, an
/// instance's connection killed mid-import. Real server instances on the throwaway cluster of
/// Scripts/postgres.sh (an instance frozen by SIGSTOP: SheetPortCLITests' `SharedDatabaseFaultTests`).
@Suite(.serialized, .enabled(if: PostgresCluster.url != nil, PostgresCluster.skipReason))
struct SharedDatabaseFaultTests {
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
            servers.append(try TestServer(folder: instance) { ($0.databaseURL, $0.keyFile, $0.threads) = (url, keyFile, 4) })
        }
        let token = try Tokens.issue(subject: "ann \u{1F501}", in: StoreLocation.postgres(url: url).connect())
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
        let a = try deployment.start("a") { $0.workers = 1 }
        let token = try deployment.token("ann \u{2620}")
        let database = try deployment.database()
        let rows = 60_000
        let id = try startImport(rows: rows, through: a.api(token), folder: deployment.folder)
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
