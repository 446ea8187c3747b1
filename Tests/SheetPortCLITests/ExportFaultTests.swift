import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortClient
import SheetPortTestSupport
@testable import SheetPortConvert
@testable import SheetPortServer

/// Faults in the middle of exporting a large sheet from a real `sheetport serve`: SIGINT,
/// SIGTERM, the server killed, a full disk. Each time: the right exit status, no staging
/// directory left under $TMPDIR, the destination file as it was.
@Suite(.serialized) struct ExportFaultTests {
    /// A server holding one large imported sheet, a private $TMPDIR, and an export folder whose
    /// destination file already holds "previous".
    private struct Setup {
        let server: ClientFixture
        let tokenFile: String
        let temporary: URL
        let output: URL
        let destination: URL
        let sheet: RemoteSheet

        init(rows: Int = 4_500) throws {
            server = try ClientFixture()
            let connection = try server.connection(subject: "alice")
            tokenFile = try server.tokenFile(subject: "alice")
            let book = try makeTextWorkbook(rows: rows, in: server.folder)
            sheet = try server.importWorkbook(book, as: connection)
            temporary = server.folder.appendingPathComponent("tmp")
            output = server.folder.appendingPathComponent("out")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            destination = output.appendingPathComponent(FileNames.unique(for: [sheet.name], fileExtension: "xlsx")[0])
            try Data("previous".utf8).write(to: destination)
        }

        /// The export, slowed to 2 MB/s so that the download is long enough to be interrupted.
        var arguments: [String] {
            ["export", sheet.id, "--server", server.url, "--token-file", tokenFile, "--out", output.path, "--no-progress",
             "--max-speed", "2M"]
        }

        /// The export, through `relay` instead of straight to the server.
        func arguments(through relay: DroppingRelay) -> [String] {
            arguments.map { $0 == server.url ? "http://127.0.0.1:\(relay.port)" : $0 }
        }

        /// A relay in front of the server that breaks the export's download at 300 KB.
        func relay(_ fault: DroppingRelay.Fault) throws -> DroppingRelay {
            try DroppingRelay(targetPort: server.port, cutting: "GET /api/sheets/\(sheet.id)/export.xlsx", afterBytes: 300_000,
                              fault: fault)
        }

        /// Starts `sheetport` (the export unless `arguments` are given) with the private $TMPDIR.
        func start(_ arguments: [String]? = nil, shell: String? = nil) throws -> (Process, Pipe, Pipe) {
            try startSheetport(arguments ?? self.arguments, environment: ["TMPDIR": temporary.path], shell: shell)
        }

        /// Whether a staging file under the private $TMPDIR has bytes; checks the modes then.
        func transferInFlight() -> Bool {
            for directory in exportStaging(in: temporary) {
                let file = directory.appendingPathComponent("workbook.xlsx")
                guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
                      (attributes[.size] as? Int ?? 0) > 0 else { continue }
                #expect(attributes[.posixPermissions] as? Int == 0o600, "staging file mode")
                #expect((try? FileManager.default.attributesOfItem(atPath: directory.path))?[.posixPermissions] as? Int == 0o700,
                        "staging directory mode")
                return true
            }
            return false
        }

        /// Nothing staged is left and the destination is untouched.
        func expectCleanedUp() throws {
            #expect(exportStaging(in: temporary).isEmpty, "staging left: \(exportStaging(in: temporary))")
            #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == [destination.lastPathComponent])
            #expect(try String(contentsOf: destination, encoding: .utf8) == "previous")
        }
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalDuringExportLeavesNoStagingAndTheDestinationUnchanged(_ signal: Int32, _ status: Int32) throws {
        let setup = try Setup(rows: 1_000)
        defer { setup.server.stop() }
        // The download stalls at 300 KB, so it is surely in flight when the signal comes.
        let stalling = try setup.relay(.stall)
        let (process, output, errors) = try setup.start(setup.arguments(through: stalling))
        let inFlight = eventually(within: 120) { !process.isRunning || setup.transferInFlight() }
        #expect(inFlight && process.isRunning, "the export ended before it could be interrupted")
        kill(process.processIdentifier, signal)
        let result = finish(process, output, errors)
        #expect(result.status == status, "\(result.stdout)\n\(result.stderr)")
        try setup.expectCleanedUp()
    }

