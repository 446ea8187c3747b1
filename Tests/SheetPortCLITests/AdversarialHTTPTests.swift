import Foundation
import Testing
@testable import SheetPortClient
import SheetPortTestSupport

/// The HTTP layer's hostile cases that only a `sheetport serve` process shows: SIGTERM while
/// waits are parked, and a standard error nobody reads.
@Suite(.serialized) struct AdversarialHTTPTests {
    /// A `sheetport serve` with one imported sheet of ann's; its id.
    private func sheetFixture() throws -> (ServeProcessFixture, String) {
        let fixture = try ServeProcessFixture()
        let sheet = try fixture.api.importSheet(try makeStyledWorkbook(in: fixture.folder, rows: 20))
        return (fixture, sheet)
    }

    /// SIGTERM while waits are parked stops the server at once and cleanly (exit 143), and no
    /// waiting client is left hanging.
    @Test func stopsWhileWaitsAreParked() throws {
        let (fixture, sheet) = try sheetFixture()
        defer { fixture.close() }
        let (waits, outcomes) = startExports(5, of: sheet, minVersion: 999, as: fixture.api)
        usleep(300_000)
        let asked = Date()
        kill(fixture.server.pid, SIGTERM)
        let deadline = Date().addingTimeInterval(10)
        while fixture.server.process.isRunning && Date() < deadline { usleep(20_000) }
        #expect(!fixture.server.process.isRunning, "the server did not stop")
        if fixture.server.process.isRunning { fixture.server.kill9() }
        #expect(Date().timeIntervalSince(asked) < 5)
        #expect(fixture.server.process.terminationStatus == 143)
        #expect(waits.wait(timeout: .now() + 20) == .success)
        #expect(outcomes.items.count == 5)
        let log = (try? String(contentsOf: fixture.folder.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
        #expect(!log.contains("suspended"), "\(log)")
    }

    /// `serve` whose standard error is a pipe nobody reads (closed): libmicrohttpd's log line
    /// for a cut-off upload fails to be written (EPIPE), and the server serves on (SIGPIPE is
    /// ignored, not fatal).
    @Test func closedStandardErrorDoesNotKillTheServer() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let issued = try runSheetport(["token", "issue", "--data", data, "--subject", "ann"])
        let token = String(decoding: issued.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let process = Process()
        process.executableURL = Project.executable
        process.arguments = ["serve", "--data", data, "--listen", "127.0.0.1:0", "--max-upload-bytes", "64K"]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        errors.fileHandleForReading.closeFile()
        var line = Data()
        let started = Date()
        while !line.contains(0x0A), Date().timeIntervalSince(started) < 30 {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let base = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(base.hasPrefix("listening on "), "\(base)")
        let port = RawConnection.port(of: String(base.dropFirst("listening on ".count)))
        for _ in 0..<3 {
            let (_, answer) = try sendChunked("POST /api/imports HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nX-Filename: a.xlsx\r\n",
                                              port: port)
            #expect(answer.status == 413)
        }
        #expect(process.isRunning, "the server died writing to a closed stderr")
        #expect(secondsToServe(port: port, from: "127.0.0.1", timeout: 10) != nil)
    }
}
