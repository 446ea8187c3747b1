import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport
@testable import SheetPortReader
@testable import SheetPortConvert

/// The real `sheetport import` and `export` processes against a `HostileServer` (real sockets)
/// that never answers, trickles, sends without end or sends control characters (issue 12).
@Suite(.serialized) struct HostileServerTests {
    /// A private folder with a token file, a `TMPDIR` and an export folder.
    private struct Setup {
        let folder: URL
        let temporary: URL
        let output: URL
        let tokenFile: String

        init() throws {
            folder = try temporaryFolder()
            temporary = folder.appendingPathComponent("tmp")
            output = folder.appendingPathComponent("out")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            tokenFile = folder.appendingPathComponent("token").path
            #expect(FileManager.default.createFile(atPath: tokenFile, contents: Data("hostile-test-token".utf8),
                                                   attributes: [.posixPermissions: 0o600]))
        }

        /// Runs `sheetport arguments` with this `TMPDIR`.
        func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            let (process, output, errors) = try startSheetport(arguments, environment: ["TMPDIR": temporary.path])
            return finish(process, output, errors)
        }

        func client(_ command: String, _ server: HostileServer, _ extra: [String]) -> [String] {
            [command] + extra + ["--server", server.url, "--token-file", tokenFile, "--no-progress"]
        }

        /// Nothing is left in `TMPDIR` (no staging) nor in the export folder.
        func expectNothingLeft() {
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []).isEmpty, "left in TMPDIR")
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []).isEmpty, "left in --out")
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    /// A JSON body, its strings escaped by JSONSerialization (control characters included).
    private static func json(_ status: Int, _ object: [String: Any]) -> HostileServer.Behaviour {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return .answer(status: status, headers: ["Content-Type: application/json"], body: Array(data))
    }

    private static func exitStatus(_ signal: Int32) -> Int32 { signal == SIGTERM ? 143 : 130 }

    // MARK: every wait is interruptible

    /// Where `import` waits on a server that stops answering.
    enum ImportStage: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// The caps request is never answered.
        case limits
        /// The caps request answers 503 with `Retry-After: 5`: the client is in a retry's backoff.
        case backoff
        /// The upload's body is never read.
        case upload
        /// The whole upload is read and never answered (after a short grace for the job's answer).
        case answer
        /// `--wait`'s poll of the job is never answered, nor the cancel that follows.
        case poll
        var testDescription: String { rawValue }
    }

    /// SIGINT and SIGTERM end `import` within about a second (130, 143) wherever it waits on a
    /// server that never answers, and nothing is left in `TMPDIR`.
    @Test(arguments: ImportStage.allCases, [SIGINT, SIGTERM])
    func importEndsWithinASecondOfASignalWhateverItWaitsFor(_ stage: ImportStage, _ signal: Int32) throws {
        let setup = try Setup()
        defer { setup.remove() }
        let book = stage == .upload ? try makeBulkyWorkbook(megabytes: 48, in: setup.folder)
                                    : try makeLargeWorkbook(rows: 50, in: setup.folder)
        let server = try HostileServer { method, path in
            switch (stage, method, path) {
            case (.limits, _, _): .stall
            case (.backoff, _, _): .answer(status: 503, headers: ["Retry-After: 5"], body: Array(#"{"error":{"code":"busy","message":"later"}}"#.utf8))
            case (_, "GET", "/api/limits"): HostileAnswers.limits
            case (.upload, "POST", _): .stallBeforeBody
            case (.answer, "POST", _): .stall
            case (.poll, "POST", _): HostileAnswers.queued
            default: .stall
            }
        }
        defer { server.stop() }
        let ready = ["limits": "GET /api/limits", "backoff": "GET /api/limits", "upload": "POST /api/imports", "answer": "POST /api/imports", "poll": "GET /api/imports/j1"]
        let result = try signalWhileStalled(setup.client("import", server, [book] + (stage == .poll ? ["--wait"] : [])),
                                            temporary: setup.temporary, signal: signal) { server.received(ready[stage.rawValue]!) }
        print("import, \(stage) stalled: exit \(result.status) \(String(format: "%.2f", result.seconds)) s after the signal")
        #expect(result.status == Self.exitStatus(signal), "\(result.stderr)")
        #expect(result.seconds < 1.25, "took \(result.seconds) s")
        switch stage {
        case .answer: #expect(result.stderr.contains("may have started a job"), "\(result.stderr)")
        case .poll: #expect(result.stderr.contains("import job j1 could not be cancelled"), "\(result.stderr)")
        case .limits, .backoff, .upload: #expect(result.stderr.contains("no job was started"), "\(result.stderr)")
        }
        setup.expectNothingLeft()
    }

    /// SIGINT and SIGTERM end `export` within about a second (130, 143) while the sheet list is
    /// never answered and while a download stalls midway; the staging is removed.
    @Test(arguments: [false, true], [SIGINT, SIGTERM])
    func exportEndsWithinASecondOfASignalAndLeavesNoStaging(_ midDownload: Bool, _ signal: Int32) throws {
        let setup = try Setup()
        defer { setup.remove() }
        let server = try HostileServer { _, path in
            switch (midDownload, path) {
            case (false, _): .stall
            case (true, "/api/sheets"): Self.json(200, ["sheets": [["id": "s1", "name": "Data"]]])
            default: .stallMidBody(head: "HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\nX-Sheet-Version: 1",
                                   prefix: [UInt8](repeating: 0x50, count: 5000))
            }
        }
        defer { server.stop() }
        let result = try signalWhileStalled(setup.client("export", server, ["--all", "--out", setup.output.path]),
                                            temporary: setup.temporary, signal: signal) {
            midDownload ? exportStaging(in: setup.temporary).contains { staging in
                ((try? FileManager.default.attributesOfItem(atPath: staging.appendingPathComponent("workbook.xlsx").path))?[.size] as? Int ?? 0) > 0
            } : server.received("GET /api/sheets")
        }
        print("export, \(midDownload ? "download" : "sheet list") stalled: exit \(result.status) \(String(format: "%.2f", result.seconds)) s after the signal")
        #expect(result.status == Self.exitStatus(signal), "\(result.stderr)")
        #expect(result.seconds < 1.25, "took \(result.seconds) s")
        setup.expectNothingLeft()
    }

    // MARK: deadlines and low-speed limits

    /// A server that never answers is given up on at `--timeout` (exit 2 with "timed out"): the
    /// import's caps request, the upload's answer (the deadline counted from the end of the
    /// body), the export's sheet list, and a download stalled midway (that sheet fails, exit 1),
    /// each without retries.
    @Test(arguments: ["import", "import answer", "export list", "export download"])
    func aStalledServerIsGivenUpOnAtTheDeadline(_ what: String) throws {
        let setup = try Setup()
        defer { setup.remove() }
        let book = try makeLargeWorkbook(rows: 10, in: setup.folder)
        let server = try HostileServer { _, path in
            what == "import answer" && path == "/api/limits" ? HostileAnswers.limits
                : what == "export download" && path == "/api/sheets" ? Self.json(200, ["sheets": [["id": "s1", "name": "Data"]]])
                : what == "export download" ? .stallMidBody(head: "HTTP/1.1 200 OK\r\nContent-Length: 1000", prefix: [1, 2, 3]) : .stall
        }
        defer { server.stop() }
        let arguments = what.hasPrefix("import") ? setup.client("import", server, [book]) : setup.client("export", server, ["--all", "--out", setup.output.path])
        let start = Date()
        let result = try setup.run(arguments + ["--timeout", "1", "--retries", "0"])
        let seconds = Date().timeIntervalSince(start)
        #expect(result.status == (what == "export download" ? 1 : 2), "\(result.stdout)\n\(result.stderr)")
        #expect((result.stdout + result.stderr).contains(what == "import answer" ? "within 1 s of sending the request (timed out)" : "timed out"),
                "\(result.stdout)\n\(result.stderr)")
        #expect(seconds < 5, "took \(seconds) s")
        setup.expectNothingLeft()
    }

    /// A download that trickles (a byte every 0.2 s, no `--timeout`) is given up on by the
    /// low-speed limit (1 kB/s over 20 s): the sheet fails with "too slow", nothing is left.
    @Test func aTricklingDownloadIsGivenUpOn() throws {
        let setup = try Setup()
        defer { setup.remove() }
        let server = try HostileServer { _, path in
            path == "/api/sheets" ? Self.json(200, ["sheets": [["id": "s1", "name": "Data"]]])
                : .trickle(head: "HTTP/1.1 200 OK\r\nContent-Length: 100000000\r\nX-Sheet-Version: 1", interval: 0.2)
        }
        defer { server.stop() }
        let start = Date()
        let result = try setup.run(setup.client("export", server, ["--all", "--out", setup.output.path, "--retries", "0"]))
        let seconds = Date().timeIntervalSince(start)
        #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("too slow"), "\(result.stdout)")
        #expect(seconds < 40, "took \(seconds) s")
        setup.expectNothingLeft()
    }

    /// The deadline's rules, on a fake clock: the whole-request timeout (counted from the end of
    /// a body), the wait for an answer to begin, and the low-speed window only while bytes flow.
    @Test func requestDeadlineRules() {
        var deadline = RequestDeadline(timeout: 10, answerTimeout: 5, lowSpeedLimit: 100, lowSpeedTime: 2, start: 0)
        #expect(deadline.check(now: 4, bodySentAt: nil, sending: false, answerStarted: false, moved: 0) == nil)
        #expect(deadline.check(now: 5.5, bodySentAt: nil, sending: false, answerStarted: false, moved: 0)?.contains("no answer began") == true)
        // An upload flowing slowly is cut by the speed limit, not the deadline; its answer by the deadline.
        var upload = RequestDeadline(timeout: 10, answerTimeout: 0, lowSpeedLimit: 100, lowSpeedTime: 2, start: 0)
        #expect(upload.check(now: 1, hasBody: true, bodySentAt: nil, sending: true, answerStarted: false, moved: 1_000) == nil)
        #expect(upload.check(now: 3, hasBody: true, bodySentAt: nil, sending: true, answerStarted: false, moved: 2_000) == nil)
        #expect(upload.check(now: 50, hasBody: true, bodySentAt: nil, sending: true, answerStarted: false, moved: 20_000) == nil,
                "past the deadline while the body flows")
        #expect(upload.check(now: 52, hasBody: true, bodySentAt: nil, sending: true, answerStarted: false, moved: 20_100)?.contains("too slow") == true)
        var answer = RequestDeadline(timeout: 10, answerTimeout: 0, lowSpeedLimit: 100, lowSpeedTime: 2, start: 0)
        #expect(answer.check(now: 30, hasBody: true, bodySentAt: 25, sending: false, answerStarted: false, moved: 9_000) == nil)
        #expect(answer.check(now: 36, hasBody: true, bodySentAt: 25, sending: false, answerStarted: false, moved: 9_000)?.contains("of sending") == true)
        var none = RequestDeadline(timeout: 0, answerTimeout: 0, lowSpeedLimit: 0, lowSpeedTime: 0, start: 0)
        #expect(none.check(now: 1e6, bodySentAt: nil, sending: false, answerStarted: true, moved: 0) == nil)
    }

    // MARK: answers capped in size

    /// Answers past the caps fail at once without being read whole: a JSON answer of a declared
    /// 1 GiB, one of no declared length that never ends, a head that never ends, and an export's
    /// error answer that never ends. The server sent far less than what it offered.
    @Test(arguments: ["declared", "undeclared", "head", "export error"])
    func answersPastTheCapFailWithoutBeingReadWhole(_ kind: String) throws {
        let setup = try Setup()
        defer { setup.remove() }
        let book = try makeLargeWorkbook(rows: 10, in: setup.folder)
        let server = try HostileServer { _, path in
            switch kind {
            case "declared": .endless(head: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1073741824")
            case "undeclared": .endless(head: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close")
            case "head": .endlessHead
            default: path == "/api/sheets" ? Self.json(200, ["sheets": [["id": "s1", "name": "Data"]]])
                                           : .endless(head: "HTTP/1.1 500 Oops\r\nConnection: close")
            }
        }
        defer { server.stop() }
        let export = kind == "export error"
        let arguments = export ? setup.client("export", server, ["--all", "--out", setup.output.path]) : setup.client("import", server, [book])
        let start = Date()
        let result = try setup.run(arguments + ["--retries", "0"])
        let seconds = Date().timeIntervalSince(start)
        print("answer cap, \(kind): the server got \(server.bodyBytes) bytes out before the client gave up, in \(String(format: "%.2f", seconds)) s")
        #expect(result.status == (export ? 1 : 2), "\(result.stdout)\n\(result.stderr)")
        if !export { #expect(result.stderr.contains(kind == "head" ? "head is larger than" : "body is larger than 16777216 bytes"), "\(result.stderr)") }
        #expect(server.bodyBytes < 64 << 20, "the client read \(server.bodyBytes) bytes")
        #expect(seconds < 20, "took \(seconds) s")
        setup.expectNothingLeft()
    }

    // MARK: server text made visible

    /// Text a hostile server might send: ANSI escapes, an OSC title, CR, NUL, BEL, a bidi override.
    static let hostile = "\u{1B}[31mred\u{1B}[0m\r\u{0}\u{7}\u{202E}txt.exe\u{1B}]0;owned\u{7}"

    /// Whether printed text holds a control character other than a newline.
    private static func holdsControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.isUnsafeControl && $0 != "\n" }
    }

    /// Everything `import --wait` prints from a server (sheet id and name, job id, warnings,
    /// a failed job's error, an error answer's code and message) shows control characters as
    /// escapes; with `--json` the output is valid JSON holding the raw text.
    @Test(arguments: ["succeeded", "failed", "refused"])
    func importPrintsServerTextWithControlCharactersVisible(_ outcome: String) throws {
        let setup = try Setup()
        defer { setup.remove() }
        let book = try makeLargeWorkbook(rows: 10, in: setup.folder)
        let hostile = Self.hostile
        let job: [String: Any] = outcome == "succeeded"
            ? ["id": "j1", "status": "succeeded", "result": ["sheet": ["id": "s" + hostile, "name": hostile],
                                                             "warnings": [["code": hostile, "message": hostile], hostile]]]
            : ["id": "j1", "status": "failed", "error": ["code": hostile, "message": hostile]]
        let jobAnswer = Self.json(200, ["job": job])
        let server = try HostileServer { method, path in
            switch (method, path) {
            case ("GET", "/api/limits"): HostileAnswers.limits
            case ("POST", _): outcome == "refused" ? Self.json(400, ["error": ["code": hostile, "message": hostile]]) : HostileAnswers.queued
            default: jobAnswer
            }
        }
        defer { server.stop() }
        for json in [false, true] {
            let result = try setup.run(setup.client("import", server, [book, "--wait", "--retries", "0"] + (json ? ["--json"] : [])))
            #expect(result.status == (outcome == "succeeded" ? 0 : outcome == "failed" ? 1 : 2), "\(result.stdout)\n\(result.stderr)")
            #expect(!Self.holdsControls(result.stderr), "raw control characters on stderr: \(result.stderr.debugDescription)")
            if json && outcome != "refused" {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
                if outcome == "succeeded" {
                    let warnings = try #require(object["warnings"] as? [[String: Any]])
                    #expect(warnings.first?["message"] as? String == hostile)
                    #expect((object["sheet"] as? [String: Any])?["name"] as? String == hostile)
                }
            } else {
                #expect(!Self.holdsControls(result.stdout), "raw control characters on stdout: \(result.stdout.debugDescription)")
                #expect((result.stdout + result.stderr).contains("\\u{1B}[31mred\\u{1B}[0m\\u{D}\\u{0}\\u{7}\\u{202E}txt.exe"),
                        "\(result.stdout)\n\(result.stderr)")
            }
        }
    }

    /// `export`'s table (sheet names, file names, the server's error messages) shows control
    /// characters as escapes; `--json` stays valid JSON with the raw sheet name.
    @Test func exportTablePrintsServerTextWithControlCharactersVisible() throws {
        let setup = try Setup()
        defer { setup.remove() }
        let hostile = Self.hostile
        let server = try HostileServer { _, path in
            path == "/api/sheets" ? Self.json(200, ["sheets": [["id": "s1", "name": hostile]]])
                : Self.json(403, ["error": ["code": hostile, "message": hostile]])
        }
        defer { server.stop() }
        let table = try setup.run(setup.client("export", server, ["--all", "--out", setup.output.path, "--retries", "0"]))
        #expect(table.status == 1, "\(table.stdout)\n\(table.stderr)")
        #expect(!Self.holdsControls(table.stdout + table.stderr), "\(table.stdout.debugDescription)")
        #expect(table.stdout.contains("\\u{1B}[31mred"), "\(table.stdout)")
        let json = try setup.run(setup.client("export", server, ["--all", "--out", setup.output.path, "--retries", "0", "--json"]))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
        #expect(object["sheet"] as? String == hostile)
        setup.expectNothingLeft()
    }

    // MARK: file names from server text

    /// Sheet names that try to leave `--out` (`..`, absolute paths, a separator hidden under a
    /// combining accent, NUL, controls, a leading dot) become plain files directly in `--out`.
    @Test func exportedFileNamesStayInsideOut() throws {
        let setup = try Setup()
        defer { setup.remove() }
        let names = ["..", "../escape", "/etc/evil", "/\u{301}evil", "sub/\u{301}dir", "a\u{0}b\u{1B}c", ".hidden", "\u{202E}gpj.exe",
                     "..\\..\\win", "nested/../../up"]
        let workbook = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Project.fixture("cell_types.xlsx"))))
        let server = try HostileServer { _, path in
            path == "/api/sheets"
                ? Self.json(200, ["sheets": names.enumerated().map { ["id": "s\($0.offset)", "name": $0.element] }])
                : .answer(status: 200, headers: ["X-Sheet-Version: 1"], body: workbook)
        }
        defer { server.stop() }
        let result = try setup.run(setup.client("export", server, ["--all", "--out", setup.output.path, "--json"]))
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: setup.output.path)
        #expect(files.count == names.count, "\(files)")
        for file in files {
            #expect(!file.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.isUnsafeControl } && !file.hasPrefix("."), "\(file.debugDescription)")
        }
        // Nothing anywhere else: the folder holds the token, TMPDIR (empty) and --out only.
        let everything = try FileManager.default.subpathsOfDirectory(atPath: setup.folder.path)
        #expect(Set(everything) == Set(["token", "tmp", "out"] + files.map { "out/" + $0 }), "\(everything)")
    }

    // MARK: job status as one typed value

    /// A job status the contract does not name is an invalid answer (exit 2, naming it, its
    /// control characters visible), not a string the command compares.
    @Test(arguments: [false, true])
    func anUnknownJobStatusIsAnInvalidAnswer(_ wait: Bool) throws {
        let setup = try Setup()
        defer { setup.remove() }
        let book = try makeLargeWorkbook(rows: 10, in: setup.folder)
        let server = try HostileServer { method, path in
            switch (method, path) {
            case ("GET", "/api/limits"): HostileAnswers.limits
            case ("POST", _): wait ? HostileAnswers.queued : Self.json(202, ["job": ["id": "j1", "status": "paused"]])
            default: Self.json(200, ["job": ["id": "j1", "status": "succeeded\u{1B}[2J"]])
            }
        }
        defer { server.stop() }
        let result = try setup.run(setup.client("import", server, [book, "--retries", "0"] + (wait ? ["--wait"] : [])))
        #expect(result.status == 2, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains(wait ? "unknown job status \"succeeded\\u{1B}[2J\"" : "unknown job status \"paused\""),
                "\(result.stderr)")
        #expect(!Self.holdsControls(result.stderr))
    }

    /// The store's statuses are the contract's (SheetPortCoreTests' `WireTests` checks those).
    @Test func jobStatusesAreTheContracts() {
        #expect(JobRecord.Status.self == ImportJobStatus.self)
    }
}
