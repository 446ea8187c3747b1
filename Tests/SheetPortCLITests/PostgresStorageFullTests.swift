import Foundation
import Testing
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport

/// A full disk under the shared database (issue 23), as StorageFullTests does for SQLite: a
/// PostgreSQL cluster of the test's own, started inside a mount namespace of its own
/// (`unshare`), whose database lives in a tablespace on a 40 MiB tmpfs mounted there (its WAL
/// on the ordinary disk, so PostgreSQL itself keeps running: a full tablespace is error 53100,
/// not a crash). `sheetport serve --database` runs in the same namespace. An import that fills
/// the tablespace fails with `storage-full` and leaves no sheet; an upload while it is full
/// answers 507 `storage-full`; reads still answer; once the space is freed, imports succeed.
/// The cluster runs as the `postgres` user (initdb refuses root), so the test needs root and
/// Debian's PostgreSQL server (Scripts/setup.sh --clients); without them it fails saying so.
@Suite(.serialized) struct PostgresStorageFullTests {
    static let bin = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
        .sorted { $0.compare($1, options: .numeric) == .orderedAscending }.last.map { "/usr/lib/postgresql/\($0)/bin" }

    @Test func aFullTablespaceFailsTheJobAnswers507AndTheServerRecovers() throws {
        guard getuid() == 0, let bin = Self.bin else {
            Issue.record("needs root and Debian's PostgreSQL server: the cluster on a tmpfs in a mount namespace of its own runs as `postgres`")
            return
        }
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cluster = folder.appendingPathComponent("pg").path, mount = folder.appendingPathComponent("mnt").path
        let log = folder.appendingPathComponent("server.log")
        try FileManager.default.createDirectory(atPath: cluster, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: log.path, contents: nil)
        chmod(folder.path, 0o755)
        let url = "postgresql://postgres@/sheetport?host=\(cluster)"
        let script = """
            set -e
            mount -t tmpfs -o size=40m,mode=0755 tmpfs "$MNT"
            mkdir "$MNT/space"; chown postgres:postgres "$PG" "$MNT/space"
            runuser -u postgres -- "$BIN/initdb" -D "$PG/data" -U postgres -A trust --no-sync -E UTF8 >"$PG/initdb.log" 2>&1
            runuser -u postgres -- "$BIN/pg_ctl" -D "$PG/data" -l "$PG/server.log" -w -t 60 -o "-k $PG -c listen_addresses= -c fsync=off" start >/dev/null
            "$BIN/psql" -q -h "$PG" -U postgres -d postgres -c "CREATE TABLESPACE small LOCATION '$MNT/space'" -c "CREATE DATABASE sheetport TABLESPACE small" >&2
            exec "$SHEETPORT" serve --data "$PG/scratch" --listen 127.0.0.1:0 --workers 1 --database "$URL" --key-file "$PG/seal.key"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["--mount", "--propagation", "private", "/bin/sh", "-c", script]
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["MNT": mount, "PG": cluster, "BIN": bin, "URL": url, "SHEETPORT": Project.executable.path]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        defer {
            // Reaped here, boundedly: Foundation's waitUntilExit was seen to wait on for a server
            // already ended (a zombie it did not collect) once the cluster had forked beside it.
            let pid = process.processIdentifier
            kill(pid, SIGTERM)
            let start = Date()
            while waitpid(pid, nil, WNOHANG) == 0 && Date().timeIntervalSince(start) < 10 { usleep(20_000) }
            if Date().timeIntervalSince(start) >= 10 { kill(pid, SIGKILL); _ = waitpid(pid, nil, 0) }
            let stop = Process()
            stop.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            stop.arguments = ["-u", "postgres", "--", bin + "/pg_ctl", "-D", cluster + "/data", "-m", "immediate", "-w", "stop"]
            stop.standardOutput = FileHandle.nullDevice
            stop.standardError = FileHandle.nullDevice
            try? stop.run()
            stop.waitUntilExit()
        }
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty {
                process.waitUntilExit()
                let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                Issue.record("the namespaced cluster and server did not start (unshare, mount and PostgreSQL are needed): \(said)")
                return
            }
            line.append(chunk)
        }
        let base = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "listening on ", with: "")
        let space = "/proc/\(process.processIdentifier)/root\(mount)"
        func freeBytes() -> Int { FullDisk.freeBytes(at: space) }
        func fill(bytes: Int = Int.max) { FullDisk.fill(space + "/filler", bytes: bytes) }
        let issued = try runSheetport(["token", "issue", "--database", url, "--key-file", cluster + "/seal.key", "--subject", "ann"])
        try #require(issued.status == 0, "\(issued.stderr)")
        let api = API(base: base, token: String(decoding: issued.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        let database = try StoreLocation.postgres(url: url).connect()

        // Leave about 2 MiB free in the tablespace, then import a workbook whose rows need more:
        // 60,000 rows are a 3.7 MB xlsx, and stored blocks are compressed to about its size.
        fill(bytes: max(0, freeBytes() - (2 << 20)))
        let big = try makeLargeWorkbook(rows: 60_000, in: folder)
        let upload = try api.upload(big, filename: "big «Q1» ünïcode.xlsx")
        if upload.status == 202 {
            let id = try #require(API.job(upload.body)?["id"] as? String)
            let job = try api.wait(for: id, timeout: 180)
            #expect(job["status"] as? String == "failed", "\(job)")
            let error = job["error"] as? [String: Any] ?? [:]
            #expect(error["code"] as? String == "storage-full", "\(job)")
            #expect(!"\(error["message"] ?? "")".contains("SQL") && !"\(error["message"] ?? "")".contains(mount), "\(error)")
        } else {
            // The staged upload itself (its pieces are stored in the database) did not fit.
            #expect(upload.status == 507 && (upload.object["error"] as? [String: Any])?["code"] as? String == "storage-full", "\(upload.status) \(upload.text)")
        }
        #expect((try api.object("/api/sheets")["sheets"] as? [Any])?.isEmpty == true)
        #expect(try database.query("SELECT COUNT(*) FROM sheets").first?.first?.int == 0, "no partial sheet")
        #expect(try database.query("SELECT COUNT(*) FROM row_blocks").first?.first?.int == 0, "no partial rows")

        // Full to the last byte: an upload answers 507 storage-full; reads still answer.
        fill()
        let small = try makeStyledWorkbook(in: folder, rows: 2000)
        let refused = try api.upload(small)
        #expect(refused.status == 507, "\(refused.status) \(refused.text)")
        #expect((refused.object["error"] as? [String: Any])?["code"] as? String == "storage-full", "\(refused.text)")
        #expect(try api.call("GET", "/api/sheets").status == 200)
        #expect(try database.query("SELECT COUNT(*) FROM staged_uploads").first?.first?.int == 0, "no staged piece kept")

        // Space freed: the server recovers by itself and an import succeeds.
        unlink(space + "/filler")
        let sheet = try api.importSheet(small)
        #expect(try api.call("GET", "/api/sheets/\(sheet)/export.xlsx").status == 200)
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(said.split(separator: "\n").filter { $0.contains("retrying") }.count <= 2, "retries are logged once: \(said.suffix(2000))")
    }
}
