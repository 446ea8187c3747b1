import Foundation
import Testing
@testable import SheetPortClient
import SheetPortTestSupport

/// `sheetport serve`'s log never blocks a request or shutdown (issue 23): with standard error
/// a pipe nobody reads, requests that log still answer and SIGTERM ends the server promptly.
@Suite struct ServerLogTests {
    @Test func unreadStandardErrorBlocksNoRequestAndNoShutdown() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let process = Process()
        process.executableURL = Project.executable
        process.arguments = ["serve", "--data", data, "--listen", "127.0.0.1:0"]
        let output = Pipe(), unread = Pipe()
        process.standardOutput = output
        process.standardError = unread // never read: it fills after 64 KiB
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            try #require(!chunk.isEmpty, "the server ended")
            line.append(chunk)
        }
        let base = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "listening on ", with: "")
        let token = try runSheetport(["token", "issue", "--data", data, "--subject", "ann"])
        try #require(token.status == 0, "\(token.stderr)")
        let api = API(base: base, token: String(decoding: token.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))

        // Each refused control character logs a line of about 250 bytes: 1,500 of them are
        // several times what the pipe holds. A hostile value: an escape that would drive a terminal.
        let value = String(repeating: "x", count: 180) + "%1B%5B2J%0A"
        let client = HTTPClient(timeout: 10)
        let start = Date()
        for index in 0..<1500 {
            let response = try api.call("GET", "/api/sheets?q\(index)=\(value)", client: client)
            try #require(response.status == 400, "request \(index): \(response.status)")
        }
        #expect(try api.call("GET", "/api/sheets", client: client).status == 200)
        print(String(format: "1,500 logged requests with standard error unread: %.2f s", Date().timeIntervalSince(start)))

        let stop = Date()
        kill(process.processIdentifier, SIGTERM)
        while process.isRunning && Date().timeIntervalSince(stop) < 10 { usleep(20_000) }
        let seconds = Date().timeIntervalSince(stop)
        #expect(!process.isRunning && seconds < 3, "SIGTERM took \(seconds) s")
        if !process.isRunning { #expect(process.terminationStatus == 143) }
        // What reached the pipe is escaped, one event a line.
        let logged = String(decoding: unread.fileHandleForReading.availableData, as: UTF8.self)
        #expect(logged.contains("refused the query argument") && !logged.contains("\u{1B}"))
    }
}
