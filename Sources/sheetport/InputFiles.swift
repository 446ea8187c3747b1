#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SheetPortCore

/// What `import` and `check` take as FILE: a regular file is read where it is; a FIFO (a
/// named pipe, `<(...)`) is read once, like standard input, within a cap; anything else (a
/// character or block device such as `/dev/zero`, a directory, a socket) is refused as what it
/// is, before any byte is read.
enum InputFiles {
    enum Kind {
        case regular
        case fifo
    }

    /// The kind of `path` (links followed), or a `ReaderError` naming what it is when it is
    /// neither a regular file nor a FIFO (or cannot be looked at).
    static func kind(_ path: String) throws -> Kind {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw ReaderError(.io, file: path, "cannot read: \(String(cString: strerror(errno)))")
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFIFO: return .fifo
        case S_IFCHR: throw ReaderError(.io, file: path, "is a character device, not a workbook file")
        case S_IFBLK: throw ReaderError(.io, file: path, "is a block device, not a workbook file")
        case S_IFDIR: throw ReaderError(.io, file: path, "is a directory, not a workbook file")
        case S_IFSOCK: throw ReaderError(.io, file: path, "is a socket, not a workbook file")
        default: throw ReaderError(.io, file: path, "is not a regular file")
        }
    }

    /// Everything a FIFO gives until its writer closes it, at most `limit` bytes (past it the
    /// read stops with an error naming `what` and nothing more is read).
    static func readAll(_ path: String, limit: Int64, what: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try read(path, limit: limit, what: what) { bytes += $0 }
        return bytes
    }

    /// A FIFO spooled to a private file (a directory of its own under `$TMPDIR`, mode 0700, the
    /// file 0600) within `limit` bytes; the file's path and the directory to remove after use.
    static func spool(_ path: String, limit: Int64, what: String) throws -> (file: String, directory: String) {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/sheetport-spool-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw ReaderError(.io, file: path, "cannot make a private temporary folder: \(String(cString: strerror(errno)))")
        }
        let directory = String(cString: made)
        let file = directory + "/input"
        do {
            let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw ReaderError(.io, file: path, "cannot spool: \(String(cString: strerror(errno)))")
            }
            defer { close(descriptor) }
            try read(path, limit: limit, what: what) { chunk in
                var offset = 0
                while offset < chunk.count {
                    let written = chunk[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else { throw ReaderError(.io, file: path, "cannot spool: \(String(cString: strerror(errno)))") }
                    offset += written
                }
            }
            return (file, directory)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    private static func read(_ path: String, limit: Int64, what: String, _ take: (ArraySlice<UInt8>) throws -> Void) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReaderError(.io, file: path, "cannot read: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var total: Int64 = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = Glibc.read(descriptor, &chunk, chunk.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ReaderError(.io, file: path, "cannot read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return }
            total += Int64(count)
            guard total <= limit else { throw ReaderError(.io, file: path, "is larger than \(limit) bytes (\(what))") }
            try take(chunk[..<count])
        }
    }
}
