import Foundation
import Testing
@testable import SheetPortConvert
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortReader

/// Several real server instances on one PostgreSQL database (Docs/Reference/CLI.md, "sheetport
/// serve"), against the throwaway cluster of Scripts/postgres.sh; skipped, saying so, without one
/// (a killed instance and `serve`'s options: SheetPortCLITests' `SharedDatabaseTests`).
@Suite(.serialized, .enabled(if: PostgresCluster.url != nil, PostgresCluster.skipReason))
struct SharedDatabaseTests {
    /// Import through A, poll and export through B; a grant made through B reaches the grantee
    /// on A; a token revoked in the shared database (`token revoke --database`) is refused at
    /// once on both.
    @Test func anyInstanceAnswersAnyRequest() throws {
        let deployment = try SharedDeployment()
        defer { deployment.close() }
        // Both start at once on the new database: the schema is made once, under the advisory lock.
        let names = ["a", "b"]
        let started = names.map { _ in LockedBox<Result<TestServer, any Error>?>(nil) }
        let folders = names.map { Self.instanceFolder(deployment, $0) }
        let (url, keyFile) = (deployment.url, deployment.keyFile)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            started[index].value = Result { try TestServer(folder: folders[index]) { ($0.databaseURL, $0.keyFile) = (url, keyFile) } }
        }
        let a = try #require(try started[0].value?.get()), b = try #require(try started[1].value?.get())
        defer { a.stop(); b.stop() }
        let token = try deployment.token("ann")
        let workbook = try makeStyledWorkbook(in: deployment.folder, rows: 500)

        let upload = try a.api(token).upload(workbook)
        try #require(upload.status == 202, "\(upload.text)")
        let id = try #require(API.job(upload.body)?["id"] as? String)
        let job = try b.api(token).wait(for: id)
        try #require(job["status"] as? String == "succeeded", "\(job)")
        let sheet = try #require(((job["result"] as? [String: Any])?["sheet"] as? [String: Any])?["id"] as? String)
        let export = try b.api(token).call("GET", "/api/sheets/\(sheet)/export.xlsx")
        #expect(export.status == 200)
        let exported = deployment.folder.appendingPathComponent("exported.xlsx")
        try Data(export.body).write(to: exported)
        let text = try convert(exported.path, to: .csv)
        #expect(text.contains(Distinctive.cell) && text.contains("item 500"))

        // A grant through B reaches the grantee through A; a comment through A is read through B.
        let bob = try deployment.token("bob")
        #expect(try a.api(bob).call("GET", "/api/sheets/\(sheet)").status == 404)
        #expect(try b.api(token).call("POST", "/api/sheets/\(sheet)/grants", json: ["subject": "bob", "role": "commenter"]).status < 300)
        #expect(try a.api(bob).call("GET", "/api/sheets/\(sheet)").status == 200)
        #expect(try a.api(bob).call("POST", "/api/sheets/\(sheet)/comments", json: ["ref": "A1", "text": "from A"]).status == 201)
        #expect(try b.api(token).call("GET", "/api/sheets/\(sheet)/comments").text.contains("from A"))
        // Comments added at once through both instances take turns on the sheet: each gets its own number.
        let statuses = (0..<12).map { _ in LockedBox(0) }
        let (baseA, baseB) = (a.base, b.base)
        DispatchQueue.concurrentPerform(iterations: 12) { index in
            let api = API(base: index % 2 == 0 ? baseA : baseB, token: bob)
            statuses[index].value = (try? api.call("POST", "/api/sheets/\(sheet)/comments", json: ["ref": "B\(index + 1)", "text": "c\(index)"]).status) ?? 0
        }
        #expect(statuses.allSatisfy { $0.value == 201 }, "\(statuses.map(\.value))")

