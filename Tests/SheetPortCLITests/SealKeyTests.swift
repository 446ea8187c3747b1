import Foundation
import Testing
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert

/// The sealing key against the store it seals (issue 23): the store records which key it is
/// sealed with (a check value, never the key), and `serve` and `token` refuse a missing or
/// different key (exit 2, naming both fingerprints) before anything touches the store: no job
/// failed, no staged upload deleted, no record sealed with a key nobody else has.
@Suite(.serialized) struct SealKeyTests {
    /// The key file a test server seals with.
    static func keyPath(_ server: ServeProcess) -> String {
        server.databaseURL == nil ? server.data + "/seal.key" : server.folder.appendingPathComponent("seal.key").path
    }

    /// The store of a (stopped) test server.
    static func location(_ server: ServeProcess) -> StoreLocation {
        server.databaseURL.map { .postgres(url: $0) } ?? .sqlite(path: server.data + "/sheetport.db")
    }

    /// The sealer of the store's records (its data key), opened with the server's key file.
    static func storeSealer(_ server: ServeProcess) throws -> Sealer {
        try #require(try KeyCheck.establish(keyFile: keyPath(server), store: location(server), staging: nil, create: false))
    }

    /// A queued job with a sealed staged upload, as an import interrupted by a kill leaves it.
    static func plantInterruptedImport(_ server: ServeProcess, workbook: String) throws -> String {
        let id = Sodium.identifier()
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: workbook)))
        let staged = server.databaseURL == nil ? server.data + "/staging/\(id).sealed" : server.folder.appendingPathComponent("\(id).sealed").path
        let file = try SealedBlockFile(creating: staged, identity: id, sealer: try storeSealer(server))
        try bytes.withUnsafeBytes { try file.append($0) }
        try file.close()
        let database = try server.store()
        #expect(try database.insertJob(id: id, subject: "ann", filename: "interrupted.xlsx", uploadBytes: bytes.count, idempotencyKey: nil))
        if server.databaseURL != nil {
            let sealed = Array(try Data(contentsOf: URL(fileURLWithPath: staged)))
            for (piece, start) in stride(from: 0, to: sealed.count, by: StagedUploads.pieceBytes).enumerated() {
                try database.insertStagedPiece(job: id, piece: piece, data: Array(sealed[start..<min(start + StagedUploads.pieceBytes, sealed.count)]))
            }
            unlink(staged)
        }
        return id
    }

    /// The staged upload of `job` is still there (the file, or the shared store's pieces).
    static func stagedUploadExists(_ server: ServeProcess, job: String) throws -> Bool {
        if server.databaseURL == nil { return FileManager.default.fileExists(atPath: server.data + "/staging/\(job).sealed") }
        return try !server.store().query("SELECT piece FROM staged_uploads WHERE job_id = ?", [.text(job)]).isEmpty
    }

    static func status(_ server: ServeProcess, job: String) throws -> String? {
        try server.store().query("SELECT status FROM jobs WHERE id = ?", [.text(job)]).first?.first?.string
    }

    /// Writes 32 other random bytes as a key file (mode 0600).
    static func writeKey(_ path: String, _ key: [UInt8] = Sodium.randomBytes(32)) throws -> [UInt8] {
        unlink(path)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(key), attributes: [.posixPermissions: 0o600]))
        return key
    }

    /// Missing key, then another key, on a store with a sheet and an interrupted import:
    /// `serve` and `token` exit 2 naming the fingerprints, the job stays queued with its staged
    /// upload; with the right key back the server starts and the import completes.
    @Test func missingOrOtherKeyIsRefusedAndNothingIsTouched() throws {
        let fixture = try ServeProcessFixture()
        defer { fixture.close() }
        let server = fixture.server
        _ = try fixture.api.importSheet(try makeStyledWorkbook(in: fixture.folder))
        let workbook = try makeStyledWorkbook(in: fixture.folder, name: "second.xlsx", rows: 300)
        server.stop()
        let job = try Self.plantInterruptedImport(server, workbook: workbook)
        let keyPath = Self.keyPath(server)
        let original = try #require(try KeyFile.load(at: keyPath))
        let expected = KeyCheck.fingerprint(of: original)
        let arguments = ["serve", "--data", server.data, "--listen", "127.0.0.1:0"] + server.arguments

        // Missing.
        try FileManager.default.moveItem(atPath: keyPath, toPath: fixture.folder.appendingPathComponent("kept.key").path)
        let missing = try runWithDeadline(arguments, seconds: 20)
        #expect(missing.status == 2, "\(missing.stderr)")
        #expect(missing.stderr.contains("missing") && missing.stderr.contains(expected), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: keyPath), "no new key for a store with data")
        let token = try runWithDeadline(["token", "issue"] + server.storeArguments + ["--subject", "mallory"], seconds: 20)
        #expect(token.status == 2 && token.stdout.isEmpty && token.stderr.contains(expected), "\(token.stderr)")

        // Another key.
        let other = try Self.writeKey(keyPath)
        let wrong = try runWithDeadline(arguments, seconds: 20)
        #expect(wrong.status == 2, "\(wrong.stderr)")
        #expect(wrong.stderr.contains(expected) && wrong.stderr.contains(KeyCheck.fingerprint(of: other)), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("SQL") && !wrong.stderr.contains("sheetport.db"), "\(wrong.stderr)")
        let wrongToken = try runWithDeadline(["token", "revoke"] + server.storeArguments + ["--subject", "ann"], seconds: 20)
        #expect(wrongToken.status == 2 && wrongToken.stderr.contains(KeyCheck.fingerprint(of: other)), "\(wrongToken.stderr)")

        // Nothing was touched.
        #expect(try Self.status(server, job: job) == "queued")
        #expect(try Self.stagedUploadExists(server, job: job))
        #expect(try server.store().query("SELECT token_hash FROM sessions WHERE subject = 'mallory'").isEmpty)

        // The right key back: the server starts, ann's token still works, the import completes.
        _ = try Self.writeKey(keyPath, original)
        try server.restart()
        let api = server.api(fixture.api.token)
        let finished = try api.wait(for: job)
        #expect(finished["status"] as? String == "succeeded", "\(finished)")
        let sheets = try api.object("/api/sheets")["sheets"] as? [[String: Any]] ?? []
        #expect(sheets.count == 2)
    }

    /// A store from before check values were kept: a key that does not open its sealed data is
    /// refused (and nothing recorded), as is a missing one; the key that opens it is recorded.
    @Test func oldStoreRecordsTheKeyThatOpensItsData() throws {
        let fixture = try ServeProcessFixture()
        defer { fixture.close() }
        let server = fixture.server
        _ = try fixture.api.importSheet(try makeStyledWorkbook(in: fixture.folder))
        server.stop()
        // A store of before key checks and envelope keys: its records sealed with the key file's key itself.
        let keyPath = Self.keyPath(server)
        let fileKey = try #require(try KeyFile.load(at: keyPath))
        let dataKey = try #require(try KeyCheck.dataKey(for: fileKey, in: server.store()))
        let original = try Self.writeKey(keyPath, dataKey)
        let database = try server.store()
        try database.execute(server.databaseURL == nil ? "DROP TABLE meta" : "DELETE FROM meta")
        let arguments = ["serve", "--data", server.data, "--listen", "127.0.0.1:0"] + server.arguments

        let other = try Self.writeKey(keyPath)
        let wrong = try runWithDeadline(arguments, seconds: 20)
        #expect(wrong.status == 2 && wrong.stderr.contains(KeyCheck.fingerprint(of: other)) && wrong.stderr.contains("does not open"), "\(wrong.stderr)")
        #expect(try server.store().recordedKeyCheck() == nil)
        unlink(keyPath)
        let missing = try runWithDeadline(arguments, seconds: 20)
        #expect(missing.status == 2 && missing.stderr.contains("missing"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: keyPath))

        _ = try Self.writeKey(keyPath, original)
        try server.restart()
        #expect(try server.store().recordedKeyCheck() == KeyCheck.value(of: original))
        #expect(try server.api(fixture.api.token).call("GET", "/api/sheets").status == 200)
    }

    /// Rotation: `key rotate` seals the data key under a new key file; until `key retire`, the
    /// old and the new key both open the store (a restart with either, SIGHUP reloading the new
    /// one into a running instance); after it, the old key is refused. Nothing is re-sealed.
    @Test func rotationAcceptsEitherKeyUntilTheOldIsRetired() throws {
        let fixture = try ServeProcessFixture()
        defer { fixture.close() }
        let server = fixture.server
        let sheet = try fixture.api.importSheet(try makeStyledWorkbook(in: fixture.folder))
        let rows = try fixture.api.call("GET", "/api/sheets/\(sheet)/rows").text
        let blocks = try server.store().query("SELECT data FROM row_blocks ORDER BY block")
        let keyPath = Self.keyPath(server)
        let oldCopy = fixture.folder.appendingPathComponent("old.key").path
        let newKey = fixture.folder.appendingPathComponent("new \u{1B}[1m.key").path
        let oldKey = try #require(try KeyFile.load(at: keyPath))
        _ = try Self.writeKey(oldCopy, oldKey)
        let storeArguments = Array(server.storeArguments.prefix(2)) // `key` takes the store alone, the keys by --old/--new

        let rotated = try runWithDeadline(["key", "rotate"] + storeArguments + ["--old", keyPath, "--new", newKey], seconds: 30)
        #expect(rotated.status == 0, "\(rotated.stderr)")
        let new = try #require(try KeyFile.load(at: newKey))
        #expect(rotated.stderr.contains(KeyCheck.fingerprint(of: new)) && !rotated.stderr.contains("\u{1B}"), "\(rotated.stderr)")
        #expect(try server.store().query("SELECT data FROM row_blocks ORDER BY block") == blocks, "only the data key is re-sealed")
        #expect(try server.store().recordedKeyCheck() == KeyCheck.value(of: new))

        // The running instance (old key) reloads the new key file on SIGHUP and keeps serving.
        _ = try Self.writeKey(keyPath, new)
        kill(server.pid, SIGHUP)
        let log = fixture.folder.appendingPathComponent("server.log").path
        #expect(eventually(within: 10) { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("sealing key reloaded: fingerprint \(KeyCheck.fingerprint(of: new))") })
        #expect(try fixture.api.call("GET", "/api/sheets/\(sheet)/rows").text == rows)
        #expect(try fixture.api.call("POST", "/api/sheets/\(sheet)/comments", json: ["ref": "A1", "text": "after the rotation"]).status == 201)
        let rowsNow = try fixture.api.call("GET", "/api/sheets/\(sheet)/rows").text // a new version
        server.stop()

        // Either key starts it while rotating.
        for key in [oldKey, new] {
            _ = try Self.writeKey(keyPath, key)
            try server.restart()
            let api = server.api(fixture.api.token)
            #expect(try api.call("GET", "/api/sheets/\(sheet)/rows").text == rowsNow)
            #expect(try api.call("GET", "/api/sheets/\(sheet)/comments").text.contains("after the rotation"))
            server.stop()
        }

        // Retired: the old key is refused; the current one cannot be retired.
        let current = try runWithDeadline(["key", "retire"] + storeArguments + ["--old", newKey], seconds: 30)
        #expect(current.status == 2 && current.stderr.contains("current key"), "\(current.stderr)")
        let retired = try runWithDeadline(["key", "retire"] + storeArguments + ["--old", oldCopy], seconds: 30)
        #expect(retired.status == 0, "\(retired.stderr)")
        _ = try Self.writeKey(keyPath, oldKey)
        let refused = try runWithDeadline(["serve", "--data", server.data, "--listen", "127.0.0.1:0"] + server.arguments, seconds: 20)
        #expect(refused.status == 2 && refused.stderr.contains(KeyCheck.fingerprint(of: new)), "\(refused.stderr)")
        _ = try Self.writeKey(keyPath, new)
        try server.restart()
        #expect(try server.api(fixture.api.token).call("GET", "/api/sheets/\(sheet)/rows").text == rowsNow)
    }

    /// A shared database: an instance started with another key file (or a missing one, which
    /// it must not create) refuses to start, so it can never accept a comment sealed with a key
    /// the others do not have. The key file's hostile name is shown escaped.
    @Test(.enabled(if: PostgresCluster.url != nil, PostgresCluster.skipReason))
    func instanceWithAnotherKeyOnASharedDatabaseRefusesToStart() throws {
        let deployment = try SharedDeployment()
        defer { deployment.close() }
        let a = try deployment.start("a")
        let token = try deployment.token("ann")
        let sheet = try a.api(token).importSheet(try makeStyledWorkbook(in: deployment.folder))
        let expected = KeyCheck.fingerprint(of: try #require(try KeyFile.load(at: deployment.keyFile)))
        let hostile = deployment.folder.appendingPathComponent("other\u{1B}[31m\nkey").path
        let other = try Self.writeKey(hostile)
        for keyFile in [hostile, deployment.folder.appendingPathComponent("new.key").path] {
            let scratch = deployment.folder.appendingPathComponent("b").path
            let refused = try runWithDeadline(["serve", "--data", scratch, "--listen", "127.0.0.1:0", "--database", deployment.url,
                                               "--key-file", keyFile], seconds: 30)
            #expect(refused.status == 2, "\(refused.stderr)")
            #expect(refused.stderr.contains(expected), "\(refused.stderr)")
            #expect(!refused.stderr.contains("\u{1B}") && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
            if keyFile == hostile { #expect(refused.stderr.contains(KeyCheck.fingerprint(of: other))) }
            #expect(!FileManager.default.fileExists(atPath: deployment.folder.appendingPathComponent("new.key").path))
            let issued = try runWithDeadline(["token", "issue", "--database", deployment.url, "--key-file", keyFile, "--subject", "bob"], seconds: 30)
            #expect(issued.status == 2 && issued.stdout.isEmpty, "\(issued.stderr)")
        }
        // The correctly keyed instance reads its comments and exports as before.
        #expect(try a.api(token).call("GET", "/api/sheets/\(sheet)/comments").status == 200)
        #expect(try a.api(token).call("GET", "/api/sheets/\(sheet)/export.xlsx").status == 200)
    }

    /// `token --database` without `--key-file` (or with an empty one) is refused as `serve
    /// --database` is (exit 2, naming the option) before it touches the store: nothing issued,
    /// nothing revoked. It used to issue and revoke unchecked.
    @Test(.enabled(if: PostgresCluster.url != nil, PostgresCluster.skipReason))
    func tokenOnASharedDatabaseNeedsTheKeyFile() throws {
        let deployment = try SharedDeployment()
        defer { deployment.close() }
        let a = try deployment.start("a")
        let token = try deployment.token("ann")
        for (arguments, keyFile) in [(["issue", "--subject", "mallory"], [String]()), (["revoke", "--subject", "ann"], []),
                                     (["issue", "--subject", "mallory"], ["--key-file", ""])] {
            let refused = try runWithDeadline(["token"] + arguments + ["--database", deployment.url] + keyFile, seconds: 30)
            #expect(refused.status == 2 && refused.stdout.isEmpty, "\(arguments) \(keyFile): \(refused.status) \(refused.stderr)")
            #expect(refused.stderr.contains(keyFile.isEmpty ? "--key-file" : "key"), "\(refused.stderr)")
        }
        #expect(try deployment.database().query("SELECT token_hash FROM sessions WHERE subject = 'mallory'").isEmpty)
        #expect(try a.api(token).call("GET", "/api/sheets").status == 200, "ann's session was not revoked")
        let issued = try runWithDeadline(["token", "issue", "--database", deployment.url, "--key-file", deployment.keyFile, "--subject", "bob"], seconds: 30)
        #expect(issued.status == 0, "\(issued.stderr)")
        #expect(try a.api(issued.stdout.trimmingCharacters(in: .whitespacesAndNewlines)).call("GET", "/api/sheets").status == 200)
    }

    /// A FIFO, a directory or a symbolic link (to /dev/zero) where the key should be is refused at
    /// once, naming what it is, instead of blocking the start in open(2).
    @Test func keyThatIsNotARegularFileIsRefusedAtOnce() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let key = data + "/seal.key"
        let cases: [(make: () throws -> Void, says: String)] = [
            ({ #expect(mkfifo(key, 0o600) == 0) }, "FIFO"),
            ({ try FileManager.default.createDirectory(atPath: key, withIntermediateDirectories: false) }, "directory"),
            ({ try FileManager.default.createSymbolicLink(atPath: key, withDestinationPath: "/dev/zero") }, "symbolic link (to /dev/zero)"),
        ]
        for (make, says) in cases {
            try? FileManager.default.removeItem(atPath: key)
            try make()
            for arguments in [["serve", "--data", data, "--listen", "127.0.0.1:0"], ["token", "issue", "--data", data, "--subject", "ann"]] {
                let result = try runWithDeadline(arguments, seconds: 10)
                #expect(result.status == 2 && result.seconds < 5, "\(says): \(result.status) after \(result.seconds) s: \(result.stderr)")
                #expect(result.stderr.contains(says), "\(result.stderr)")
            }
        }
        var status = stat()
        #expect(lstat(key, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK, "the link is left as it was")
    }

    /// SIGTERM ends a start-up that is stuck (a "database" that accepts the connection and
    /// never answers) at once, with 143.
    @Test func sigtermEndsAStuckStartUp() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        try #require(bound)
        let port = UInt16(bigEndian: address.sin_port)
        let process = Process()
        process.executableURL = Project.executable
        process.arguments = ["serve", "--data", folder.appendingPathComponent("data").path, "--listen", "127.0.0.1:0",
                             "--database", "postgresql://sheetport@127.0.0.1:\(port)/never", "--key-file", folder.appendingPathComponent("k").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(800_000)
        #expect(process.isRunning, "the start-up is waiting for the silent database")
        let start = Date()
        kill(process.processIdentifier, SIGTERM)
        while process.isRunning && Date().timeIntervalSince(start) < 5 { usleep(20_000) }
        let seconds = Date().timeIntervalSince(start)
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(seconds < 2 && process.terminationStatus == 143, "\(process.terminationStatus) after \(seconds) s")
    }
}
