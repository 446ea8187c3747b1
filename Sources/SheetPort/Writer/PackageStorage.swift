#if canImport(Glibc)
import Glibc
#endif

/// Where the packager keeps the package file while building it: plain files by default
/// (`PlainPackageStorage`); the server passes sealed block files, so that an export never
/// puts plaintext on disk. libzip reads the previous pass, writes the next one and seeks
/// back to patch headers, so a file must support random reads and writes.
protocol PackageStorage: AnyObject {
    /// The size of the file at `path` as the packager sees it, nil when there is none.
    func size(_ path: String) -> Int64?
    /// Opens the file at `path` for reading.
    func openForReading(_ path: String) -> (any PackageFile)?
    /// Creates (truncating) the file at `path` for writing, mode 0600.
    func create(_ path: String) -> (any PackageFile)?
}

/// An open package file with a position.
protocol PackageFile: AnyObject {
    /// Reads up to `count` bytes at the position; -1 on error.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int
    /// Writes `count` bytes at the position; the count written, -1 on error.
    func write(_ bytes: UnsafeRawPointer, count: Int) -> Int
    /// Moves the position (`SEEK_SET`, `SEEK_CUR`, `SEEK_END`); false on error.
    func seek(to offset: Int64, whence: Int32) -> Bool
    /// The position, -1 on error.
    func tell() -> Int64
    /// Flushes and closes; false on error.
    func close() -> Bool
}

/// Plain files through file descriptors.
final class PlainPackageStorage: PackageStorage {
    func size(_ path: String) -> Int64? {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : nil
    }

    func openForReading(_ path: String) -> (any PackageFile)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        return descriptor >= 0 ? DescriptorFile(descriptor) : nil
    }

    func create(_ path: String) -> (any PackageFile)? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        return descriptor >= 0 ? DescriptorFile(descriptor) : nil
    }
}

private final class DescriptorFile: PackageFile {
    private var descriptor: Int32

    init(_ descriptor: Int32) { self.descriptor = descriptor }
    deinit { if descriptor >= 0 { Glibc.close(descriptor) } }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int { Glibc.read(descriptor, buffer, count) }

    func write(_ bytes: UnsafeRawPointer, count: Int) -> Int {
        var written = 0
        while written < count {
            let result = Glibc.write(descriptor, bytes + written, count - written)
            guard result > 0 else { return -1 }
            written += result
        }
        return written
    }

    func seek(to offset: Int64, whence: Int32) -> Bool { lseek(descriptor, off_t(offset), whence) >= 0 }
    func tell() -> Int64 { Int64(lseek(descriptor, 0, SEEK_CUR)) }

    func close() -> Bool {
        defer { descriptor = -1 }
        return Glibc.close(descriptor) == 0
    }
}