        // Revoked through the shared database: refused at once on both instances.
        #expect(try a.api(bob).call("GET", "/api/sheets").status == 200)
        #expect(try Tokens.revoke(subject: "bob", in: deployment.database()) == 1)
        #expect(try a.api(bob).call("GET", "/api/sheets").status == 401)
        #expect(try b.api(bob).call("GET", "/api/sheets").status == 401)
        #expect(try a.api(token).call("GET", "/api/sheets").status == 200)
    }

    /// A cancel through B of a job running on A stops it at A's next batch: the job ends
    /// cancelled, with no sheet and no staged upload left.
    @Test func cancelThroughAnotherInstance() throws {
        let deployment = try SharedDeployment()
        defer { deployment.close() }
        let a = try deployment.start("a") { $0.workers = 1 }
        let token = try deployment.token("ann")
        let upload = try a.api(token).upload(try makeLargeWorkbook(rows: 60_000, in: deployment.folder))
        try #require(upload.status == 202, "\(upload.text)")
        let id = try #require(API.job(upload.body)?["id"] as? String)
        var running = false
        for _ in 0..<3000 where !running {
            let job = try #require(API.job(try a.api(token).call("GET", "/api/imports/\(id)").body))
            running = ((job["progress"] as? [String: Any])?["rows"] as? Int ?? 0) > 0
            if !running { usleep(10_000) }
        }
        try #require(running)
        let b = try deployment.start("b")
        #expect(try b.api(token).call("DELETE", "/api/imports/\(id)").status == 200)
        let database = try deployment.database()
        var sheets = -1
        for _ in 0..<1000 where sheets != 0 {
            sheets = try database.query("SELECT COUNT(*) FROM sheets").first?.first?.int ?? -1
            if sheets != 0 { usleep(20_000) }
        }
        #expect(sheets == 0)
        #expect(try a.api(token).wait(for: id)["status"] as? String == "cancelled")
        #expect(try database.query("SELECT COUNT(*) FROM staged_uploads").first?.first?.int == 0)
        #expect(try database.query("SELECT COUNT(*) FROM row_blocks").first?.first?.int == 0)
    }

    /// Two instances claiming from 20 queued jobs: every job runs exactly once.
    @Test func twentyJobsRunOnceEachAcrossTwoInstances() throws {
        let deployment = try SharedDeployment()
        defer { deployment.close() }
        let a = try deployment.start("a") { $0.workers = 2 }
        let b = try deployment.start("b") { $0.workers = 2 }
        let token = try deployment.token("ann")
        var ids: [String] = []
        for index in 0..<20 {
            let workbook = try makeStyledWorkbook(in: deployment.folder, name: "w\(index).xlsx", rows: 200 + index)
            let upload = try (index % 2 == 0 ? a : b).api(token).upload(workbook)
            try #require(upload.status == 202, "\(upload.text)")
            ids.append(try #require(API.job(upload.body)?["id"] as? String))
        }
        for id in ids {
            let job = try a.api(token).wait(for: id, timeout: 300)
            #expect(job["status"] as? String == "succeeded", "\(job)")
        }
        let database = try deployment.database()
        for (index, id) in ids.enumerated() {
            #expect(try database.query("SELECT attempts FROM jobs WHERE id = ?", [.text(id)]).first?.first?.int == 1)
            let sheets = try database.query("SELECT rows FROM sheets WHERE job_id = ?", [.text(id)])
            #expect(sheets.count == 1 && sheets.first?.first?.int == 200 + index, "job \(index): \(sheets)")
        }
        #expect(try database.query("SELECT COUNT(*) FROM sheets").first?.first?.int == 20)
        #expect(try database.query("SELECT COUNT(*) FROM staged_uploads").first?.first?.int == 0)
        let listed = try b.api(token).object("/api/sheets")["sheets"] as? [[String: Any]] ?? []
        #expect(listed.count == 20)
    }

    /// After an import, no file of PostgreSQL's data directory (tables, TOAST, WAL) nor of the
    /// instance's scratch holds any of the workbook's strings.
    @Test(.enabled(if: PostgresCluster.folder != nil, "SHEETPORT_PG_DIR is unset: the cluster's files are not known"))
    func postgresHoldsNoPlaintext() throws {
        let deployment = try SharedDeployment()
        defer { deployment.close() }
        let a = try deployment.start("a")
        let token = try deployment.token("ann")
        let job = try a.api(token).importWorkbook(try makeStyledWorkbook(in: deployment.folder, rows: 300))
        #expect(job["status"] as? String == "succeeded", "\(job)")
        let sheet = try #require(((job["result"] as? [String: Any])?["sheet"] as? [String: Any])?["id"] as? String)
        #expect(try a.api(token).call("GET", "/api/sheets/\(sheet)/rows?start=1&count=5").text.contains(Distinctive.cell))
        #expect(try a.api(token).call("GET", "/api/sheets/\(sheet)/export.xlsx").status == 200)
        try deployment.database().execute("CHECKPOINT") // the tables' pages written out, as well as the WAL
        var scanned = 0
        for file in filesUnder(try #require(PostgresCluster.folder) + "/data") + filesUnder(a.data) {
            guard let bytes = FileManager.default.contents(atPath: file) else { continue }
            scanned += bytes.count
            for needle in Distinctive.all {
                #expect(bytes.range(of: Data(needle.utf8)) == nil, "\(needle) in \(file)")
            }
        }
        #expect(scanned > 1_000_000)
    }

    private static func instanceFolder(_ deployment: SharedDeployment, _ name: String) -> URL {
        let folder = deployment.folder.appendingPathComponent(name)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// A value shared between threads under a lock.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
    /// Changes the value under the lock (a read and a write apart could lose another thread's).
    func update(_ body: (inout Value) -> Void) { lock.lock(); body(&stored); lock.unlock() }
}
