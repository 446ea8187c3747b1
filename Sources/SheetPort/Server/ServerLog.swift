#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's log on standard error: one line per event, written with write(2), so a closed
/// pipe or a full disk loses the line and never stops the server (Foundation's `FileHandle.write`
/// traps on EPIPE and ENOSPC). Control characters in a line are made visible, so no text that
/// came from a request or a workbook can forge a line or drive the terminal reading the log.
public enum ServerLog {
    /// Writes `sheetport serve: MESSAGE` and a newline, the message with its control characters
    /// escaped (`visibleControlCharacters`). Errors are ignored.
    public static func write(_ message: String) {
        let bytes = Array("sheetport serve: \(message.visibleControlCharacters)\n".utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            var attempts = 0
            // Bounded: a partial write continues, an interrupted one is retried a few times.
            while offset < buffer.count && attempts < 8 {
                attempts += 1
                let written = systemWrite(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return // EPIPE, ENOSPC, EBADF, EAGAIN: the line is lost, the server runs on
                }
            }
        }
    }

    /// Waits up to `timeout` seconds for lines still queued to be written (before the process ends).
    public static func flush(timeout: Double) {}

    #if canImport(Glibc)
    private static let systemWrite = Glibc.write
    #else
    private static let systemWrite = Darwin.write
    #endif

    /// Logs an internal failure with the detail under a new incident id and returns the id, which
    /// the answer or the failed job carries instead of the detail.
    public static func incident(_ error: any Error, during what: String) -> String {
        let id = String(Sodium.identifier().prefix(16))
        write("incident \(id) during \(what): \(error)")
        return id
    }
}
