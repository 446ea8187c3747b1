import Foundation
import Testing
import SheetPortServer
import SheetPortTestSupport

/// A real `sheetport serve` process on a loopback ephemeral port with its own data directory,
/// its standard error in `folder/server.log`, for what only a process shows (SIGKILL and a
/// restart, SIGHUP, SIGSTOP, its peak memory, its exit status); with
/// SHEETPORT_TEST_STORE=postgres (Scripts/test.sh's second run of the server suite), on a new
/// database of the test cluster of its own, the data directory then its local scratch.
final class ServeProcess {
    let folder: URL
    let data: String
    let arguments: [String]
    /// The shared database this server runs on, or nil for the data directory's SQLite file.
    let databaseURL: String?
    private(set) var process: Process
    private(set) var base: String

    /// Starts the server in `folder/data` with extra `arguments`; waits for its address.
    init(folder: URL, arguments: [String] = []) throws {
        self.folder = folder
        data = folder.appendingPathComponent("data").path
        if PostgresCluster.runsServerSuite && !arguments.contains("--database") {
            let url = try PostgresCluster.createDatabase()
            databaseURL = url
            self.arguments = arguments + ["--database", url, "--key-file", folder.appendingPathComponent("seal.key").path]
        } else {
            databaseURL = arguments.firstIndex(of: "--database").map { arguments[$0 + 1] }
            self.arguments = arguments
        }
        (process, base) = try Self.launch(data: data, log: folder.appendingPathComponent("server.log").path, arguments: self.arguments)
    }

    /// `--data DIR` or `--database URL --key-file F`: where `sheetport token` and `key` find this
    /// server's store, and the key it is sealed with.
    var storeArguments: [String] {
        guard let url = databaseURL else { return ["--data", data] }
        return ["--database", url] + (arguments.firstIndex(of: "--key-file").map { ["--key-file", arguments[$0 + 1]] } ?? [])
    }

    /// A connection to the server's store (its SQLite file, or its PostgreSQL database).
    func store() throws -> Database {
        try databaseURL.map { try StoreLocation.postgres(url: $0).connect() } ?? Database(path: data + "/sheetport.db")
    }

    private static func launch(data: String, log: String, arguments: [String]) throws -> (Process, String) {
        let process = Process()
        process.executableURL = Project.executable
        process.arguments = ["serve", "--data", data, "--listen", "127.0.0.1:0"] + arguments
        let output = Pipe()
        process.standardOutput = output
        if !FileManager.default.fileExists(atPath: log) { FileManager.default.createFile(atPath: log, contents: nil) }
        let logHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        logHandle.seekToEndOfFile()
        process.standardError = logHandle
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw ServerError.startFailed("the server ended: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")") }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("listening on ") else { throw ServerError.startFailed(text) }
        return (process, String(text.dropFirst("listening on ".count)))
    }

    /// Starts the server again on the same data directory (after `stop()` or `kill9()`).
    func restart() throws {
        (process, base) = try Self.launch(data: data, log: folder.appendingPathComponent("server.log").path, arguments: arguments)
    }

    var pid: Int32 { process.processIdentifier }

    /// Issues a token with `sheetport token issue`.
    func token(_ subject: String) throws -> String {
        let result = try runSheetport(["token", "issue"] + storeArguments + ["--subject", subject])
        #expect(result.status == 0, "\(result.stderr)")
        return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A client for `token` (nil: no Authorization header).
    func api(_ token: String?) -> API { API(base: base, token: token) }

    /// The server's peak resident memory in KiB (VmHWM).
    func peakMemoryKiB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// SIGTERM, then waits.
    func stop() {
        guard process.isRunning else { return }
        kill(pid, SIGTERM)
        process.waitUntilExit()
    }

    /// SIGKILL, then waits.
    func kill9() {
        kill(pid, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// A temporary folder with a running `sheetport serve` in it and a session for "ann"; `close()` stops
/// the server and removes the folder.
struct ServeProcessFixture {
    let folder: URL
    let server: ServeProcess
    let api: API

    init(_ arguments: [String] = []) throws {
        folder = try temporaryFolder()
        server = try ServeProcess(folder: folder, arguments: arguments)
        api = server.api(try server.token("ann"))
    }

    func close() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

extension SharedDeployment {
    /// Starts a `sheetport serve` instance named `name` on the shared database with extra
    /// `arguments`; the caller stops it.
    func startProcess(_ name: String, _ arguments: [String] = []) throws -> ServeProcess {
        let instance = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: instance, withIntermediateDirectories: true)
        return try ServeProcess(folder: instance, arguments: ["--database", url, "--key-file", keyFile] + arguments)
    }
}
