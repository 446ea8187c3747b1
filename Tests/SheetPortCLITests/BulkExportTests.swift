import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortWriter
@testable import SheetPortClient
import SheetPortTestSupport
@testable import SheetPortConvert
@testable import SheetPortServer

/// Bulk export from a real `sheetport serve`: 50 sheets, 4 at a time, each file opened with
/// the reader and compared with the server's row windows.
@Suite struct BulkExportTests {
    @Test func fiftySheetsWithConcurrencyFourMatchTheServersRowWindows() throws {
        let server = try ClientFixture()
        defer { server.stop() }
        let connection = try server.connection(subject: "alice")
        let tokenFile = try server.tokenFile(subject: "alice")
        let books = server.folder.appendingPathComponent("books")
        try FileManager.default.createDirectory(at: books, withIntermediateDirectories: true)
        for index in 1...50 {
            let path = books.appendingPathComponent("book\(index).xlsx").path
            let writer = try WorkbookWriter(path: path)
            let sheet = try writer.addWorksheet(named: index % 10 == 0 ? "Shared name" : "Sheet \(index)")
            for row in 1...(200 + index * 10) {
                try sheet.append(Row(index: row, cells: [
                    Cell(column: 1, value: .number(Double(index * 100_000 + row))),
                    Cell(column: 2, value: .string("sheet \(index) row \(row)")),
                    Cell(column: 3, value: .number(Double(row) / 7)),
                    Cell(column: 4, value: .boolean(row % 2 == 0)),
                ]))
            }
            try writer.close()
            _ = try server.importWorkbook(path, as: connection)
        }
        let out = server.folder.appendingPathComponent("export")
        let started = Date()
        let result = try runSheetport(["export", "--all", "--concurrency", "4", "--json", "--no-progress",
                                       "--server", server.url, "--token-file", tokenFile, "--out", out.path])
        let seconds = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try jsonObjects(String(decoding: result.stdout, as: UTF8.self))
        #expect(lines.count == 50)
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".xlsx") }
        #expect(files.count == 50)
        var bytes = 0
        let client = HTTPClient()
        for line in lines {
            #expect(line["status"] as? String == "ok", "\(line)")
            let file = try #require(line["file"] as? String), id = try #require(line["id"] as? String)
            bytes += line["bytes"] as? Int ?? 0
            try expectSameValues(file: file, sheetID: id, connection: connection, client: client)
        }
        let megabytes = Double(bytes) / 1e6
        print(String(format: "bulk export: 50 sheets, %.2f MB in %.2f s with --concurrency 4: %.1f sheets/s, %.2f MB/s",
                     megabytes, seconds, 50 / seconds, megabytes / seconds))
    }

    /// The cells of the exported file against `GET /api/sheets/{id}/rows` windows.
    private func expectSameValues(file: String, sheetID: String, connection: ServerConnection, client: HTTPClient) throws {
        var server: [String: WindowValue] = [:]
        var start: Int? = 1
        while let first = start {
            let response = try client.send(connection.request("GET", "/api/sheets/\(sheetID)/rows?start=\(first)&count=500"))
            #expect(response.status == 200)
            // JSONDecoder, not JSONSerialization: on Linux the latter rounds some doubles.
            let window = try JSONDecoder().decode(Window.self, from: Data(response.body))
            for row in window.rows {
                for cell in row.cells { server["\(row.row):\(cell.col)"] = cell.value ?? .null }
            }
            start = window.next
        }
        let workbook = try Workbook(path: file)
        let rows = try workbook.rows(of: try #require(workbook.firstWorksheet))
        var count = 0
        while let row = try rows.nextRow() {
            for cell in row.cells {
                count += 1
                let key = "\(row.index):\(cell.column)"
                switch cell.value {
                case .number(let number): #expect(server[key] == .number(number), "\(file) \(key)")
                case .string(let text): #expect(server[key] == .string(text), "\(file) \(key)")
                case .boolean(let flag): #expect(server[key] == .boolean(flag), "\(file) \(key)")
                default: Issue.record("\(file) \(key): unexpected \(cell.value)")
                }
            }
        }
        #expect(count == server.count, "\(file): \(count) cells, the server has \(server.count)")
    }
}

