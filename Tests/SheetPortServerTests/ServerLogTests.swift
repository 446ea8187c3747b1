import Foundation
import Testing
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport

/// The server's log never blocks a request or shutdown (issue 23): with standard error a pipe
/// nobody reads, requests that log still answer and SIGTERM ends the server promptly; lines
/// that do not fit the bounded buffer are dropped and counted, the count written once the sink
/// drains.
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

    /// A sink that does not drain: lines past the buffer are dropped and counted, nothing
    /// waits, and the count is written once the reader takes what was queued.
    @Test func droppedLinesAreCountedAndReportedWhenTheSinkDrains() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        // Fill the pipe first (non-blocking writes on our own end), so the sink is full.
        let flags = fcntl(ends[1], F_GETFL)
        _ = fcntl(ends[1], F_SETFL, flags | O_NONBLOCK)
        let filler = [UInt8](repeating: 0x2E, count: 4096)
        var filled = 0
        while filler.withUnsafeBytes({ write(ends[1], $0.baseAddress, $0.count) }) > 0 { filled += 4096 }
        _ = fcntl(ends[1], F_SETFL, flags)
        let sink = LogSink(descriptor: ends[1], capacity: 10_000)
        let start = Date()
        for index in 0..<500 { sink.enqueue(Array("line \(index) \(String(repeating: "y", count: 90))\n".utf8)) }
        #expect(Date().timeIntervalSince(start) < 1, "enqueueing never waits for the sink")
        // 50,000 bytes into a 10,000-byte queue: most are dropped (not all: the sink's thread may
        // get a few more out if the pipe takes a write while the loop runs).
        #expect(sink.droppedCount > 200)
        // Drain: the queued lines come out, then the count.
        var text = Data()
        let deadline = Date().addingTimeInterval(10)
        let reader = FileHandle(fileDescriptor: ends[0], closeOnDealloc: false)
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        while Date() < deadline && !String(decoding: text, as: UTF8.self).contains("dropped") {
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            if count > 0 { text.append(contentsOf: buffer[..<count]) } else { usleep(10_000) }
        }
        _ = reader
        let lines = String(decoding: text, as: UTF8.self)
        #expect(lines.contains("line 0 ") && lines.contains("log lines dropped"), "\(lines.suffix(300))")
        #expect(text.count > filled)
    }
}
