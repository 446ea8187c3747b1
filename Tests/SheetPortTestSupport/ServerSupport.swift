import Foundation
import Testing
import SheetPortCore
import SheetPortWriter
import SheetPortClient
import SheetPortServer

/// A real `sheetport serve` on a loopback ephemeral port with its own data directory; with
/// SHEETPORT_TEST_STORE=postgres (Scripts/test.sh's second run of the server suite), on a new
/// database of the test cluster of its own, the data directory then its local scratch.
package final class TestServer {
    package let folder: URL
    package let data: String
    package let arguments: [String]
    /// The shared database this server runs on, or nil for the data directory's SQLite file.
    package let databaseURL: String?
    package private(set) var process: Process
    package private(set) var base: String

    /// Starts the server in `folder/data` with extra `arguments`; waits for its address.
    package init(folder: URL, arguments: [String] = []) throws {
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
    package var storeArguments: [String] {
        guard let url = databaseURL else { return ["--data", data] }
        return ["--database", url] + (arguments.firstIndex(of: "--key-file").map { ["--key-file", arguments[$0 + 1]] } ?? [])
    }

    /// A connection to the server's store (its SQLite file, or its PostgreSQL database).
    package func store() throws -> Database {
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
    package func restart() throws {
        (process, base) = try Self.launch(data: data, log: folder.appendingPathComponent("server.log").path, arguments: arguments)
    }

    package var pid: Int32 { process.processIdentifier }

    /// Issues a token with `sheetport token issue`.
    package func token(_ subject: String) throws -> String {
        let result = try runSheetport(["token", "issue"] + storeArguments + ["--subject", subject])
        #expect(result.status == 0, "\(result.stderr)")
        return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A client for `token` (nil: no Authorization header).
    package func api(_ token: String?) -> API { API(base: base, token: token) }

    /// The server's peak resident memory in KiB (VmHWM).
    package func peakMemoryKiB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// SIGTERM, then waits.
    package func stop() {
        guard process.isRunning else { return }
        kill(pid, SIGTERM)
        process.waitUntilExit()
    }

    /// SIGKILL, then waits.
    package func kill9() {
        kill(pid, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// A temporary folder with a running server in it and a session for "ann"; `close()` stops
/// the server and removes the folder.
package struct ServerFixture {
    package let folder: URL
    package let server: TestServer
    package let api: API

    package init(_ arguments: [String] = []) throws {
        folder = try temporaryFolder()
        server = try TestServer(folder: folder, arguments: arguments)
        api = server.api(try server.token("ann"))
    }

    package func close() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Calls to the server's API for one session, each on a client of the calling thread.
package struct API {
    package let base: String
    package let token: String?

    package init(base: String, token: String?) {
        self.base = base
        self.token = token
    }

    package func call(_ method: String, _ path: String, json: [String: Any]? = nil, body: HTTPRequest.Body = .none,
              headers: [(name: String, value: String)] = [], client: HTTPClient = HTTPClient(timeout: 120)) throws -> HTTPResponse {
        var all = headers
        if let token { all.append(("Authorization", "Bearer \(token)")) }
        var requestBody = body
        if let json {
            requestBody = .bytes(Array(try JSONSerialization.data(withJSONObject: json)))
            all.append(("Content-Type", "application/json"))
        }
        return try client.send(HTTPRequest(method: method, url: base + path, headers: all, body: requestBody))
    }

    /// `GET path` parsed as a JSON object.
    package func object(_ path: String) throws -> [String: Any] {
        let response = try call("GET", path)
        return (try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]) ?? [:]
    }

    /// Uploads the workbook at `path` as `filename`; returns the response.
    package func upload(_ path: String, filename: String? = nil, key: String? = nil, client: HTTPClient = HTTPClient(timeout: 120)) throws -> HTTPResponse {
        var headers: [(name: String, value: String)] = [("X-Filename", filename ?? URL(fileURLWithPath: path).lastPathComponent)]
        if let key { headers.append(("Idempotency-Key", key)) }
        return try call("POST", "/api/imports", body: .file(path), headers: headers, client: client)
    }

    /// Uploads and waits for the job to end; returns the job object.
    package func importWorkbook(_ path: String, filename: String? = nil) throws -> [String: Any] {
        let response = try upload(path, filename: filename)
        try #require(response.status == 202, "upload: \(response.status) \(response.text)")
        let job = try #require(Self.job(response.body))
        return try wait(for: job["id"] as! String)
    }

    /// Imports the workbook at `path`; returns the id of the sheet created (the job must succeed).
    package func importSheet(_ path: String) throws -> String {
        let job = try importWorkbook(path)
        return try #require(((job["result"] as? [String: Any])?["sheet"] as? [String: Any])?["id"] as? String, "\(job)")
    }

    /// Polls a job until it ends (60 s at most).
    package func wait(for id: String, timeout: Double = 60) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let job = try #require(Self.job(try call("GET", "/api/imports/\(id)").body))
            let status = job["status"] as? String ?? ""
            if ["succeeded", "failed", "cancelled"].contains(status) || Date() > deadline { return job }
            usleep(50_000)
        }
    }

    package static func job(_ body: [UInt8]) -> [String: Any]? {
        ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any])?["job"] as? [String: Any]
    }
}

extension HTTPResponse {
    /// The body as a JSON object.
    package var object: [String: Any] { ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]) ?? [:] }
}

