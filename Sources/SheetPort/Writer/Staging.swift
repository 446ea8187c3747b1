#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A private staging directory (mode 0700) beside a destination file, where a workbook is
/// built before it is renamed into place. It is registered with `PendingFiles`, so SIGINT
/// and SIGTERM remove it; one left by a killed process is swept by the next writer.
final class Staging {
    /// The directory.
    let directory: String
    /// Where the finished file goes.
    let destination: String
    private var slot: Int?

    /// Creates `.<name>.sheetport-<pid>-XXXXXX` beside `destination`, after sweeping
    /// staging directories there whose process is gone.
    init(destination: String) throws {
        self.destination = destination
        let folder = PartName.directory(of: destination)
        let base = String(destination.dropFirst(folder.count))
        Self.sweep(folder: folder.isEmpty ? "." : folder, base: base)
        guard let directory = TemporaryName.directory(folder + "." + base + ".sheetport-\(getpid())-XXXXXX") else {
            throw WriterError.io(file: destination, message: "cannot create a staging directory beside it: \(String(cString: strerror(errno)))")
        }
        self.directory = directory
        slot = PendingFiles.register(directory)
    }

    deinit { remove() }

    /// A path inside the staging directory.
    func path(_ name: String) -> String { directory + "/" + name }

    /// Flushes `file` (inside the directory) to disk, renames it to the destination with the
    /// mode a new file would get, and removes the directory.
    func publish(_ file: String) throws {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        let umaskValue = umask(0); umask(umaskValue)
        guard descriptor >= 0, fchmod(descriptor, 0o666 & ~umaskValue) == 0, fsync(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw WriterError.io(file: destination, message: "cannot flush the finished workbook: \(reason)")
        }
        close(descriptor)
        guard rename(file, destination) == 0 else {
            throw WriterError.io(file: destination, message: "cannot publish: \(String(cString: strerror(errno)))")
        }
        remove()
    }

    /// Removes the directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
        if let slot { PendingFiles.unregister(slot) }
        slot = nil
    }

    /// Removes `.<base>.sheetport-<pid>-*` directories in `folder` whose process has ended.
    private static func sweep(folder: String, base: String) {
        let prefix = "." + base + ".sheetport-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]) else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(atPath: folder + "/" + name)
            }
        }
    }
}
