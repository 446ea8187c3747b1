import Foundation
import Testing
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert

/// A full disk (issue 23): the data folder on a 30 MiB tmpfs that this test mounts in a mount
/// namespace of its own (`unshare`), the server running inside it. An import that fills it
/// fails with `storage-full` and leaves no sheet; an upload while it is full answers 507
/// `storage-full`; once the test frees the space, the server recovers by itself (the WAL
/// checkpointed and truncated) and imports succeed again. Where unshare is not permitted the
/// test fails, saying so: it is never skipped in silence.
@Suite(.serialized) struct StorageFullTests {
    /// `sheetport serve` inside a new mount namespace, its data folder on a tmpfs of `size`.
    final class NamespacedServer {
        let folder: URL
        /// The mount point (the same path inside the namespace; empty outside it).
        let mount: String
        let process: Process
        let base: String
        let log: URL

        init(folder: URL, size: String = "30m") throws {
            self.folder = folder
            mount = folder.appendingPathComponent("mnt").path
            log = folder.appendingPathComponent("server.log")
            try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: log.path, contents: nil)
            process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            let namespace = getuid() == 0 ? ["--mount", "--propagation", "private"] : ["--user", "--map-root-user", "--mount", "--propagation", "private"]
            process.arguments = namespace + ["/bin/sh", "-c", "mount -t tmpfs -o size=\(size),mode=0700 tmpfs \"$0\" && exec \"$1\" serve --data \"$0/data\" --listen 127.0.0.1:0 --workers 1",
                                             mount, Project.executable.path]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = try FileHandle(forWritingTo: log)
            try process.run()
            var line = Data()
            while !line.contains(0x0A) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty {
                    process.waitUntilExit()
                    let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                    throw ServerError.startFailed("unshare and mount are not permitted here (a mount namespace with a tmpfs of its own is needed "
                        + "to fill a disk safely; run the tests as root or where unprivileged user namespaces are allowed): \(said)")
                }
                line.append(chunk)
            }
            base = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "listening on ", with: "")
        }

        /// A path inside the namespace's tmpfs, as this process reaches it (`/proc/PID/root`).
        func inside(_ relative: String) -> String { "/proc/\(process.processIdentifier)/root\(mount)/\(relative)" }

        /// Runs `command` inside the server's namespaces (`nsenter`).
        func run(_ command: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            let entering = Process()
            entering.executableURL = URL(fileURLWithPath: "/usr/bin/nsenter")
            let namespaces = getuid() == 0 ? ["-m"] : ["-U", "-m", "--preserve-credentials"]
            entering.arguments = ["-t", String(process.processIdentifier)] + namespaces + command
            let output = Pipe(), errors = Pipe()
            entering.standardOutput = output
            entering.standardError = errors
            try entering.run()
            let out = output.fileHandleForReading.readDataToEndOfFile(), err = errors.fileHandleForReading.readDataToEndOfFile()
            entering.waitUntilExit()
            return (entering.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
        }

        /// Free bytes on the tmpfs.
        func freeBytes() -> Int { FullDisk.freeBytes(at: inside("")) }

        /// Size of a file inside (-1 when missing).
        func size(_ relative: String) -> Int {
            var status = stat()
            return stat(inside(relative), &status) == 0 ? Int(status.st_size) : -1
        }

        /// Writes zeros to `filler` until the disk is full (or `bytes` are written).
        func fill(_ relative: String = "filler", bytes: Int = Int.max) { FullDisk.fill(inside(relative), bytes: bytes) }

        func stop() -> (status: Int32, seconds: Double) {
            let start = Date()
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            while process.isRunning && Date().timeIntervalSince(start) < 10 { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return (process.terminationStatus, Date().timeIntervalSince(start))
        }
    }

    @Test func aFullDiskFailsTheJobAnswers507AndTheServerRecoversOnceSpaceIsFreed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server: NamespacedServer
        do { server = try NamespacedServer(folder: folder) } catch {
            Issue.record("\(error)")
            return
        }
        defer { _ = server.stop() }
        let issued = try server.run([Project.executable.path, "token", "issue", "--data", server.mount + "/data", "--subject", "ann"])
        try #require(issued.status == 0, "\(issued.stderr)")
        let api = API(base: server.base, token: issued.stdout.trimmingCharacters(in: .whitespacesAndNewlines))

        // Leave about 12 MiB free, then import a workbook whose rows need far more.
        server.fill(bytes: max(0, server.freeBytes() - (12 << 20)))
        let big = try makeLargeWorkbook(rows: 60_000, in: folder)
        let upload = try api.upload(big, filename: "big «Q1» ünïcode.xlsx")
        try #require(upload.status == 202, "\(upload.status) \(upload.text)")
        let id = try #require(API.job(upload.body)?["id"] as? String)
        let job = try api.wait(for: id, timeout: 180)
        #expect(job["status"] as? String == "failed", "\(job)")
        let error = job["error"] as? [String: Any] ?? [:]
        #expect(error["code"] as? String == "storage-full", "\(job)")
        #expect(!"\(error["message"] ?? "")".contains("/") && !"\(error["message"] ?? "")".contains("SQL"), "\(error)")
        #expect((try api.object("/api/sheets")["sheets"] as? [Any])?.isEmpty == true)
        let hidden = try server.run(["sqlite3", "-readonly", server.mount + "/data/sheetport.db", "SELECT COUNT(*) FROM sheets; SELECT COUNT(*) FROM row_blocks;"])
        #expect(hidden.stdout.split(separator: "\n") == ["0", "0"], "no partial sheet: \(hidden)")
        #expect(isEmptySoon(server.inside("data/staging")))

        // Full to the last byte: an upload answers 507 storage-full, nothing is kept; reads still answer.
        server.fill()
        let small = try makeStyledWorkbook(in: folder, rows: 2000)
        let refused = try api.upload(small)
        #expect(refused.status == 507, "\(refused.status) \(refused.text)")
        #expect((refused.object["error"] as? [String: Any])?["code"] as? String == "storage-full", "\(refused.text)")
        #expect(isEmptySoon(server.inside("data/staging")))
        #expect(try api.call("GET", "/api/sheets").status == 200)

        // Space freed: the server recovers by itself, the WAL truncated, and an import succeeds.
        unlink(server.inside("filler"))
        let freed = Date()
        while server.size("data/sheetport.db-wal") > 0 && Date().timeIntervalSince(freed) < 15 { usleep(100_000) }
        #expect(server.size("data/sheetport.db-wal") == 0, "the WAL is truncated once space is freed")
        let free = server.freeBytes()
        #expect(free > 4 << 20, "free: \(free)")
        let sheet = try api.importSheet(small)
        #expect(try api.call("GET", "/api/sheets/\(sheet)/export.xlsx").status == 200)
        #expect(server.freeBytes() > 2 << 20)

        let stopped = server.stop()
        #expect(stopped.status == 143 && stopped.seconds < 5, "\(stopped)")
        let log = try String(contentsOf: server.log, encoding: .utf8)
        let retries = log.split(separator: "\n").filter { $0.contains("cannot remove") || $0.contains("retrying") }
        #expect(retries.count <= 2, "retries are logged once, not every 2 s: \(retries.prefix(5))")
        #expect(!log.contains("\u{202E}"))
    }
}
