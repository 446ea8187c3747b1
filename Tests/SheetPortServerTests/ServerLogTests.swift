import Foundation
import Testing
@testable import SheetPortServer
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert

/// The server's log never blocks (issue 23): lines that do not fit the bounded buffer are
/// dropped and counted, the count written once the sink drains (`sheetport serve` with a
/// standard error nobody reads: SheetPortCLITests' `ServerLogTests`).
@Suite struct ServerLogTests {

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
