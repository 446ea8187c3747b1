#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore

/// A file of the package `Packager` builds, through its descriptor: libzip reads the previous
/// pass, writes the next one and seeks back to patch headers, so it reads and writes at a
/// position. (The server's exports are not built here: they are written front to back by
/// `StreamPackager`.)
final class PackageFile {
    private var descriptor: Int32

    private init(_ descriptor: Int32) { self.descriptor = descriptor }
    deinit { if descriptor >= 0 { SystemIO.close(descriptor) } }

    /// The size of the file at `path`, nil when there is none.
    static func size(_ path: String) -> Int64? {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : nil
    }

    /// Opens the file at `path` for reading.
    static func openForReading(_ path: String) -> PackageFile? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        return descriptor >= 0 ? PackageFile(descriptor) : nil
    }

    /// Creates (truncating) the file at `path` for writing, mode 0600.
    static func create(_ path: String) -> PackageFile? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        return descriptor >= 0 ? PackageFile(descriptor) : nil
    }

    /// Reads up to `count` bytes at the position; -1 on error.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int { SystemIO.read(descriptor, buffer, count) }

    /// Writes `count` bytes at the position; the count written, -1 on error.
    func write(_ bytes: UnsafeRawPointer, count: Int) -> Int {
        var written = 0
        while written < count {
            let result = SystemIO.write(descriptor, bytes + written, count - written)
            guard result > 0 else { return -1 }
            written += result
        }
        return written
    }

    /// Moves the position (`SEEK_SET`, `SEEK_CUR`, `SEEK_END`); false on error.
    func seek(to offset: Int64, whence: Int32) -> Bool { lseek(descriptor, off_t(offset), whence) >= 0 }

    /// The position, -1 on error.
    func tell() -> Int64 { Int64(lseek(descriptor, 0, SEEK_CUR)) }

    /// Closes; false on error.
    func close() -> Bool {
        defer { descriptor = -1 }
        return SystemIO.close(descriptor) == 0
    }
}
