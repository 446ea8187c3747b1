/// A private folder (mode 0700) under the temporary directory, removed with everything in
/// it when released, on SIGINT or SIGTERM (with `PendingFiles.removeOnSignals()`), or by
/// `remove()`; one left by a killed process is swept by the next. Files in it are meant to be
/// named `workbook.xlsx` (and `.next`), which the signal handler knows to remove.
public final class TemporaryFolder {
    private let staging: Staging

    /// The folder's path.
    public var path: String { staging.directory }

    /// Creates `sheetport-scratch-<pid>-XXXXXX` under `$TMPDIR` (or `/tmp`).
    public init() throws {
        staging = try Staging(temporaryFor: "scratch")
    }

    /// Removes the folder and its content.
    public func remove() { staging.remove() }
}
