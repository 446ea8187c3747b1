import Foundation
import Testing
@testable import SheetPortServer

/// `ExportPipe`, the buffers between an export's build thread and its connection, with real
/// threads on both ends.
struct ExportPipeTests {
    struct Failed: Error {}

    /// A count shared between threads.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func add() { lock.withLock { count += 1 } }
    }

    /// Reads the pipe to its end as the connection does, spinning on `.waiting` so that many
    /// reads fall just before the writer's last buffer and end: returns the bytes and the last answer.
    static func drain(_ pipe: ExportPipe) -> (bytes: [UInt8], last: ExportPipe.Next) {
        var bytes: [UInt8] = []
        while true {
            switch pipe.next() {
            case .bytes(let buffer): bytes += buffer
            case .waiting: sched_yield()
            case let last: return (bytes, last)
            }
        }
    }

    /// Starts `body` on a thread of its own; the semaphore is signalled when it returns.
    static func onThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread { body(); done.signal() }.start()
        return done
    }

    /// The lost last buffer: a reader that found nothing queued and then saw the writer's end
    /// ended a body that looked whole but lacked its last buffer (a zip without its central
    /// directory). Thousands of small bodies, each read while it is written, arrive whole.
    @Test func everyBufferArrivesBeforeTheEnd() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<3_000 {
            let pipe = ExportPipe(bufferSize: 8, depth: 2)
            let payload = (0..<Int.random(in: 1...40, using: &generator)).map { UInt8(truncatingIfNeeded: $0 &+ round) }
            let pieces = Int.random(in: 1...4, using: &generator)
            let written = Self.onThread {
                let cut = payload.count / pieces
                var start = 0
                for piece in 0..<pieces {
                    let end = piece == pieces - 1 ? payload.count : start + cut
                    payload[start..<end].withUnsafeBytes { try? pipe.write($0) }
                    start = end
                }
                try? pipe.finish()
            }
            let (bytes, last) = Self.drain(pipe)
            #expect(written.wait(timeout: .now() + 60) == .success)
            #expect(last == .end)
            #expect(bytes == payload, "round \(round): \(bytes.count) of \(payload.count) bytes arrived")
            if bytes != payload { break }
        }
    }

    /// A large write through a small pipe: the writer waits for room (never more than `depth`
    /// buffers queued) and every byte arrives in order.
    @Test func aLargeWriteWaitsForRoomAndArrivesInOrder() throws {
        let pipe = ExportPipe(bufferSize: 7, depth: 2)
        let payload = (0..<100_003).map { UInt8(truncatingIfNeeded: $0 * 31) }
        let written = Self.onThread {
            payload.withUnsafeBytes { try? pipe.write($0) }
            try? pipe.finish()
        }
        let (bytes, last) = Self.drain(pipe)
        #expect(written.wait(timeout: .now() + 60) == .success)
        #expect(last == .end && bytes == payload)
    }

    /// A failure after the first buffer: what was queued is read, then `.failed`, never `.end`;
    /// the writer is told the reader had started (so the error goes to the log).
    @Test func aFailureAfterTheFirstBufferFailsTheBody() throws {
        let pipe = ExportPipe(bufferSize: 8, depth: 4)
        let readies = Counter()
        pipe.onReady { readies.add() }
        try Array(repeating: UInt8(1), count: 20).withUnsafeBytes { try pipe.write($0) }
        #expect(readies.value == 1)
        #expect(pipe.fail(Failed()))
        #expect(pipe.failedBeforeFirstBuffer == nil)
        #expect(pipe.next() == .bytes(Array(repeating: 1, count: 8)))
        #expect(pipe.next() == .bytes(Array(repeating: 1, count: 8)))
        #expect(pipe.next() == .failed) // the 4 bytes still being filled never go out
        #expect(readies.value == 1)
    }

    /// A failure before any buffer is the answer itself; an empty write queues nothing.
    @Test func aFailureBeforeAnyBufferIsTheAnswer() throws {
        let pipe = ExportPipe(bufferSize: 8, depth: 1)
        let readies = Counter()
        pipe.onReady { readies.add() }
        try [UInt8]().withUnsafeBytes { try pipe.write($0) }
        #expect(pipe.next() == .waiting)
        #expect(!pipe.fail(Failed()))
        #expect(pipe.failedBeforeFirstBuffer is Failed)
        #expect(pipe.next() == .failed)
        #expect(readies.value == 1)
    }

    /// A reader that goes (`close`) stops a writer waiting for room; a stop fails the reader too.
    @Test func closeAndStopEndTheWriter() throws {
        let closing = ExportPipe(bufferSize: 4, depth: 1)
        let threw = Counter()
        let written = Self.onThread {
            do {
                try [UInt8](repeating: 9, count: 64).withUnsafeBytes { try closing.write($0) }
            } catch is ExportPipe.Closed {
                threw.add()
            } catch {}
        }
        var first = closing.next()
        while first == .waiting { sched_yield(); first = closing.next() }
        #expect(first == .bytes([9, 9, 9, 9]))
        closing.close()
        #expect(written.wait(timeout: .now() + 60) == .success)
        #expect(threw.value == 1)

        let stopping = ExportPipe(bufferSize: 4, depth: 1)
        let wakes = Counter()
        stopping.onWake { wakes.add() }
        stopping.stop()
        #expect(stopping.isStopped && wakes.value == 1)
        #expect(stopping.next() == .failed)
        #expect(throws: ExportPipe.Closed.self) { try [UInt8](repeating: 1, count: 4).withUnsafeBytes { try stopping.write($0) } }
    }
}
