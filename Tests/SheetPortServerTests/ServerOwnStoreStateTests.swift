import Foundation
import Testing
@testable import SheetPortServer
import SheetPortTestSupport
import SheetPortCore

/// What a server keeps of its own when it talks to its store through the named queries, so two
/// servers in one process never use each other's: the key job results and errors are sealed
/// with (the connection's `jobSealer`), the storage relief a full disk is noted on, and the
/// bounds of its PostgreSQL sessions (from its lease). On a real SQLite file and, when a
/// cluster runs, a new PostgreSQL database; job texts hostile (quotes, SQL, NUL, controls).
@Suite struct ServerOwnStoreStateTests {
    static let hostileTexts = [#"{"code":"x'; DROP TABLE jobs; --","message":"\u0000 Ω \u001b[2J"}"#, "", "sealed:1:not-sealed"]

    @Test func jobTextsAreSealedWithTheirServersKeyOnSQLite() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.checkJobTexts(StoreLocation.sqlite(path: folder.appendingPathComponent("store.db").path))
    }

    @Test(.enabled(if: PostgresCluster.url != nil, PostgresCluster.skipReason))
    func jobTextsAreSealedWithTheirServersKeyOnPostgreSQL() throws {
        try Self.checkJobTexts(StoreLocation.postgres(url: PostgresCluster.createDatabase()))
    }

    /// Two connections with the keys of two servers, and one without (`sheetport token`'s):
    /// a result `succeed` wrote and an error `failClaimed` wrote open with the writer's key
    /// only; the stored text holds none of the plaintext; a claim that no longer holds ends
    /// nothing.
    private static func checkJobTexts(_ location: StoreLocation) throws {
        let plain = try location.open()
        let first = try location.connect(), second = try location.connect()
        first.jobSealer = try Sealer(key: Sodium.randomBytes(Sealer.keyLength))
        second.jobSealer = try Sealer(key: Sodium.randomBytes(Sealer.keyLength))
        for text in hostileTexts {
            let succeeded = Sodium.identifier(), failed = Sodium.identifier()
            for id in [succeeded, failed] {
                #expect(try plain.insertJob(id: id, subject: "ann", filename: "a.xlsx", uploadBytes: 1, idempotencyKey: nil))
                #expect(try plain.claim(job: id, claim: "claim-" + id, leaseMilliseconds: 60_000))
            }
            #expect(try !first.succeed(job: succeeded, claim: "another claim", result: text, rows: 1, cells: 2, bytes: 3))
            #expect(try first.succeed(job: succeeded, claim: "claim-" + succeeded, result: text, rows: 1, cells: 2, bytes: 3))
            try second.transaction { try second.failClaimed(job: failed, claim: "claim-" + failed, error: text) }

            #expect(try first.job(succeeded)?.status == .succeeded)
            #expect(try first.job(succeeded)?.result == text, "the writer's key opens its result")
            #expect(try second.job(succeeded)?.result == nil, "another server's key does not")
            #expect(try second.job(failed)?.status == .failed)
            #expect(try second.job(failed)?.error == text)
            #expect(try first.job(failed)?.error?.contains("cannot be read") == true)
            for (id, column) in [(succeeded, "result"), (failed, "error")] {
                let stored = try #require(try plain.query("SELECT \(column) FROM jobs WHERE id = ?", [.text(id)]).first?.first?.string)
                #expect(stored.hasPrefix(SealedJobText.prefix) && stored != text && (text.isEmpty || !stored.contains(text)))
            }
        }
    }

    /// A full disk noted through one server's relief is relieved (and logged) by that server's
    /// relief thread, never by another's on the same store.
    @Test func fullStorageIsNotedOnItsServersReliefOnly() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let location = StoreLocation.sqlite(path: folder.appendingPathComponent("store.db").path)
        let database = try location.open()
        try database.execute("CREATE TABLE filler (data BLOB)") // pages in the WAL to give back
        try database.query("INSERT INTO filler VALUES (?)", [.blob(Sodium.randomBytes(1 << 20))])
        let logs = try ["noted", "other"].map { name in
            let path = folder.appendingPathComponent("\(name).log").path
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            try #require(descriptor >= 0)
            return (path: path, descriptor: descriptor, log: ServerLog(descriptor: descriptor))
        }
        defer { logs.forEach { $0.log.close(); close($0.descriptor) } }
        let noted = StorageRelief(store: location, log: logs[0].log), other = StorageRelief(store: location, log: logs[1].log)
        func logged(_ index: Int) -> String {
            logs[index].log.flush(timeout: 1)
            return (try? String(contentsOfFile: logs[index].path, encoding: .utf8)) ?? ""
        }
        // The other server's relief runs alone first: two of its looks (once a second) find nothing.
        other.start()
        defer { other.stop() }
        database.relieveFullStorage(noting: noted)
        usleep(2_500_000)
        #expect(logged(1).isEmpty, "the other server relieved a full disk it was never told of: \(logged(1))")
        // The noting server's own relief then finds it.
        noted.start()
        defer { noted.stop() }
        #expect(eventually(within: 10) { logged(0).contains("storage relieved") })
        #expect(logged(1).isEmpty)
    }

    /// Each server's sessions to a shared store carry the bounds of its own lease; the embedded
    /// store has none to carry, and the URL (hostile or not) is kept as given.
    @Test func sessionBoundsComeFromEachServersLease() throws {
        let sqlite = StoreLocation.sqlite(path: "/tmp/x'; DROP TABLE jobs; --.db")
        #expect(sqlite.boundingSessions(lease: 2) == sqlite)
        let url = "postgresql://u:p%27@localhost/db?application_name=x%27%3BDROP"
        let cases: [(lease: Double, lock: Double, idle: Double)] = [(2, 3, 1), (0.5, 3, 1), (8, 6, 4), (30, 12, 10), (3600, 12, 10)]
        for (lease, lock, idle) in cases {
            #expect(StoreLocation.postgres(url: url).boundingSessions(lease: lease)
                    == .postgres(url: url, bounds: PostgresSessionBounds(lockTimeout: lock, idleInTransactionTimeout: idle)), "lease \(lease)")
        }
    }

    /// Two servers' locations on one cluster, in one process: each connection's session sets
    /// its own server's bounds, whichever was made last.
    @Test(.enabled(if: PostgresCluster.url != nil, PostgresCluster.skipReason))
    func sessionsSetTheirOwnServersBounds() throws {
        let url = try PostgresCluster.createDatabase()
        let short = StoreLocation.postgres(url: url).boundingSessions(lease: 2)
        let long = StoreLocation.postgres(url: url).boundingSessions(lease: 30)
        let (shortSession, longSession) = (try short.connect(), try long.connect())
        let again = try short.connect()
        func setting(_ database: Database, _ name: String) throws -> String? {
            try database.query("SELECT current_setting('\(name)')").first?.first?.string
        }
        for (database, lock, idle) in [(shortSession, "3s", "1s"), (longSession, "12s", "10s"), (again, "3s", "1s")] {
            #expect(try setting(database, "lock_timeout") == lock)
            #expect(try setting(database, "idle_in_transaction_session_timeout") == idle)
        }
    }
}