    /// Staging directory 0700 and file 0600, looked at while the download is being written.
    @Test func stagingModesWhileATransferIsInFlight() throws {
        let setup = try Setup()
        defer { setup.server.stop() }
        let (process, output, errors) = try setup.start()
        var seen = false
        _ = eventually(within: 120) { seen = setup.transferInFlight(); return seen || !process.isRunning }
        #expect(seen, "no transfer was seen in flight")
        let result = finish(process, output, errors)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(exportStaging(in: setup.temporary).isEmpty)
        #expect(try Workbook(path: setup.destination.path).firstWorksheet != nil)
    }

    /// The server dies 300 KB into the download: the connection is cut there and every retry is
    /// refused (a relay that stops listening as it cuts, the real server stopped too). The sheet
    /// fails after its retries, and nothing staged is left.
    @Test func serverKilledMidDownloadLeavesNoStagingAndTheDestinationUnchanged() throws {
        let setup = try Setup(rows: 1_000)
        defer { setup.server.stop() }
        let relay = try setup.relay(.cutAndRefuse)
        let (process, output, errors) = try setup.start(setup.arguments(through: relay) + ["--retries", "2"])
        #expect(eventually(within: 120) { relay.dropped || !process.isRunning }, "the relay never cut the download")
        setup.server.server.stop()
        let result = finish(process, output, errors)
        #expect(relay.dropped, "the relay never cut the download")
        #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("failed"), "\(result.stdout)")
        try setup.expectCleanedUp()
    }

    /// Faults that fail the transfer itself: a full disk, as `ulimit -f` makes one (SIGXFSZ
    /// ignored, so writes fail with EFBIG), and a download outlasting `--timeout` (it stalls at
    /// 300 KB, every try). The sheet fails (exit 1) saying why, and nothing staged is left.
    enum TransferFault: String, CaseIterable, CustomTestStringConvertible {
        case fullDisk, timeout
        var testDescription: String { rawValue }
    }

    @Test(arguments: TransferFault.allCases)
    func failedTransferLeavesNoStagingAndTheDestinationUnchanged(_ fault: TransferFault) throws {
        let setup = try Setup(rows: 1_000)
        defer { setup.server.stop() }
        let stalling = try setup.relay(.stall)
        let (process, output, errors) = switch fault {
        case .fullDisk: try setup.start(shell: "ulimit -f 256 && exec \"$0\" \"$@\"")
        case .timeout: try setup.start(setup.arguments(through: stalling) + ["--timeout", "1", "--retries", "1"])
        }
        let result = finish(process, output, errors)
        #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains(fault == .fullDisk ? "File too large" : "timed out"), "\(result.stdout)")
        try setup.expectCleanedUp()
    }

    /// A download broken off in the middle (a real TCP relay cuts the connection after 300 KB
    /// of the answer) is retried and completes: the sheet is published whole and verified.
    @Test func aDownloadBrokenOffMidwayIsRetriedAndCompletes() throws {
        let setup = try Setup(rows: 1_000)
        defer { setup.server.stop() }
        let relay = try setup.relay(.cut)
        let (process, output, errors) = try setup.start(setup.arguments(through: relay))
        let result = finish(process, output, errors)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(relay.dropped, "the relay never cut the download")
        #expect(exportStaging(in: setup.temporary).isEmpty)
        let rows = try Workbook(path: setup.destination.path).rows(of: try #require(Workbook(path: setup.destination.path).firstWorksheet))
        var count = 0
        while try rows.nextRow() != nil { count += 1 }
        #expect(count == 1_000)
    }
}
