import Foundation

/// Hands filled buffers from one thread to another, a few buffers deep, so both cores work
/// and memory stays bounded: XML from the row-writing thread to the one where libzip deflates
/// it (`Packager`), and inflated bytes from libzip's thread to the XML parser (`BackgroundInflater`).
package final class ChunkPipe: @unchecked Sendable {
    /// Why the other side stopped.
    package enum Stop: Error { case aborted }

    private let condition = NSCondition()
    private var filled: [[UInt8]] = []
    private var spare: [[UInt8]] = []
    private var finished = false
    private var aborted = false
    private let depth: Int

    /// A pipe that holds at most `depth` filled buffers.
    package init(depth: Int = 4) { self.depth = depth }

    /// Queues `chunk` and gives back an empty buffer in its place; waits while the pipe is
    /// full. Throws when the reading side gave up.
    package func send(_ chunk: inout [UInt8]) throws {
        condition.lock()
        defer { condition.unlock() }
        while filled.count >= depth && !aborted { condition.wait() }
        guard !aborted else { throw Stop.aborted }
        let capacity = chunk.capacity
        filled.append(chunk)
        chunk = spare.popLast() ?? []
        chunk.removeAll(keepingCapacity: true)
        if chunk.capacity < capacity { chunk.reserveCapacity(capacity) }
        condition.broadcast()
    }

    /// No more chunks: the reader sees the end once the queue drains.
    package func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Either side gives up: the writer's next `send` and the reader's next `receive` throw.
    package func abort() {
        condition.lock()
        aborted = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next filled chunk, nil at the end; waits while the pipe is empty.
    package func receive() throws -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while filled.isEmpty && !finished && !aborted { condition.wait() }
        guard !aborted else { throw Stop.aborted }
        guard !filled.isEmpty else { return nil }
        let chunk = filled.removeFirst()
        condition.broadcast()
        return chunk
    }

    /// Returns a drained chunk for reuse.
    package func recycle(_ chunk: [UInt8]) {
        condition.lock()
        if spare.count < depth { spare.append(chunk) }
        condition.unlock()
    }
}

/// The thread on the far side of a `ChunkPipe` that packs what the pipe brings (libzip's
/// `zip_close`, libarchive's writes), with a 1 MiB stack; `join()` waits for its end, once.
package final class PackingThread: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Whether it has been joined (so it has ended).
    package private(set) var isJoined = false

    /// Starts `body` on a new thread.
    package init(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [done] in
            body()
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Waits until the thread has ended; at once after the first call.
    package func join() {
        guard !isJoined else { return }
        done.wait()
        isJoined = true
    }
}
