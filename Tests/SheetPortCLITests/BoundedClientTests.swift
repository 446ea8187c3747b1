import Foundation
import Testing
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert
@testable import SheetPortClient
@testable import SheetPortServer

/// The client's waits against a stalled `HostileServer` (issue 23): one `--timeout`, meaning
/// the most one request may take with its retries, bounds every command that talks to a
/// server, and an idle event stream falls back to polling after it. The bounds asserted are
/// bounds, not benchmarks: a 2 s timeout must end well under 10 s.
@Suite(.serialized) struct BoundedClientTests {
    /// A folder with a token file and a `TMPDIR`.
    private struct Setup {
        let folder: URL
        let temporary: URL
        let tokenFile: String

        init() throws {
            folder = try temporaryFolder()
            temporary = folder.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            tokenFile = folder.appendingPathComponent("token").path
            #expect(FileManager.default.createFile(atPath: tokenFile, contents: Data("bounded-test-token".utf8),
                                                   attributes: [.posixPermissions: 0o600]))
        }

        /// Runs `sheetport command extra --server URL ...`, killed after `limit` seconds; the
        /// result and the seconds it took.
        func run(_ command: String, _ server: HostileServer, _ extra: [String], limit: Double = 30)
            throws -> (status: Int32, stdout: String, stderr: String, seconds: Double) {
            let started = Date()
            let (process, output, errors) = try startSheetport([command] + extra + ["--server", server.url, "--token-file", tokenFile, "--no-progress"],
                                                               environment: ["TMPDIR": temporary.path])
            if !eventually(within: limit, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
            let result = finish(process, output, errors)
            return (result.status, result.stdout, result.stderr, Date().timeIntervalSince(started))
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    /// `check --server` and `import` against a server that never answers the caps request (and
    /// one that answers 503 with `Retry-After` each time): with `--timeout 2` both end under
    /// 10 s, exit 2, saying it timed out. Before, `check` waited 30 s a try over five tries
    /// (over 100 s) and took no `--timeout`; `import` made five tries of 2 s each.
    @Test(arguments: ["check", "import"], ["stall", "busy"])
    func aStalledServerIsGivenUpOnWithinTheTimeout(_ command: String, _ mode: String) throws {
        let setup = try Setup()
        defer { setup.remove() }
        let book = try makeLargeWorkbook(rows: 20, in: setup.folder)
        let server = try HostileServer { _, _ in
            mode == "stall" ? .stall
                : .answer(status: 503, headers: ["Retry-After: 1", "Content-Type: application/json"],
                          body: Array(#"{"error":{"code":"busy","message":"later \u001b[31m"}}"#.utf8))
        }
        defer { server.stop() }
        let result = try setup.run(command, server, [book, "--timeout", "2"])
        print("\(command) against a \(mode) server, --timeout 2: exit \(result.status) after \(String(format: "%.2f", result.seconds)) s")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.seconds < 10, "took \(result.seconds) s")
        if mode == "stall" { #expect(result.stderr.contains("timed out"), "\(result.stderr)") }
        #expect(!result.stderr.contains("\u{1B}"), "a control character reached the terminal")
    }

    /// `--timeout` is one option with one meaning for every client command; a bad value is a
    /// usage error naming it.
    @Test(arguments: ["0", "-1", "nan", "inf", "1e9", "2s", ""])
    func aBadTimeoutIsAUsageError(_ value: String) throws {
        let setup = try Setup()
        defer { setup.remove() }
        let server = try HostileServer { _, _ in .stall }
        defer { server.stop() }
        for command in ["check", "import", "export"] {
            let extra = command == "export" ? ["--all", "--out", setup.folder.appendingPathComponent("out").path] : ["book.xlsx"]
            let result = try setup.run(command, server, extra + ["--timeout", value])
            #expect(result.status == 2 && result.stderr.contains("--timeout"), "\(command) --timeout \(value): \(result.stderr)")
            #expect(result.seconds < 10)
        }
    }

    /// `import --wait` whose event stream opens and then stays silent (no heartbeat, no event)
    /// falls back to polling after `--timeout` and ends with the job polled (exit 0), well
    /// before the stream's own 45 s stall limit.
    @Test func anIdleEventStreamFallsBackToPollingAfterTheTimeout() throws {
        let setup = try Setup()
        defer { setup.remove() }
        let book = try makeLargeWorkbook(rows: 20, in: setup.folder)
        let done = #"{"job":{"id":"j1","status":"succeeded","progress":{"bytes":1,"rows":20,"cells":40},"result":{"sheet":{"id":"s1","name":"Data"},"warnings":[]}}}"#
        let server = try HostileServer { method, path in
            switch (method, path) {
            case ("GET", "/api/limits"): HostileAnswers.limits
            case ("POST", _): HostileAnswers.queued
            case ("GET", "/api/imports/j1/events"): .stallMidBody(head: "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream", prefix: Array(": ping\n\n".utf8))
            case ("GET", "/api/imports/j1"): .json(200, done)
            default: .stall
            }
        }
        defer { server.stop() }
        let result = try setup.run("import", server, [book, "--wait", "--timeout", "2"], limit: 60)
        print("import --wait, idle event stream, --timeout 2: exit \(result.status) after \(String(format: "%.2f", result.seconds)) s")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.seconds < 10, "took \(result.seconds) s")
        #expect(server.received("GET /api/imports/j1/events") && server.requests.contains("GET /api/imports/j1"), "\(server.requests)")
    }

    /// A device is refused as what it is, before any byte is read or any request made:
    /// `check /dev/zero` and `import /dev/zero` say "is a character device" (not `corrupt-zip`,
    /// and without reading zeros for ever); `import` of a folder says "is a directory", while
    /// `check` of a folder checks the workbooks in it (Docs/Reference/CLI.md, "sheetport check"), none here.
    @Test func aDeviceIsRefusedAsWhatItIs() throws {
        let setup = try Setup()
        defer { setup.remove() }
        let server = try HostileServer { _, _ in .stall }
        defer { server.stop() }
        for (path, what) in [("/dev/zero", "is a character device"), ("/dev/null", "is a character device"), (setup.folder.path, "is a directory")] {
            let started = Date()
            let checked = try runSheetport(["check", path, "--no-progress"])
            let checkSays = path == setup.folder.path ? "no .xlsx or .xlsm file in it" : what
            // A device is nothing check can open (3); a folder with no workbook in it is an I/O error (2).
            #expect(checked.status == (path == setup.folder.path ? 2 : 3) && checked.stderr.contains(checkSays) && !checked.stderr.contains("corrupt"), "check \(path): \(checked.stderr)")
            #expect(Date().timeIntervalSince(started) < 10)
            let imported = try setup.run("import", server, [path, "--timeout", "2"])
            #expect(imported.status == 2 && imported.stderr.contains(what), "import \(path): \(imported.stderr)")
            #expect(imported.seconds < 10)
        }
        #expect(server.requests.isEmpty, "\(server.requests)")
    }

    /// A pipe (`<(cat book.xlsx)`) given to `check` is read whole like standard input, within
    /// `--max-total-size`, and pre-flighted: importable. One past the cap is refused, saying so.
    @Test func checkReadsAPipeLikeStandardInput() throws {
        let setup = try Setup()
        defer { setup.remove() }
        let book = try makeLargeWorkbook(rows: 200, in: setup.folder)
        let (process, output, errors) = try startSheetport(["check", "--no-progress"], environment: ["BOOK": book],
                                                           shell: #""$0" "$@" <(cat "$BOOK")"#)
        let result = finish(process, output, errors)
        #expect(result.status == 0 && result.stdout.contains("importable"), "\(result.stdout) \(result.stderr)")
        let (big, bigOutput, bigErrors) = try startSheetport(["check", "--no-progress", "--max-total-size", "64K"], environment: ["BOOK": book],
                                                             shell: #""$0" "$@" <(head -c 10000000 /dev/zero)"#)
        let over = finish(big, bigOutput, bigErrors)
        #expect(over.status == 3 && over.stderr.contains("larger than"), "\(over.stderr)")
    }

    /// A named pipe given to `import` is spooled to a private file within the server's upload
    /// cap, pre-flighted and uploaded under the pipe's name: the job succeeds on a real server.
    /// One that goes past the cap stops there (exit 2, saying so), nothing uploaded, nothing
    /// left in `TMPDIR`.
    @Test func importSpoolsANamedPipeWithinTheUploadCap() throws {
        let setup = try Setup()
        defer { setup.remove() }
        let fixture = try ServerFixture { $0.maxUploadBytes = 256 << 10 }
        defer { fixture.close() }
        let tokenFile = setup.folder.appendingPathComponent("ann.token").path
        try Data(fixture.api.token!.utf8).write(to: URL(fileURLWithPath: tokenFile))
        let book = try makeLargeWorkbook(rows: 200, in: setup.folder)
        let pipe = setup.folder.appendingPathComponent("from a pipe \u{1F4C8}.xlsx").path
        #expect(mkfifo(pipe, 0o600) == 0)
        let arguments = ["import", pipe, "--wait", "--server", fixture.server.base, "--token-file", tokenFile, "--no-progress", "--timeout", "30"]
        let (process, output, errors) = try startSheetport(arguments, environment: ["TMPDIR": setup.temporary.path, "BOOK": book, "PIPE": pipe],
                                                           shell: #"cat "$BOOK" > "$PIPE" & "$0" "$@"; status=$?; wait; exit $status"#)
        let result = finish(process, output, errors)
        #expect(result.status == 0 && result.stdout.contains("imported as sheet"), "\(result.stdout) \(result.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: setup.temporary.path)) ?? []).isEmpty, "left in TMPDIR")
        let started = Date()
        let (big, bigOutput, bigErrors) = try startSheetport(arguments, environment: ["TMPDIR": setup.temporary.path, "PIPE": pipe],
                                                             shell: #"head -c 100000000 /dev/zero > "$PIPE" 2>/dev/null & "$0" "$@"; status=$?; kill %1 2>/dev/null; exit $status"#)
        let over = finish(big, bigOutput, bigErrors)
        #expect(over.status == 2 && over.stderr.contains("larger than") && over.stderr.contains("upload cap"), "\(over.stderr)")
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: setup.temporary.path)) ?? []).isEmpty, "left in TMPDIR")
        let jobs = try fixture.api.object("/api/imports")["jobs"] as? [Any]
        #expect(jobs?.count == 1, "\(String(describing: jobs))")
    }

    /// An export whose body never ends (a hostile server sending zeros) stops at `--max-bytes`
    /// (1M here; default 4G) with an error that says so: the sheet fails (exit 1), its staging
    /// is removed, nothing is published, and the whole takes seconds. Before, it filled TMPDIR.
    @Test func anEndlessExportStopsAtMaxBytes() throws {
        let setup = try Setup()
        defer { setup.remove() }
        let server = try HostileServer { _, path in
            path == "/api/sheets" ? .json(200, #"{"sheets":[{"id":"s1","name":"Endless \u001b[2J"}]}"#)
                : .endless(head: "HTTP/1.1 200 OK\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\nX-Sheet-Version: 1")
        }
        defer { server.stop() }
        let out = setup.folder.appendingPathComponent("out")
        let result = try setup.run("export", server, ["--all", "--out", out.path, "--max-bytes", "1M"])
        print("endless export, --max-bytes 1M: exit \(result.status) after \(String(format: "%.2f", result.seconds)) s, \(server.bodyBytes) bytes sent")
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("larger than 1048576 bytes") && result.stdout.contains("--max-bytes"), "\(result.stdout)")
        #expect(!result.stdout.contains("\u{1B}"))
        #expect(result.seconds < 20)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: setup.temporary.path)) ?? []).isEmpty, "left in TMPDIR")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []).isEmpty, "left in --out")
        let bad = try setup.run("export", server, ["--all", "--out", out.path, "--max-bytes", "0"])
        #expect(bad.status == 2 && bad.stderr.contains("--max-bytes"), "\(bad.stderr)")
    }
}
