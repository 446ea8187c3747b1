#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SheetPortCore

/// A private staging directory (mode 0700) where a file is built before it is published:
/// beside the destination (the writer's, renamed into place) or under the temporary
/// directory (export downloads, scratch space; Docs/Reference/CLI.md, "sheetport export"). Its name carries the
/// owner's process id; it is registered with `PendingFiles`, so SIGINT and SIGTERM remove it
/// (with `workbook.xlsx` and `workbook.xlsx.next` inside), and one left by a killed process is
/// swept by the next staging directory made with the same prefix in the same folder.
package final class Staging {
    /// The directory.
    let directory: String
    /// Where the finished file goes, as the caller named it (the directory itself for scratch space).
    let destination: String
    /// The regular file the finished file is renamed to: `destination`, or its symbolic link's target.
    private let target: String
    /// The open destination, when it is not a regular file and is written through.
    private var writeThrough: Int32?
    private var slot: Int?

    /// Creates `.<name>.sheetport-<pid>-XXXXXX` beside `destination` (beside its final target
    /// when it is a symbolic link), after sweeping staging directories there whose process is
    /// gone. A destination that is not a regular file (a device, a FIFO, `/dev/stdout`) is
    /// opened now and staged under the temporary directory, to be written through; a directory
    /// is refused (`PublishTarget`).
    convenience init(destination: String) throws {
        let resolved: PublishTarget
        do throws(PublishTarget.PathRefusal) { resolved = try PublishTarget.resolve(destination) } catch {
            throw WriterError.io(file: destination, message: error.message)
        }
        switch resolved {
        case .replace(let target):
            let (folder, prefix) = AtomicFile.hiddenSibling(of: target)
            try self.init(folder: folder.isEmpty ? "." : folder, prefix: prefix, destination: destination, target: target)
        case .writeThrough(let descriptor):
            do {
                try self.init(folder: Self.temporaryDirectory, prefix: "sheetport-output-", destination: destination, target: nil)
            } catch { close(descriptor); throw error }
            writeThrough = descriptor
        }
    }

    /// Creates `sheetport-<purpose>-<pid>-XXXXXX` under `$TMPDIR` (or `/tmp`), after sweeping
    /// those of ended processes; `purpose` tells the kinds apart (`export`, `scratch`).
    package convenience init(temporaryFor purpose: String) throws {
        try self.init(folder: Self.temporaryDirectory, prefix: "sheetport-\(purpose)-", destination: nil, target: nil)
    }

    private init(folder: String, prefix: String, destination: String?, target: String?) throws {
        Self.sweep(folder: folder, prefix: prefix)
        let separator = folder.hasSuffix("/") || folder.isEmpty ? "" : "/"
        let template = (target.map(PartName.directory(of:)) ?? folder + separator) + prefix + "\(getpid())-XXXXXX"
        guard let directory = TemporaryName.directory(template) else {
            let reason = String(cString: strerror(errno))
            throw WriterError.io(file: destination ?? folder, message: target == nil
                                 ? "cannot create a private staging directory in it: \(reason)"
                                 : "cannot create a staging directory beside it: \(reason)")
        }
        self.directory = directory
        self.destination = destination ?? directory
        self.target = target ?? directory
        slot = PendingFiles.register(directory)
    }

    deinit { remove() }

    /// `$TMPDIR`, or `/tmp` when it is unset or empty.
    static var temporaryDirectory: String {
        ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// A path inside the staging directory.
    package func path(_ name: String) -> String { directory + "/" + name }

    /// Flushes `file` (inside the directory) to disk, renames it to the destination with the
    /// mode a new file would get (or copies it into a destination written through), and
    /// removes the directory.
    func publish(_ file: String) throws {
        if let descriptor = writeThrough {
            writeThrough = nil
            defer { remove() }
            do { try ByteOutput(descriptor: descriptor, name: destination).copy(contentsOf: file) } catch {
                close(descriptor)
                throw WriterError.io(file: destination, message: "cannot write: \(error)")
            }
            guard close(descriptor) == 0 else {
                throw WriterError.io(file: destination, message: "cannot finish writing: \(String(cString: strerror(errno)))")
            }
            return
        }
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw WriterError.io(file: destination, message: "cannot open the finished workbook: \(String(cString: strerror(errno)))")
        }
        if let reason = AtomicFile.publish(descriptor: descriptor, path: file, to: target) {
            throw WriterError.io(file: destination, message: "cannot publish: \(reason)")
        }
        remove()
    }

    /// Removes the directory and everything in it.
    package func remove() {
        if let descriptor = writeThrough { close(descriptor); writeThrough = nil }
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
