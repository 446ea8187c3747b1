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
    /// For a file named inside a folder (`init(entry:in:)`): the folder's descriptor, the
    /// entry's name and the temporary file's name in it.
    private let entry: (folder: Int32, name: String, temporary: String)?

    /// Creates the temporary file (mode 0600 until published) beside `destination` (beside
    /// its final target when it is a symbolic link), or opens a destination that is not a
    /// regular file to write through; throws for a directory.
    public init(destination: String) throws {
        self.destination = destination
        let resolved: PublishTarget
        do throws(PublishTarget.PathRefusal) { resolved = try PublishTarget.resolve(destination) } catch {
            throw ReaderError(.io, file: destination, error.message)
        }
        entry = nil
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

    /// Creates the temporary file (mode 0600 until published) in `folder` for the entry `name`,
    /// a name that came from a workbook or a server (`FolderEntry`): throws at once when `name`
    /// is a symbolic link, a FIFO, a device, a socket or a directory there; publishing renames
    /// over the entry relative to the folder, never following a link.
    public init(entry name: String, in folder: String) throws {
        destination = FolderEntry.path(name, in: folder)
        let folderDescriptor: Int32, temporary: (name: String, descriptor: Int32)
        do throws(FolderEntry.Refusal) {
            folderDescriptor = try FolderEntry.openFolder(folder)
            do throws(FolderEntry.Refusal) {
                try FolderEntry.check(name, in: folderDescriptor)
                temporary = try FolderEntry.createTemporary(for: name, in: folderDescriptor)
            } catch {
                close(folderDescriptor)
                throw error
            }
        } catch {
            throw ReaderError(.io, file: destination, error.message)
        }
        descriptor = temporary.descriptor
        target = destination
        temporaryPath = FolderEntry.path(temporary.name, in: folder)
        entry = (folderDescriptor, name, temporary.name)
        slot = PendingFiles.register(temporaryPath!)
    }

    deinit { if !done { discard() } }

    /// Flushes to disk and renames the temporary file to the destination (closes a
    /// destination written through).
    public func publish() throws {
        defer { done = true; PendingFiles.unregister(slot) }
        if let entry {
            defer { close(entry.folder) }
            if let reason = Self.publish(descriptor: descriptor, path: entry.temporary, to: entry.name, in: entry.folder) {
                unlinkat(entry.folder, entry.temporary, 0)
                throw ReaderError(.io, file: destination, "cannot publish: \(reason)")
            }
            return
        }
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
        publish(descriptor: descriptor, path: path, to: destination, in: AT_FDCWD)
    }

    /// `publish(descriptor:path:to:)` with both names relative to the folder `folder`
    /// (`renameat`: the entry is replaced, a link there never followed).
    static func publish(descriptor: Int32, path: String, to destination: String, in folder: Int32) -> String? {
        let umaskValue = umask(0); umask(umaskValue)
        guard fchmod(descriptor, 0o666 & ~umaskValue) == 0, fsync(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            return reason
        }
        guard close(descriptor) == 0, renameat(folder, path, folder, destination) == 0 else { return String(cString: strerror(errno)) }
        return nil
    }

    /// Removes the temporary file; the destination is left as it was (what was written
    /// through stays written).
    public func discard() {
        guard !done else { return }
        done = true
        close(descriptor)
        if let entry {
            unlinkat(entry.folder, entry.temporary, 0)
            close(entry.folder)
        } else if let temporaryPath {
            unlink(temporaryPath)
        }
        PendingFiles.unregister(slot)
    }
}
