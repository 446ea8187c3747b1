#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore

/// A server's log: one line per event, on standard error unless the server is configured
/// with another descriptor (`ServerConfiguration.log`). Control characters in a line are made
/// visible, so no text that came from a request or a workbook can forge a line or drive the
/// terminal reading the log.
///
/// Logging never blocks a request or shutdown: a line is put in a bounded buffer in memory
/// (`capacity` bytes) and a writer thread of its own drains it to the descriptor, waiting in
/// poll(2) for room and writing at most `PIPE_BUF` bytes at a time. When the descriptor is not
/// read (a full pipe) and the buffer is full, further lines are dropped and counted; once the
/// sink drains, the count is written (`N log lines dropped ...`). A closed pipe or a full disk
/// loses lines and never stops the server (write(2), never Foundation's `FileHandle.write`,
/// which traps on EPIPE and ENOSPC).
package final class ServerLog: Sendable {
    /// Bytes of lines the buffer holds before lines are dropped.
    package static let capacity = 1 << 20

    /// The log on standard error (`sheetport serve`'s).
    package static let standardError = ServerLog(descriptor: STDERR_FILENO)

    private let sink: LogSink

    /// A log written to `descriptor`, which stays open (the caller's) until `close()`.
    package init(descriptor: Int32) {
        sink = LogSink(descriptor: descriptor, capacity: Self.capacity)
    }

    /// Queues `sheetport serve: MESSAGE` and a newline, the message with its control
    /// characters escaped (`visibleControlCharacters`). Never waits for the descriptor.
    package func write(_ message: String) {
        sink.enqueue(Array("sheetport serve: \(message.visibleControlCharacters)\n".utf8))
    }

    /// Waits up to `timeout` seconds for the lines queued so far to be written (before the
    /// process ends); returns at once when the descriptor takes them, or at the deadline.
    package func flush(timeout: Double) { sink.flush(timeout: timeout) }

    /// Lines dropped since the last report (tests).
    var droppedLines: Int { sink.droppedCount }

    /// Ends the writer thread once what is queued is written (or `timeout` passed); lines
    /// written afterwards are dropped. For a log whose descriptor is about to be closed.
    package func close(timeout: Double = 1) {
        sink.flush(timeout: timeout)
        sink.close()
    }

    /// Logs an internal failure with the detail under a new incident id and returns the id, which
    /// the answer or the failed job carries instead of the detail.
    package func incident(_ error: any Error, during what: String) -> String {
        let id = String(Sodium.identifier().prefix(16))
        write("incident \(id) during \(what): \(error)")
        return id
    }
}

/// A bounded queue of log lines and the thread that writes them to a descriptor.
final class LogSink: @unchecked Sendable {
    private let descriptor: Int32
    private let capacity: Int
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var pending: [[UInt8]] = []
    private var pendingBytes = 0
    private var dropped = 0
    private var writing = false
    private var started = false
    private var closed = false

    init(descriptor: Int32, capacity: Int) {
        self.descriptor = descriptor
        self.capacity = capacity
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    var droppedCount: Int {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return dropped
    }

    /// Queues a line, or drops and counts it when the buffer is full.
    func enqueue(_ line: [UInt8]) {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard !closed else { return }
        if !started { start() }
        guard pendingBytes + line.count <= capacity else {
            dropped += 1
            return
        }
        pending.append(line)
        pendingBytes += line.count
        pthread_cond_signal(&condition)
    }

    /// Waits, at most `timeout` seconds, until nothing is queued or being written.
    func flush(timeout: Double) {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            pthread_mutex_lock(&mutex)
            let idle = pending.isEmpty && !writing && dropped == 0
            pthread_mutex_unlock(&mutex)
            if idle { return }
            usleep(5_000)
        }
    }

    /// Ends the writer thread; what is still queued is dropped. Returns once no write to the
    /// descriptor is under way (a write waiting for room gives up within a second), so the
    /// caller may close it.
    func close() {
        pthread_mutex_lock(&mutex)
        closed = true
        pending = []
        pendingBytes = 0
        dropped = 0
        pthread_cond_signal(&condition)
        pthread_mutex_unlock(&mutex)
        while isWriting { usleep(5_000) }
    }

    private var isWriting: Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return writing
    }

    private var isClosed: Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return closed
    }

    /// Under the mutex: starts the writer thread (detached: nothing ever joins it, so a sink
    /// that never drains holds nobody).
    private func start() {
        started = true
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        // Initialized by pthread_attr_init alone: `pthread_attr_t()` is a member of whichever
        // C module declared the type first (CDispatch here), which no portable import names.
        let created = withUnsafeTemporaryAllocation(of: pthread_attr_t.self, capacity: 1) { buffer in
            let attributes = buffer.baseAddress!
            pthread_attr_init(attributes)
            defer { pthread_attr_destroy(attributes) }
            pthread_attr_setdetachstate(attributes, Int32(PTHREAD_CREATE_DETACHED))
            pthread_attr_setstacksize(attributes, 256 << 10)
            return pthread_create(&thread, attributes, { context in
                // The thread holds the sink until `run` returns (after `close()`).
                Unmanaged<LogSink>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, context)
        }
        if created != 0 { started = false; Unmanaged<LogSink>.fromOpaque(context).release() }
    }

    private func run() {
        while true {
            pthread_mutex_lock(&mutex)
            while pending.isEmpty && dropped == 0 && !closed { pthread_cond_wait(&condition, &mutex) }
            if closed {
                pthread_mutex_unlock(&mutex)
                return
            }
            var batch = pending
            pending = []
            pendingBytes = 0
            // The count is reported once what came before the drops is out: the sink drained.
            if batch.isEmpty {
                batch = [Array("sheetport serve: \(dropped) log line\(dropped == 1 ? "" : "s") dropped: standard error was not taking them\n".utf8)]
                dropped = 0
            }
            writing = true
            pthread_mutex_unlock(&mutex)
            for line in batch { put(line) }
            pthread_mutex_lock(&mutex)
            writing = false
            pthread_mutex_unlock(&mutex)
        }
    }

    /// Writes `line`, waiting in poll(2) for room, a piece of at most PIPE_BUF bytes at a time
    /// (so a write after POLLOUT does not block on a pipe); an error (EPIPE, ENOSPC, EBADF)
    /// loses the line.
    private func put(_ line: [UInt8]) {
        line.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, !isClosed {
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                let polled = poll(&ready, 1, 1000)
                if polled < 0 && errno != EINTR { return }
                if polled <= 0 { continue }
                if ready.revents & Int16(POLLNVAL) != 0 { return }
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, min(buffer.count - offset, Int(PIPE_BUF)))
                if written > 0 {
                    offset += written
                } else if written < 0 && (errno == EINTR || errno == EAGAIN) {
                    continue
                } else {
                    return
                }
            }
        }
    }

    private func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    #if canImport(Glibc)
    private let systemWrite = Glibc.write
    #else
    private let systemWrite = Darwin.write
    #endif
}
