import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortClient
import SheetPortTestSupport
@testable import SheetPortReader
@testable import SheetPortConvert
@testable import SheetPortServer

/// Import against a real `sheetport serve`: a dropped connection, another subject's job,
/// and the client's memory while uploading 200 MB.
@Suite(.serialized) struct ImportFaultTests {
    /// The connection carrying the upload is cut (through a real TCP relay) after the server has
    /// the whole workbook and answers; the client retries with the same Idempotency-Key and
    /// the server has one job, not two.
    @Test func droppedConnectionDuringUploadIsRetriedWithoutASecondJob() throws {
        let server = try ClientFixture()
        defer { server.stop() }
        let book = try makeLargeWorkbook(rows: 2_000, in: server.folder)
        let tokenFile = try server.tokenFile(subject: "alice")
        let relay = try DroppingRelay(targetPort: server.port)
        let result = try runSheetport(["import", book, "--server", "http://127.0.0.1:\(relay.port)", "--token-file", tokenFile,
                                       "--wait", "--json", "--no-progress"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(relay.dropped, "the relay never cut a connection")
        let connection = try ServerConnection(url: server.url, token: try ServerConnection.token(file: tokenFile))
        let jobs = try connection.jobs(client: HTTPClient())
        #expect(jobs.count == 1, "jobs: \(jobs.map(\.id))")
        #expect(try connection.sheets(client: HTTPClient()).count == 1)
    }

    /// The upload is streamed from disk: a 200 MB workbook keeps the client under 64 MB.
    @Test func uploadOf200MBKeepsPeakMemoryUnder64MB() throws {
        let server = try ClientFixture()
        defer { server.stop() }
        let book = try makeBulkyWorkbook(megabytes: 200, in: server.folder)
        let tokenFile = try server.tokenFile(subject: "alice")
        let (process, output, errors) = try startSheetport(
            ["import", book, "--server", server.url, "--token-file", tokenFile, "--no-progress"],
            shell: "exec /usr/bin/time -f 'peak-kb %M' \"$0\" \"$@\"")
        let result = finish(process, output, errors)
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stderr.split(separator: "\n").last { $0.hasPrefix("peak-kb ") })
        let kilobytes = try #require(Int(line.dropFirst("peak-kb ".count)))
        print("upload of a 200 MB workbook: client peak memory \(kilobytes / 1024) MB (VmHWM through /usr/bin/time)")
        #expect(kilobytes < 64 * 1024)
    }

    /// Ctrl-C (or SIGTERM) while `--wait` follows a job cancels it: exit 130 (143), the job
    /// ends cancelled and no sheet is left; with `--detach` the job goes on to its end.
    @Test(arguments: [(SIGINT, Int32(130), false), (SIGTERM, Int32(143), false), (SIGINT, Int32(130), true)])
    func signalWhileWaitingCancelsTheJobUnlessDetached(_ signal: Int32, _ status: Int32, _ detach: Bool) throws {
        let server = try ClientFixture()
        defer { server.stop() }
        let book = try makeLargeWorkbook(rows: 30_000, in: server.folder)
        let tokenFile = try server.tokenFile(subject: "alice")
        let connection = try ServerConnection(url: server.url, token: try ServerConnection.token(file: tokenFile))
        let client = HTTPClient()
        let (process, output, errors) = try startSheetport(["import", book, "--server", server.url, "--token-file", tokenFile,
                                                            "--wait", "--no-progress"] + (detach ? ["--detach"] : []))
        let waiting = eventually { !process.isRunning || (try? connection.jobs(client: client).first.map { !$0.status.isFinal }) == true }
        #expect(waiting && process.isRunning, "the import ended before it could be interrupted")
        kill(process.processIdentifier, signal)
        let result = finish(process, output, errors)
        #expect(result.status == status, "\(result.stderr)")
        let job = try #require(try connection.jobs(client: client).first)
        if detach {
            #expect(result.stderr.contains("continues"), "\(result.stderr)")
            let done = try JobPoller(connection: connection, jobID: job.id).wait(client: client)
            #expect(done.status == .succeeded)
            #expect(try connection.sheets(client: client).count == 1)
        } else {
            #expect(result.stderr.contains("cancelled"), "\(result.stderr)")
            #expect(job.status == .cancelled)
            #expect(eventually(within: 10) { (try? connection.sheets(client: client).isEmpty) == true })
        }
    }
}
