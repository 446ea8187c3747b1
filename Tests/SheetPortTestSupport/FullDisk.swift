#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Filling a small file system on purpose: the storage-full tests (SQLite's data folder and
/// PostgreSQL's tablespace, each on a tmpfs of its own).
package enum FullDisk {
    /// Bytes an unprivileged writer may still take on the file system holding `path` (-1 when
    /// it cannot be asked).
    package static func freeBytes(at path: String) -> Int {
        var status = statvfs()
        guard statvfs(path, &status) == 0 else { return -1 }
        return Int(status.f_bavail) * Int(status.f_frsize)
    }

    /// Appends zeros to the file `path` until the disk is full or `bytes` are written.
    package static func fill(_ path: String, bytes: Int = Int.max) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0, count: 1 << 16)
        var written = 0
        while written < bytes {
            let count = block.withUnsafeBytes { write(descriptor, $0.baseAddress, min($0.count, bytes - written)) }
            if count <= 0 { break }
            written += count
        }
    }
}