/// Strings no workbook machinery would write by itself: they must never be found on disk.
package enum Distinctive {
    package static let cell = "ZEBRA-PLAINTEXT-CELL-7Q41"
    package static let formulaText = "QUOKKA-FORMULA-TEXT-2M"
    package static let comment = "NARWHAL-COMMENT-SECRET-9X"
    package static let all = [cell, formulaText, comment]
}

/// Writes a workbook with values, formulas, dates, kept formatting, a row height, column
/// widths, a comment and the distinctive strings; returns its path.
package func makeStyledWorkbook(in folder: URL, name: String = "styled.xlsx", rows: Int = 40) throws -> String {
    let path = folder.appendingPathComponent(name).path
    let writer = try WorkbookWriter(path: path)
    let bold = try writer.style(CellStyle(isBold: true, horizontalAlignment: "center", fillColor: "#FFEE00", textColor: "#1F3864"))
    let money = try writer.style(CellStyle(isItalic: true, numberFormat: "#,##0.00"))
    let date = try writer.style(CellStyle(numberFormat: "yyyy-mm-dd"))
    let sheet = try writer.addWorksheet(named: "Data")
    try sheet.setColumnWidth(24, for: 1...1)
    try sheet.setColumnWidth(12.5, for: 2...3)
    try sheet.append(Row(index: 1, height: 24, cells: [
        Cell(column: 1, value: .string(Distinctive.cell), styleIndex: bold),
        Cell(column: 2, value: .string("Amount"), styleIndex: bold),
        Cell(column: 3, value: .string("When"), styleIndex: bold)]))
    for index in 2...rows {
        try sheet.append(Row(index: index, cells: [
            Cell(column: 1, value: .string("item \(index)")),
            Cell(column: 2, value: .number(Double(index) * 1.25), styleIndex: money),
            Cell(column: 3, value: .date(serial: 45_000 + Double(index)), styleIndex: date),
            Cell(column: 4, value: .number(Double(index) * 2.5), formula: "B\(index)*2"),
            Cell(column: 5, value: .string(Distinctive.formulaText), formula: "\"\(Distinctive.formulaText)\""),
            Cell(column: 6, value: .boolean(index % 2 == 0)),
        ]))
    }
    try sheet.addComment(Distinctive.comment, author: "Ann", row: 2, column: 2)
    try writer.close()
    return path
}

/// Every regular file under `folder`, recursively.
package func filesUnder(_ folder: String) -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
    return enumerator.compactMap { $0 as? String }.map { folder + "/" + $0 }.filter {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue
    }
}

/// Whether `folder` (a data directory's staging or exports) is empty within `seconds`. A job's
/// staged upload goes just after the transaction that ends the job, so a client may see the
/// end a moment before the file goes (a crash in between leaves it to the next start's sweep).
package func isEmptySoon(_ folder: String, within seconds: Double = 10) -> Bool {
    eventually(within: seconds) { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).isEmpty }
}
