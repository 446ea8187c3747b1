import Foundation
import Testing
import SheetPortTestSupport
import SheetPortServer

/// `import --wait` follows the job's event stream on the real server, and polls when the
/// stream breaks or is refused.
@Suite(.serialized) struct EventStreamTests {
    typealias Setup = EventStreamFixture

    @Test func importWaitFollowsTheStream() throws {
        let setup = try Setup { $0.eventStreams.perSubject = 1 }
        defer { setup.close() }
        let book = try makeLargeWorkbook(rows: 40_000, in: setup.fixture.folder)
        let tokenFile = setup.fixture.folder.appendingPathComponent("ann.token").path
        try setup.fixture.api.token!.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = Project.executable
        process.arguments = ["import", book, "--server", setup.server.base, "--token-file", tokenFile, "--wait", "--json"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // While it waits, ann's one stream is taken: the client follows the job's stream.
        var sawTaken = false
        for _ in 0..<300 where process.isRunning && !sawTaken {
            usleep(50_000)
            let probe = try setup.stream(setup.fixture.api.token!)
            sawTaken = probe.status == 429
            probe.close()
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(sawTaken)
        #expect(process.terminationStatus == 0)
        #expect(text.contains("\"succeeded\""))
    }

    @Test func importWaitFallsBackToPollingWhenTheStreamBreaks() throws {
        let setup = try Setup()
        defer { setup.close() }
        // The job's stream is cut a few bytes into its answer; polling takes the job to its end.
        let relay = try DroppingRelay(targetPort: Int(setup.port), cutting: "GET /api/imports/", afterBytes: 300)
        let book = try makeLargeWorkbook(rows: 20_000, in: setup.fixture.folder)
        let tokenFile = setup.fixture.folder.appendingPathComponent("ann.token").path
        try setup.fixture.api.token!.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let result = try runSheetport(["import", book, "--server", "http://127.0.0.1:\(relay.port)", "--token-file", tokenFile,
                                       "--wait", "--json"])
        #expect(relay.dropped)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("\"succeeded\""))
    }

    @Test func importWaitFallsBackToPollingWhenTheStreamIsRefused() throws {
        let setup = try Setup { $0.eventStreams.total = 1 }
        defer { setup.close() }
        let holder = try setup.stream(setup.bobToken) // takes the only place: ann's stream gets 503
        #expect(holder.status == 200)
        let book = try makeStyledWorkbook(in: setup.fixture.folder, name: "again.xlsx")
        let tokenFile = setup.fixture.folder.appendingPathComponent("ann.token").path
        try setup.fixture.api.token!.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let result = try runSheetport(["import", book, "--server", setup.server.base, "--token-file", tokenFile, "--wait", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("\"succeeded\""))
        holder.close()
    }
}
