#if canImport(Glibc)
import Glibc
#endif

/// Why the server, its store or its sealing failed, with a message for the log.
public enum ServerError: Error, CustomStringConvertible {
    /// The data directory or a file in it cannot be created, opened, read or written.
    case io(path: String, message: String)
    /// SQLite failed (`code` is SQLite's result code).
    case database(code: Int32, message: String)
    /// PostgreSQL failed (`state` is its SQLSTATE).
    case postgres(state: String, message: String)
    /// A sealed record or block failed authentication: tampered with, swapped or truncated.
    case unsealFailed(what: String)
    /// libsodium or libmicrohttpd could not start.
    case startFailed(String)
    /// A flag or setting is invalid.
    case configuration(String)
    /// A write found the disk (or the database's) full: what failed, for the log.
    case storageFull(String)

    /// A sentence for the log.
    public var description: String {
        switch self {
        case let .io(path, message): return "\(path): \(message)"
        case let .database(code, message): return "SQLite error \(code): \(message)"
        case let .postgres(state, message): return "PostgreSQL error \(state): \(message)"
        case let .unsealFailed(what): return "\(what) failed authentication: tampered with or not ours"
        case let .startFailed(message): return "cannot start: \(message)"
        case let .configuration(message): return message
        case let .storageFull(what): return "storage full: \(what)"
        }
    }

    /// `.storageFull` for an errno of a full disk (ENOSPC, EDQUOT), else `.io`.
    static func write(path: String, errno code: Int32, _ what: String) -> ServerError {
        code == ENOSPC || code == EDQUOT ? .storageFull("\(path): \(what): \(String(cString: strerror(code)))")
            : .io(path: path, message: "\(what): \(String(cString: strerror(code)))")
    }
}
