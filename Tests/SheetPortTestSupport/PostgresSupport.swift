import Foundation
import Testing
import SheetPortServer
import SheetPortCore
import SheetPortReader
import SheetPortConvert
import SheetPortClient

/// The throwaway PostgreSQL cluster of `Scripts/postgres.sh start` (which Scripts/test.sh
/// runs): its URL in SHEETPORT_TEST_POSTGRES, its folder in SHEETPORT_PG_DIR. Without them the
/// shared-database tests are skipped, with that said.
package enum PostgresCluster {
    /// The cluster's URL (its `postgres` database), or nil.
    package static let url: String? = ProcessInfo.processInfo.environment["SHEETPORT_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    /// The cluster's folder (its data directory is `data` in it), or nil.
    package static let folder: String? = ProcessInfo.processInfo.environment["SHEETPORT_PG_DIR"]
    /// Whether the existing server tests run on PostgreSQL (SHEETPORT_TEST_STORE=postgres).
    package static let runsServerSuite = url != nil && ProcessInfo.processInfo.environment["SHEETPORT_TEST_STORE"] == "postgres"
    /// Why the shared-database tests are skipped.
    package static let skipReason: Testing.Comment = "no PostgreSQL cluster: run `eval \"$(Scripts/postgres.sh start)\"` (Scripts/test.sh does)"

    /// A new empty database in the cluster; returns its URL.
    package static func createDatabase() throws -> String {
        let base = try #require(url, "SHEETPORT_TEST_POSTGRES is unset")
        let name = "sheetport_" + Sodium.identifier()
        try StoreLocation.postgres(url: base).connect().execute("CREATE DATABASE \(name)")
        return base.replacingOccurrences(of: "/postgres?", with: "/\(name)?")
    }
}

/// Several server instances sharing one new database and one key file, each with its own
/// scratch folder, in one temporary folder; `close()` stops them and removes it.
package final class SharedDeployment {
    package let folder: URL
    package let url: String
    package var keyFile: String { folder.appendingPathComponent("seal.key").path }
    package private(set) var servers: [TestServer] = []

    package init() throws {
        folder = try temporaryFolder()
        url = try PostgresCluster.createDatabase()
    }

    /// Starts an instance named `name` with the configuration `configure` makes of the shared one.
    @discardableResult
    package func start(_ name: String, _ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> TestServer {
        let instance = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: instance, withIntermediateDirectories: true)
        let server = try TestServer(folder: instance) { [url, keyFile] in
            $0.databaseURL = url
            $0.keyFile = keyFile
            configure(&$0)
        }
        servers.append(server)
        return server
    }

    /// Issues a token in the shared database (what `sheetport token issue --database` does).
    package func token(_ subject: String) throws -> String {
        try Tokens.issue(subject: subject, in: database())
    }

    /// A connection to the shared database, to look at what the instances stored.
    package func database() throws -> Database { try StoreLocation.postgres(url: url).connect() }

    package func close() {
        servers.forEach { $0.stop() }
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Uploads a workbook of `rows` rows through `api` and waits until the job has stored
/// some rows; its id.
package func startImport(rows: Int, through api: API, folder: URL) throws -> String {
    let upload = try api.upload(try makeLargeWorkbook(rows: rows, in: folder))
    try #require(upload.status == 202, "\(upload.text)")
    let id = try #require(API.job(upload.body)?["id"] as? String)
    var running = false
    for _ in 0..<3000 where !running {
        let job = try #require(API.job(try api.call("GET", "/api/imports/\(id)").body))
        running = ((job["progress"] as? [String: Any])?["rows"] as? Int ?? 0) > 0
        if !running { usleep(10_000) }
    }
    try #require(running, "the import never stored a row")
    return id
}
