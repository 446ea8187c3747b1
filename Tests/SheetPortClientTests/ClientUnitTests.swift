import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortWriter
@testable import SheetPortConvert
@testable import SheetPortClient
import SheetPortTestSupport

/// The client's parts that need no server: staging, file names, retries, caps.
@Suite struct ExportStagingTests {
    @Test func stagingIsPrivateAndPublishesAtomically() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("Orders.xlsx").path
        try Data("previous".utf8).write(to: URL(fileURLWithPath: destination))
        let source = try makeLargeWorkbook(rows: 50, in: folder)
        let staging = try ExportStaging(destination: destination)
        let directory = (staging.path as NSString).deletingLastPathComponent
        #expect(directory.hasPrefix(Staging.temporaryDirectory))
        #expect(((directory as NSString).lastPathComponent).hasPrefix("sheetport-export-\(getpid())-"))
        #expect(try FileManager.default.attributesOfItem(atPath: directory)[.posixPermissions] as? Int == 0o700)
        #expect(try FileManager.default.attributesOfItem(atPath: staging.path)[.posixPermissions] as? Int == 0o600)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        try bytes.withUnsafeBytes { try staging.write($0) }
        try staging.verify(sheet: "Orders")
        #expect(try String(contentsOfFile: destination, encoding: .utf8) == "previous")
        try staging.publish()
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == bytes)
        #expect(!FileManager.default.fileExists(atPath: directory))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["Orders.xlsx", "big.xlsx"])
    }

    @Test func aDownloadThatDoesNotOpenIsRemovedAndTheDestinationKept() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("Orders.xlsx").path
        try Data("previous".utf8).write(to: URL(fileURLWithPath: destination))
        let staging = try ExportStaging(destination: destination)
        let directory = (staging.path as NSString).deletingLastPathComponent
        try Array("PK\u{3}\u{4} truncated".utf8).withUnsafeBytes { try staging.write($0) }
        #expect(throws: ClientError.self) { try staging.verify(sheet: "Orders") }
        staging.discard()
        #expect(!FileManager.default.fileExists(atPath: directory))
        #expect(try String(contentsOfFile: destination, encoding: .utf8) == "previous")
    }

    @Test func stagingOfAKilledProcessIsSweptByTheNextRun() throws {
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let stale = Staging.temporaryDirectory + "/sheetport-export-\(ended.processIdentifier)-AbC123"
        try FileManager.default.createDirectory(atPath: stale, withIntermediateDirectories: true)
        try Data("partial".utf8).write(to: URL(fileURLWithPath: stale + "/workbook.xlsx"))
        let live = Staging.temporaryDirectory + "/sheetport-export-\(getpid())-XyZ789"
        try FileManager.default.createDirectory(atPath: live, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: live) }
        let staging = try ExportStaging(destination: "/nonexistent/x.xlsx")
        staging.discard()
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: live))
    }
}

