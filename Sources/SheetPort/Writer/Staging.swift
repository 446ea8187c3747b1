#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A private staging directory (mode 0700) where a file is built before it is published:
/// beside the destination (the writer's, renamed into place) or under the temporary
/// directory (export downloads, scratch space; CONTRACTS section 5). Its name carries the
/// owner's process id; it is registered with `PendingFiles`, so SIGINT and SIGTERM remove it
/// (with `workbook.xlsx` and `workbook.xlsx.next` inside), and one left by a killed process is
/// swept by the next staging directory made with the same prefix in the same folder.
final class Staging {
    /// The directory.
    let directory: String
    /// Where the finished file goes (the directory itself for scratch space).
    let destination: String
    private var slot: Int?

    /// Creates `.<name>.sheetport-<pid>-XXXXXX` beside `destination`, after sweeping
    /// staging directories there whose process is gone.
    convenience init(destination: String) throws {
        let (folder, prefix) = AtomicFile.hiddenSibling(of: destination)
        try self.init(folder: folder.isEmpty ? "." : folder, prefix: prefix, destination: destination)
    }

    /// Creates `sheetport-<purpose>-<pid>-XXXXXX` under `$TMPDIR` (or `/tmp`), after sweeping
    /// those of ended processes; `purpose` tells the kinds apart (`export`, `scratch`).
    convenience init(temporaryFor purpose: String) throws {
        let base = Self.temporaryDirectory
        try self.init(folder: base, prefix: "sheetport-\(purpose)-", destination: nil)
    }

    private init(folder: String, prefix: String, destination: String?) throws {
        Self.sweep(folder: folder, prefix: prefix)
        let separator = folder.hasSuffix("/") || folder.isEmpty ? "" : "/"
        let template = (destination == nil ? folder + separator : PartName.directory(of: destination!)) + prefix + "\(getpid())-XXXXXX"
        guard let directory = TemporaryName.directory(template) else {
            let reason = String(cString: strerror(errno))
            throw WriterError.io(file: destination ?? folder, message: destination == nil
                                 ? "cannot create a private staging directory in it: \(reason)"
                                 : "cannot create a staging directory beside it: \(reason)")
        }
        self.directory = directory
        self.destination = destination ?? directory
        slot = PendingFiles.register(directory)
    }

    deinit { remove() }

    /// `$TMPDIR`, or `/tmp` when it is unset or empty.
    static var temporaryDirectory: String {
        ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// A path inside the staging directory.
    func path(_ name: String) -> String { directory + "/" + name }

    /// Flushes `file` (inside the directory) to disk, renames it to the destination with the
    /// mode a new file would get, and removes the directory.
    func publish(_ file: String) throws {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw WriterError.io(file: destination, message: "cannot open the finished workbook: \(String(cString: strerror(errno)))")
        }
        if let reason = AtomicFile.publish(descriptor: descriptor, path: file, to: destination) {
            throw WriterError.io(file: destination, message: "cannot publish: \(reason)")
        }
        remove()
    }

    /// Removes the directory and everything in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
        if let slot { PendingFiles.unregister(slot) }
        slot = nil
    }

    /// Removes `<prefix><pid>-*` directories in `folder` whose process has ended.
    private static func sweep(folder: String, prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0 else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(atPath: folder + "/" + name)
            }
        }
    }
}
