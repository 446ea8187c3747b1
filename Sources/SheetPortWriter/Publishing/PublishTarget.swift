#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore

/// What an output path names, decided once before anything is written, so that publishing
/// never replaces what is not a regular file: `-o /dev/null` run as root must not turn the
/// device into a file.
///
/// - A regular file, or nothing yet: built under a temporary name beside it and renamed over it.
/// - A symbolic link (or a chain of them): followed; its final target is replaced (or created,
///   when the link dangles) by the rename, and the link is kept.
/// - Anything else (a character or block device, a FIFO, a socket, `/dev/stdout`, `/dev/fd/N`):
///   opened and written through, never replaced.
/// - A directory: refused.
enum PublishTarget {
    /// A regular file (or a new one) at `path`, a symbolic link's target when `-o` named a link.
    case replace(path: String)
    /// An open descriptor to write into (`/dev/fd/N` duplicates descriptor N, keeping its offset).
    case writeThrough(descriptor: Int32)

    /// Why a path cannot be published to.
    struct PathRefusal: Error {
        /// A sentence for a person.
        let message: String
    }

    /// Links followed before giving up, as the kernel's own limit (`ELOOP` after 40).
    static let maximumLinks = 40

    /// Decides where output for `destination` goes; opens it when it is written through
    /// (a FIFO waits for its reader here, as a shell redirection does).
    static func resolve(_ destination: String) throws(PathRefusal) -> PublishTarget {
        guard !destination.isEmpty, !destination.utf8.contains(0) else { throw PathRefusal(message: "names no file") }
        var path = destination
        for _ in 0...maximumLinks {
            if let descriptor = ownDescriptor(named: path) {
                guard fcntl(descriptor, F_GETFL) & O_ACCMODE != O_RDONLY else {
                    throw PathRefusal(message: "descriptor \(descriptor) is not open for writing")
                }
                let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
                guard copy >= 0 else { throw PathRefusal(message: "cannot write to descriptor \(descriptor): \(reason())") }
                return .writeThrough(descriptor: copy)
            }
            var status = stat()
            guard lstat(path, &status) == 0 else {
                guard errno == ENOENT else { throw PathRefusal(message: "cannot look at \(path): \(reason())") }
                return .replace(path: path) // a new file, or a dangling link's target
            }
            switch status.st_mode & S_IFMT {
            case S_IFREG: return .replace(path: path)
            case S_IFDIR: throw PathRefusal(message: path == destination
                                        ? "is a directory; name a file to write"
                                        : "links to the directory \(path); name a file to write")
            case S_IFLNK: path = try target(of: path)
            default:
                let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
                guard descriptor >= 0 else { throw PathRefusal(message: "cannot open \(path) to write: \(reason())") }
                return .writeThrough(descriptor: descriptor)
            }
        }
        throw PathRefusal(message: "more than \(maximumLinks) symbolic links to follow")
    }

    /// The path a symbolic link points to, relative targets taken from the link's folder.
    private static func target(of link: String) throws(PathRefusal) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(link, &buffer, buffer.count - 1)
        guard length > 0 else { throw PathRefusal(message: "cannot read the link \(link): \(reason())") }
        let target = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return target.hasPrefix("/") ? target : PartName.directory(of: link) + target
    }

    /// N when `path` is this process's descriptor N under another name: `/dev/fd/N`,
    /// `/proc/self/fd/N`, `/proc/<our pid>/fd/N`, `/dev/stdin|stdout|stderr`. Writing into the
    /// descriptor keeps what the caller opened (a pipe, a file opened to append), where
    /// reopening its `/proc` link would start at offset 0 or fail on a socket.
    private static func ownDescriptor(named path: String) -> Int32? {
        let standard = ["/dev/stdin": Int32(0), "/dev/stdout": 1, "/dev/stderr": 2]
        if let descriptor = standard[path] { return fcntl(descriptor, F_GETFD) >= 0 ? descriptor : nil }
        let folder = PartName.directory(of: path)
        guard let number = Int32(path.dropFirst(folder.count)), number >= 0 else { return nil }
        let ownFolders = ["/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", "/proc/\(getpid())/fd/"]
        guard ownFolders.contains(folder) || canonical(folder) == "/proc/\(getpid())/fd/" else { return nil }
        return fcntl(number, F_GETFD) >= 0 ? number : nil
    }

    /// The folder with every link resolved, with its trailing slash; nil when it does not exist.
    private static func canonical(_ folder: String) -> String? {
        guard let resolved = realpath(folder.isEmpty ? "." : folder, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved) + "/"
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
