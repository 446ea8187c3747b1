import Foundation
import SheetPortCore

/// Inflates one entry on a second thread, a few 64 KiB chunks ahead of its reader, so that
/// ISA-L (or zlib) runs on one core while the worksheet is parsed on the other (the worksheet is the only part
/// big enough for this to pay). The entry's limits are checked on the inflating thread and
/// a failure reaches the reader where it happened in the bytes.
final class BackgroundInflater {
    /// What the inflating thread leaves for the reader: written before the pipe finishes.
    private final class Outcome: @unchecked Sendable {
        var failure: Error?
    }

    private let pipe = ChunkPipe(depth: 4)
    private let outcome = Outcome()
    private let done = DispatchSemaphore(value: 0)
    private var current: [UInt8] = []
    private var offset = 0
    /// Bytes handed to the reader so far.
    private(set) var bytesRead: Int64 = 0

    /// Starts inflating `stream`; the stream belongs to the inflating thread from now on.
    init(_ stream: ZipArchive.EntryStream) {
        let job = InflateJob(stream: stream, pipe: pipe, outcome: outcome, done: done)
        let thread = Thread { job.run() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit {
        // A reader that stops early (an error, a row limit) stops the thread before the
        // archive it reads from can go away.
        pipe.abort()
        done.wait()
    }

    /// Stops the inflating thread; a `read` waiting for a chunk, or the next one, throws.
    func abort() { pipe.abort() }

    /// Copies up to `count` inflated bytes into `buffer`, from the chunk at hand or the next
    /// one; 0 at the end of the entry.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        if offset == current.count {
            pipe.recycle(current)
            current = []
            offset = 0
            guard let chunk = try pipe.receive() else {
                if let failure = outcome.failure { throw failure }
                return 0
            }
            current = chunk
        }
        let served = min(count, current.count - offset)
        current.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + offset, byteCount: served) }
        offset += served
        bytesRead += Int64(served)
        return served
    }

    /// The inflating thread's work, with everything it touches.
    private struct InflateJob: @unchecked Sendable {
        let stream: ZipArchive.EntryStream
        let pipe: ChunkPipe
        let outcome: Outcome
        let done: DispatchSemaphore

        func run() {
            defer { done.signal() }
            var chunk: [UInt8] = []
            do {
                while try stream.read({ chunk.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }) {
                    try pipe.send(&chunk)
                }
            } catch ChunkPipe.Stop.aborted {
                return
            } catch {
                outcome.failure = error
            }
            pipe.finish()
        }
    }
}
