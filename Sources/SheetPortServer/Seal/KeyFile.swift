#if canImport(Glibc)
import Glibc
#endif
import SheetPortCore
import SheetPortWriter

/// The data directory's sealing key: `DIR/seal.key`, 32 random bytes, mode 0600, created on
/// the first start of an empty store (exclusively, so two starts cannot create two keys).
///
/// The key is opened without following a symbolic link and without waiting (`O_NOFOLLOW`,
/// `O_NONBLOCK`): a FIFO, a device, a directory or a link where the key should be is refused
/// at once, naming what it is, instead of blocking the start in open(2) or reading
/// `/dev/zero` as a key.
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
        if let key = try load(at: path) { return key }
        return try create(at: path)
    }

    /// Creates the key file at `path` with a new random key (mode 0600); when another process
    /// created it first, reads that one. The key is written and synced under a private name
    /// first and then linked into place (link(2) fails when the name exists), so an instance
    /// starting beside this one sees no key or the whole key, never a file still being written.
    package static func create(at path: String) throws -> [UInt8] {
        let staging = path + ".\(getpid()).\(Sodium.randomBytes(6).map { String($0, radix: 16) }.joined()).new"
        let created = open(staging, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard created >= 0 else {
            throw ServerError.io(path: path, message: "cannot create the sealing key: \(String(cString: strerror(errno)))")
        }
        defer { unlink(staging) }
        let key = Sodium.randomBytes(Sealer.keyLength)
        let written = key.withUnsafeBytes { write(created, $0.baseAddress, $0.count) }
        let synced = fsync(created)
        close(created)
        guard written == key.count, synced == 0 else {
            throw ServerError.io(path: path, message: "cannot write the sealing key")
        }
        guard link(staging, path) == 0 else {
            guard errno == EEXIST, let key = try load(at: path) else {
                throw ServerError.io(path: path, message: "cannot create the sealing key: \(String(cString: strerror(errno)))")
            }
            return key
        }
        return key
    }

    /// Reads the key file at `path`; nil when there is none. Refuses, naming what it is,
    /// anything but a regular file of this user's that only this user may read and write.
    package static func load(at path: String) throws -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            var status = stat()
            if lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
                throw notRegular(path, status, describing: kind(status.st_mode))
            }
            throw ServerError.io(path: path, message: "cannot open the sealing key: \(String(cString: strerror(code)))")
        }
        defer { close(descriptor) }
        try checkPermissions(descriptor, path: path)
        var key = [UInt8](repeating: 0, count: Sealer.keyLength + 1)
        let count = key.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count == Sealer.keyLength else {
            throw ServerError.io(path: path, message: "not a sealing key (\(max(count, 0)) bytes, expected \(Sealer.keyLength))")
        }
        return Array(key.prefix(Sealer.keyLength))
    }

    /// What a file of `mode` is, in words.
    static func kind(_ mode: mode_t) -> String { FolderEntry.kind(mode) }

    private static func notRegular(_ path: String, _ status: stat, describing what: String) -> ServerError {
        var detail = what
        if status.st_mode & S_IFMT == S_IFLNK {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(path, &buffer, buffer.count - 1)
            if length > 0 {
                detail += " (to " + String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self).visibleControlCharacters + ")"
            }
        }
        return ServerError.configuration("\(path.visibleControlCharacters) is \(detail); the sealing key must be a regular file "
            + "(the one the server created), not a link, a FIFO, a device or a directory")
    }

    /// Refuses, as ssh does, a key that is not a regular file of this user's that only this
    /// user may read and write: a key others could read (or replace) seals nothing.
    private static func checkPermissions(_ descriptor: Int32, path: String) throws {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw ServerError.io(path: path, message: String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw notRegular(path, status, describing: kind(status.st_mode)) }
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
