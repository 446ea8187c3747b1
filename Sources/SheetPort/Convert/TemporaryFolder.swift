#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A private folder (mode 0700) under the temporary directory, removed with everything in
/// it when released, on SIGINT or SIGTERM (with `PendingFiles.removeOnSignals()`), or by
/// `remove()`. Files in it are meant to be named `workbook.xlsx` (and `.next`), which the
/// signal handler knows to remove.
public final class TemporaryFolder {
    /// The folder's path.
    public let path: String
    private var slot: Int

    /// Creates `sheetport-XXXXXX` under `$TMPDIR` (or `/tmp`).
    public init() throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        guard let path = TemporaryName.directory(base + "/sheetport-XXXXXX") else {
            throw ReaderError(.io, file: base, "cannot create a private folder: \(String(cString: strerror(errno)))")
        }
        self.path = path
        slot = PendingFiles.register(path)
    }

    deinit { remove() }

    /// Removes the folder and its content.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
        PendingFiles.unregister(slot)
        slot = -1
    }
}