/// A row window of `GET /api/sheets/{id}/rows` (the keys the comparison needs).
private struct Window: Decodable {
    struct Row: Decodable {
        let row: Int
        let cells: [Cell]
    }
    struct Cell: Decodable {
        let col: Int
        let value: WindowValue?
    }
    let rows: [Row]
    let next: Int?
}

/// A cell's `value`: a JSON boolean, number, string or null.
private enum WindowValue: Decodable, Equatable {
    case boolean(Bool), number(Double), string(String), null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let flag = try? container.decode(Bool.self) { self = .boolean(flag) }
        else if let number = try? container.decode(Double.self) { self = .number(number) }
        else { self = .string(try container.decode(String.self)) }
    }
}

/// `sheetport demo`, the README's first command.
@Suite struct DemoTests {
    @Test func demoRunsAndLeavesNothingBehind() throws {
        let temporary = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: temporary) }
        let (process, output, errors) = try startSheetport(["demo", "--no-progress"], environment: ["TMPDIR": temporary.path])
        let result = finish(process, output, errors)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("== summary"))
        #expect(result.stdout.contains("the cells uploaded and the one the edit added"), "\(result.stdout)")
        // The server computed the edit: I1 = SUM(F2:F2001) of the bundled rows with D2 = 100,
        // summed here from the rows' own rule (DemoWorkbook), not from the server.
        var total = 0.0
        for index in 1...2_000 {
            let quantity = index == 1 ? 100.0 : Double(index % 17 + 1)
            total += quantity * (Double((index * 37) % 1000) / 4 + 0.25)
        }
        let line = result.stdout.split(separator: "\n").first { $0.hasPrefix("I1\t") }
        let shown = line.flatMap { Double($0.split(separator: "\t")[1]) }
        #expect(shown.map { abs($0 - total) < 1e-6 * total } == true, "I1 should be \(total): \(line ?? "no I1 line")")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    }

    /// SIGTERM once the demo's server runs stops that server too (it is in a process group of
    /// its own), and the next run sweeps the folder left behind.
    @Test func aSignalStopsTheDemosServer() throws {
        let temporary = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: temporary) }
        func servers() -> [Int32] {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }.filter { pid in
                let command = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
                let text = String(decoding: command, as: UTF8.self)
                return text.contains("serve") && text.contains(temporary.path)
            }
        }
        let (process, output, errors) = try startSheetport(["demo", "--no-progress"], environment: ["TMPDIR": temporary.path])
        #expect(eventually { !servers().isEmpty || !process.isRunning })
        kill(process.processIdentifier, SIGTERM)
        let result = finish(process, output, errors)
        #expect(result.status == 143, "\(result.stderr)")
        #expect(eventually(within: 10) { servers().isEmpty }, "the demo's server is still running")
        let again = try startSheetport(["demo", "--no-progress"], environment: ["TMPDIR": temporary.path])
        #expect(finish(again.0, again.1, again.2).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    }

    /// The set-up table's first command is the demo script, and the script runs `sheetport demo`
    /// after setting up and building.
    @Test func theReadmesFirstCommandIsTheDemo() throws {
        let readme = try String(contentsOf: Project.root.appendingPathComponent("README.md"), encoding: .utf8)
        let setUp = try #require(readme.components(separatedBy: "## Set-up").dropFirst().first)
        let firstRow = try #require(setUp.split(separator: "\n").first { $0.hasPrefix("| ") && !$0.hasPrefix("| what") })
        #expect(firstRow.contains("`Scripts/demo.sh`"), "\(firstRow)")
        let script = try String(contentsOf: Project.root.appendingPathComponent("Scripts/demo.sh"), encoding: .utf8)
        #expect(script.contains("Scripts/setup.sh") && script.contains("swift build") && script.contains("demo"))
    }
}
