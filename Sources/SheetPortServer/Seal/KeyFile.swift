#if canImport(Glibc)
import Glibc
#endif
import SheetPortCore
import SheetPortReader
import SheetPortWriter
import SheetPortConvert

/// The data directory's sealing key: `DIR/seal.key`, 32 random bytes, mode 0600, created on
/// the first start (exclusively, so two starts cannot create two keys).
package enum KeyFile {
    /// The key file's name in the data directory.
    package static let name = "seal.key"

    /// Reads the key in `directory`, creating it first when there is none.
    package static func loadOrCreate(in directory: String) throws -> [UInt8] {
        try loadOrCreate(at: directory + "/" + name)
    }

    /// Reads the key file at `path` (`serve --key-file`, one file shared by every instance),
    /// creating it first when there is none; the same permission rules hold.
    package static func loadOrCreate(at path: String) throws -> [UInt8] {
        let created = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if created >= 0 {
            let key = Sodium.randomBytes(Sealer.keyLength)
            let written = key.withUnsafeBytes { write(created, $0.baseAddress, $0.count) }
            let synced = fsync(created)
            close(created)
            guard written == key.count, synced == 0 else {
                unlink(path)
                throw ServerError.io(path: path, message: "cannot write the sealing key")
            }
            return key
        }
        guard errno == EEXIST else { throw ServerError.io(path: path, message: String(cString: strerror(errno))) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { throw ServerError.io(path: path, message: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        try checkPermissions(descriptor, path: path)
        var key = [UInt8](repeating: 0, count: Sealer.keyLength + 1)
        let count = key.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count == Sealer.keyLength else {
            throw ServerError.io(path: path, message: "not a sealing key (\(count) bytes, expected \(Sealer.keyLength))")
        }
        return Array(key.prefix(Sealer.keyLength))
    }

    /// Refuses, as ssh does, a key that is not a regular file of this user's that only this
    /// user may read and write: a key others could read (or replace) seals nothing.
    private static func checkPermissions(_ descriptor: Int32, path: String) throws {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw ServerError.io(path: path, message: String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw ServerError.configuration("\(path) is not a regular file; it must be the sealing key the server created")
        }
        guard status.st_uid == geteuid() else {
            throw ServerError.configuration("\(path) belongs to user \(status.st_uid), not to the user running the server (\(geteuid())); run the server as its owner")
        }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw ServerError.configuration("\(path) is accessible by group or others (mode \(String(mode, radix: 8))); "
                + "the sealing key must be private: run chmod 600 \(path)")
        }
    }
}
