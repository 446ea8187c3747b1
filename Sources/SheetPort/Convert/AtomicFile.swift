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
        let folder = PartName.directory(of: destination)
        let base = String(destination.dropFirst(folder.count))
        guard let (path, descriptor) = TemporaryName.file(folder + "." + base + ".sheetport-XXXXXX") else {
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
        PendingFiles.unregister(slot)
    }
}
