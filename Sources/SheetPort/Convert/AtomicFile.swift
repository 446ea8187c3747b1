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
    private let slot: Int

    /// Creates the temporary file (mode 0600 until published) beside `destination`.
    public init(destination: String) throws {
        self.destination = destination
        let (folder, prefix) = Self.hiddenSibling(of: destination)
        guard let (path, descriptor) = TemporaryName.file(folder + prefix + "XXXXXX") else {
            throw ReaderError(.io, file: destination, "cannot create a file beside it: \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        temporaryPath = path
        slot = PendingFiles.register(temporaryPath)
    }

    deinit { if !done { discard() } }

    /// Flushes to disk and renames the temporary file to the destination.
    public func publish() throws {
        defer { done = true; PendingFiles.unregister(slot) }
        if let reason = Self.publish(descriptor: descriptor, path: temporaryPath, to: destination) {
            unlink(temporaryPath)
            throw ReaderError(.io, file: destination, "cannot publish: \(reason)")
        }
    }

    /// The folder of `destination` (with its slash, or empty) and the prefix of a hidden
    /// name beside it, `.<name>.sheetport-`: where output is built before it is published.
    static func hiddenSibling(of destination: String) -> (folder: String, prefix: String) {
        let folder = PartName.directory(of: destination)
        return (folder, "." + destination.dropFirst(folder.count) + ".sheetport-")
    }

    /// Publishes a finished file: gives it the mode a new file would get (0666 less the
    /// umask), flushes it to disk, closes `descriptor` and renames `path` to `destination`.
    /// Returns why it failed, or nil.
    static func publish(descriptor: Int32, path: String, to destination: String) -> String? {
        let umaskValue = umask(0); umask(umaskValue)
        guard fchmod(descriptor, 0o666 & ~umaskValue) == 0, fsync(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            return reason
        }
        guard close(descriptor) == 0, rename(path, destination) == 0 else { return String(cString: strerror(errno)) }
        return nil
    }

    /// Removes the temporary file; the destination is left as it was.
    public func discard() {
        guard !done else { return }
        done = true
        close(descriptor)
        unlink(temporaryPath)
        PendingFiles.unregister(slot)
    }
}
