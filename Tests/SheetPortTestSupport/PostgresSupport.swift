import Foundation
import Testing
import SheetPortServer

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

/// Several `sheetport serve` instances sharing one new database and one key file, each with
/// its own scratch folder, in one temporary folder; `close()` stops them and removes it.
package final class SharedDeployment {
    package let folder: URL
    package let url: String
    package var keyFile: String { folder.appendingPathComponent("seal.key").path }
    package private(set) var servers: [TestServer] = []

    package init() throws {
        folder = try temporaryFolder()
        url = try PostgresCluster.createDatabase()
    }

    /// Starts an instance named `name` with extra `arguments`.
    @discardableResult
    package func start(_ name: String, _ arguments: [String] = []) throws -> TestServer {
        let instance = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: instance, withIntermediateDirectories: true)
        let server = try TestServer(folder: instance, arguments: ["--database", url, "--key-file", keyFile] + arguments)
        servers.append(server)
        return server
    }

    /// Issues a token through `sheetport token issue --database`.
    package func token(_ subject: String) throws -> String {
        let result = try runSheetport(["token", "issue", "--database", url, "--key-file", keyFile, "--subject", subject])
        try #require(result.status == 0, "\(result.stderr)")
        return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A connection to the shared database, to look at what the instances stored.
    package func database() throws -> Database { try StoreLocation.postgres(url: url).connect() }

    package func close() {
        servers.forEach { $0.stop() }
        try? FileManager.default.removeItem(at: folder)
    }
}