@Suite struct ClientPolicyTests {
    @Test func fileNamesAreSafeAndUnique() {
        #expect(FileNames.unique(for: ["Q1/Q2: plan?", "Data", "data", "..hidden", "", "Data"], fileExtension: "xlsx")
                == ["Q1_Q2_ plan_.xlsx", "Data.xlsx", "data (2).xlsx", "hidden.xlsx", "sheet.xlsx", "Data (3).xlsx"])
    }

    /// A separator joined with a combining mark is one Character but still a `/`; so are
    /// controls, bidirectional overrides and NUL: every one is replaced, decided on scalars.
    @Test func fileNamesAreDecidedOnScalars() {
        #expect(FileNames.safe("sub/\u{301}evil") == "sub_\u{301}evil")
        #expect(FileNames.safe("a\\\u{301}b") == "a_\u{301}b")
        #expect(FileNames.safe("x\u{0}y\u{1B}[31mz\u{202E}") == "x_y_[31mz_")
        #expect(FileNames.safe("..\u{301}") == "\u{301}")
        for name in FileNames.unique(for: ["../../etc/passwd", "/abs", "C:\\x", "a\u{85}b"], fileExtension: "csv") {
            #expect(!name.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.isUnsafeControl })
        }
    }

    @Test func controlCharactersAreMadeVisible() {
        #expect("a\u{1B}[2Jb\r\nc".visibleControlCharacters == "a\\u{1B}[2Jb\\u{D}\\u{A}c")
        #expect("back\\slash".visibleControlCharacters == "back\\\\slash")
        #expect("plain naïve".visibleControlCharacters == "plain naïve")
        #expect("\u{202E}txt.exe".containsControlCharacters && !"naïve".containsControlCharacters)
    }

    @Test func backoffGrowsAndIsBounded() {
        let policy = RetryPolicy(attempts: 6, initialDelay: 0.2, maximumDelay: 1, multiplier: 2)
        for attempt in 2...6 {
            let full = min(0.2 * pow(2, Double(attempt - 2)), 1)
            let delay = policy.delay(before: attempt)
            #expect(delay >= full / 2 && delay <= full)
        }
        #expect(policy.delay(before: 2, retryAfter: 30) == 1)
        #expect(RetryPolicy.isRetryable(status: 503) && RetryPolicy.isRetryable(status: 429))
        #expect(!RetryPolicy.isRetryable(status: 404) && !RetryPolicy.isRetryable(status: 413) && !RetryPolicy.isRetryable(status: 501))
    }

    @Test func retriesOnlyRetryableFailuresAndGivesUpWithTheCause() {
        var tries = 0
        let policy = RetryPolicy(attempts: 3, initialDelay: 0.001, maximumDelay: 0.001)
        #expect(throws: ClientError.self) {
            try policy.run { _ -> Int in
                tries += 1
                throw RetryableFailure(ClientError.transport(url: "http://x", message: "reset"))
            }
        }
        #expect(tries == 3)
        tries = 0
        #expect(throws: ClientError.self) {
            try policy.run { _ -> Int in
                tries += 1
                throw ClientError.notFound(url: "http://x", what: "job")
            }
        }
        #expect(tries == 1)
    }

    @Test func preflightAppliesTheServersCaps() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try makeLargeWorkbook(rows: 100, in: folder)
        #expect(try Preflight.check(path: book).importable)
        var limits = ServerLimits(maxUploadBytes: 1 << 30, maxCells: 500)
        var report = try Preflight.check(path: book, options: limits.preflightOptions)
        #expect(!report.importable && report.findings.contains { $0.code == "exceeds-limit" && $0.message.contains("500") })
        limits = ServerLimits(maxUploadBytes: 1000, maxCells: 10_000_000)
        report = try Preflight.check(path: book, options: limits.preflightOptions)
        #expect(report.findings.contains { $0.code == "exceeds-limit" && $0.message.contains("upload limit of 1000 bytes") })
        limits = ServerLimits(maxUploadBytes: 1 << 30, maxCells: 10_000_000, maxRows: 50)
        report = try Preflight.check(path: book, options: limits.preflightOptions)
        #expect(report.findings.contains { $0.code == "exceeds-limit" && $0.message.contains("50 rows") })
    }

    @Test func aTokenComesFromAFileOrTheEnvironmentOnly() throws {
        #expect(throws: ClientError.self) { try ServerConnection.token(file: nil, environment: [:]) }
        #expect(try ServerConnection.token(file: nil, environment: ["SHEETPORT_TOKEN": "abc"]) == "abc")
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("token")
        try Data("secret\n".utf8).write(to: file)
        #expect(try ServerConnection.token(file: file.path, environment: ["SHEETPORT_TOKEN": "abc"]) == "secret")
    }

    /// An error answer's code reads as sent, an unknown one too; one missing, empty or not a
    /// string reads as none, and the error then names the status alone. 404 is not found.
    @Test(arguments: [
        (400, #"{"error":{"code":"bad-ref","message":"B0?"}}"#, ServerErrorCode?.some(.badRef), "http://x: B0? (bad-ref, HTTP 400)"),
        (429, #"{"error":{"code":"slow-down\u001b[2J","message":""}}"#, ServerErrorCode(rawValue: "slow-down\u{1B}[2J"), "http://x: HTTP 429 (slow-down\\u{1B}[2J, HTTP 429)"),
        (500, #"{"error":{"code":"","message":"m"}}"#, nil, "http://x: m (HTTP 500)"),
        (500, #"{"error":{"code":7,"message":"m"}}"#, nil, "http://x: m (HTTP 500)"),
        (503, #"{"error":"busy"}"#, nil, "http://x: HTTP 503 (HTTP 503)"),
        (502, "<html>bad gateway</html>", nil, "http://x: HTTP 502 (HTTP 502)"),
        (404, #"{"error":{"code":"not-found","message":"no"}}"#, nil, "http://x: job not found"),
    ])
    func errorAnswersReadTheirCode(_ status: Int, _ body: String, _ code: ServerErrorCode?, _ description: String) {
        let response = HTTPResponse(head: HTTPResponseHead(status: status, headers: []), body: Array(body.utf8))
        let error = ServerConnection.error(response, url: "http://x", what: "job")
        if case let .server(_, answered, read, _) = error {
            #expect(answered == status && read == code)
        } else {
            #expect(status == 404 && code == nil)
        }
        #expect(error.description == description)
    }
}
