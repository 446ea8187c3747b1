#if canImport(Glibc)
import Glibc
#endif

/// An output file written under a temporary name in the destination's folder and renamed
/// into place only when complete, so an error or a signal never leaves partial output.
public final class AtomicFile {
    /// Where the file is published.
    public let destination: String
    /// The open temporary file.
    public let descriptor: Int32
    private let temporaryPath: String
    private var done = false

    /// Creates the temporary file (mode 0600 until published) beside `destination`.
    public init(destination: String) throws {
        self.destination = destination
        let folder = PartName.directory(of: destination)
        let base = String(destination.dropFirst(folder.count))
        var template = Array((folder + "." + base + ".sheetport-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw ReaderError(.io, file: destination, "cannot create a file beside it: \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        temporaryPath = String(cString: template)
        PendingFiles.register(temporaryPath)
    }

    deinit { if !done { discard() } }

    /// Flushes to disk and renames the temporary file to the destination.
    public func publish() throws {
        defer { done = true; PendingFiles.unregister() }
        let umaskValue = umask(0); umask(umaskValue)
        fchmod(descriptor, 0o666 & ~umaskValue)
        guard fsync(descriptor) == 0, close(descriptor) == 0, rename(temporaryPath, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw ReaderError(.io, file: destination, "cannot publish: \(reason)")
        }
    }

    /// Removes the temporary file; the destination is left as it was.
    public func discard() {
        guard !done else { return }
        done = true
        close(descriptor)
        unlink(temporaryPath)
        PendingFiles.unregister()
    }
}

/// The temporary file in flight, kept where a signal handler can remove it
/// (a fixed C buffer: async-signal-safe to read, unlike a Swift string).
public enum PendingFiles {
    nonisolated(unsafe) private static let path = UnsafeMutablePointer<CChar>.allocate(capacity: 4096)
    nonisolated(unsafe) private static var active: sig_atomic_t = 0

    static func register(_ file: String) {
        let bytes = Array(file.utf8CString.prefix(4095))
        for (index, byte) in bytes.enumerated() { path[index] = byte }
        path[min(bytes.count, 4095)] = 0
        active = 1
    }

    static func unregister() { active = 0 }

    /// Installs SIGINT and SIGTERM handlers that remove the pending file and exit
    /// with 130 or 143 (CONTRACTS section 1).
    public static func removeOnSignals() {
        signal(SIGINT) { _ in PendingFiles.removeAndExit(130) }
        signal(SIGTERM) { _ in PendingFiles.removeAndExit(143) }
        // A parent may have started us with these signals blocked (the mask is inherited
        // through exec); cancelling must work all the same.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    private static func removeAndExit(_ status: Int32) -> Never {
        if active != 0 { unlink(path) }
        _exit(status)
    }
}
