import Foundation
import Testing
import SheetPortCore
import SheetPortWriter
import SheetPortClient
import SheetPortServer
import SheetPortReader
import SheetPortConvert

/// A real server (the SheetPortServer library, as `sheetport serve` runs it) in the test process,
/// on a loopback ephemeral port, with its own data directory and its log in `folder/server.log`;
/// with SHEETPORT_TEST_STORE=postgres (Scripts/test.sh's second run of the server suite), on a
/// new database of the test cluster of its own, the data directory then its local scratch.
/// Everything a server keeps is its own (its log, its key, its store's sessions), so servers of
/// tests running in parallel share nothing but the process.
package final class TestServer {
    package let folder: URL
    package let data: String
    /// The configuration every start uses (the address and the log aside).
    package let configuration: ServerConfiguration
    /// The shared database this server runs on, or nil for the data directory's SQLite file.
    package var databaseURL: String? { configuration.databaseURL }
    /// The sealing key file (`seal.key` in the data directory unless the configuration names one).
    package var keyFile: String { configuration.keyFile ?? data + "/seal.key" }
    /// The running server, or nil once stopped.
    package private(set) var server: SheetServer?
    package private(set) var base = ""
    private var log: (log: ServerLog, file: FileHandle)?

    /// Starts the server in `folder/data` with the configuration `configure` makes of the default.
    package init(folder: URL, configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        self.folder = folder
        data = folder.appendingPathComponent("data").path
        var configuration = ServerConfiguration(dataDirectory: data, address: ListenAddress(host: "127.0.0.1", port: 0))
        configure(&configuration)
        if PostgresCluster.runsServerSuite && configuration.databaseURL == nil {
            configuration.databaseURL = try PostgresCluster.createDatabase()
            configuration.keyFile = folder.appendingPathComponent("seal.key").path
        }
        self.configuration = configuration
        Self.prepareProcess
        try start()
    }

    /// What `sheetport serve` sets for its process, set once for the test process: a write to
    /// a closed socket fails with EPIPE instead of ending the process, and as many descriptors
    /// as the system allows (servers and their clients share them here).
    private static let prepareProcess: Void = {
        signal(SIGPIPE, SIG_IGN)
        var files = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &files) == 0, files.rlim_cur < files.rlim_max {
            files.rlim_cur = files.rlim_max
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &files)
        }
    }()

    /// Starts a server on the data directory, its log appended to `folder/server.log`; a
    /// start that fails throws its error (the log closed).
    private func start() throws {
        let path = folder.appendingPathComponent("server.log").path
        if !FileManager.default.fileExists(atPath: path) { FileManager.default.createFile(atPath: path, contents: nil) }
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        file.seekToEndOfFile()
        let log = ServerLog(descriptor: file.fileDescriptor)
        var configuration = configuration
        configuration.log = log
        do {
            let server = try SheetServer(configuration: configuration)
            self.server = server
            self.log = (log, file)
            base = "http://127.0.0.1:\(server.port)"
        } catch {
            log.close()
            try? file.close()
            throw error
        }
    }

    /// Starts the server again on the same data directory (after `stop()`), on another port.
    package func restart() throws {
        stop()
        try start()
    }

    /// A connection to the server's store (its SQLite file, or its PostgreSQL database).
    package func store() throws -> Database {
        try databaseURL.map { try StoreLocation.postgres(url: $0).connect() } ?? Database(path: data + "/sheetport.db")
    }

    /// Issues a token for `subject` in the server's store (what `sheetport token issue` does).
    package func token(_ subject: String) throws -> String {
        try Tokens.issue(subject: subject, in: store())
    }

    /// Revokes every token of `subject` (`sheetport token revoke --subject`); how many.
    @discardableResult
    package func revoke(subject: String) throws -> Int {
        try Tokens.revoke(subject: subject, in: store())
    }

    /// Revokes `token` (`sheetport token revoke --token-file`); whether it was live.
    @discardableResult
    package func revoke(token: String) throws -> Bool {
        try Tokens.revoke(token: token, in: store())
    }

    /// A client for `token` (nil: no Authorization header).
    package func api(_ token: String?) -> API { API(base: base, token: token) }

    /// Stops the server as SIGTERM stops `sheetport serve` (a running import resumes at the
    /// next start), then closes its log.
    package func stop() {
        server?.stop()
        server = nil
        if let (log, file) = log {
            log.close()
            try? file.close()
            self.log = nil
        }
    }

    deinit { stop() }
}

/// A temporary folder with a running server in it and a session for "ann"; `close()` stops
/// the server and removes the folder.
package struct ServerFixture {
    package let folder: URL
    package let server: TestServer
    package let api: API

    package init(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        folder = try temporaryFolder()
        server = try TestServer(folder: folder, configure: configure)
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

extension API {
    /// `GET path` of a view, parsed: the status, the source rows in view order, `next` and `total`.
    package func view(_ sheet: String, _ query: String) throws -> (status: Int, rows: [[String: Any]], next: Int?, total: Int?, text: String) {
        let response = try call("GET", "/api/sheets/\(sheet)/view?\(query)")
        let object = response.object
        return (response.status, object["rows"] as? [[String: Any]] ?? [], object["next"] as? Int, object["total"] as? Int, response.text)
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
