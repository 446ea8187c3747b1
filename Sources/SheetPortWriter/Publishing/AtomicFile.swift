#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore

/// An output file written under a temporary name in the destination's folder and renamed
/// into place only when complete, so an error or a signal never leaves partial output.
/// What is not a regular file (a device, a FIFO, `/dev/stdout`) is written through instead,
/// and a symbolic link's target is replaced, the link kept (`PublishTarget`).
public final class AtomicFile {
    /// Where the file is published, as the caller named it.
    public let destination: String
    /// The open temporary file, or the destination itself when it is written through.
    public let descriptor: Int32
    /// The temporary file, nil when the destination is written through.
    private let temporaryPath: String?
    /// The regular file the temporary file is renamed to.
    private let target: String
    private var done = false
    private let slot: Int

    /// Creates the temporary file (mode 0600 until published) beside `destination` (beside
    /// its final target when it is a symbolic link), or opens a destination that is not a
    /// regular file to write through; throws for a directory.
    public init(destination: String) throws {
        self.destination = destination
        let resolved: PublishTarget
        do throws(PublishTarget.PathRefusal) { resolved = try PublishTarget.resolve(destination) } catch {
            throw ReaderError(.io, file: destination, error.message)
        }
        switch resolved {
        case .writeThrough(let descriptor):
            self.descriptor = descriptor
            temporaryPath = nil
            target = destination
            slot = -1
        case .replace(let target):
            let (folder, prefix) = Self.hiddenSibling(of: target)
            guard let (path, descriptor) = TemporaryName.file(folder + prefix + "XXXXXX") else {
                throw ReaderError(.io, file: destination, "cannot create a file beside it: \(String(cString: strerror(errno)))")
            }
            self.descriptor = descriptor
            self.target = target
            temporaryPath = path
            slot = PendingFiles.register(path)
        }
    }

    deinit { if !done { discard() } }

    /// Flushes to disk and renames the temporary file to the destination (closes a
    /// destination written through).
    public func publish() throws {
        defer { done = true; PendingFiles.unregister(slot) }
        guard let temporaryPath else {
            guard close(descriptor) == 0 else {
                throw ReaderError(.io, file: destination, "cannot finish writing: \(String(cString: strerror(errno)))")
            }
            return
        }
        if let reason = Self.publish(descriptor: descriptor, path: temporaryPath, to: target) {
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

    /// Removes the temporary file; the destination is left as it was (what was written
    /// through stays written).
    public func discard() {
        guard !done else { return }
        done = true
        close(descriptor)
        if let temporaryPath { unlink(temporaryPath) }
        PendingFiles.unregister(slot)
    }
}
