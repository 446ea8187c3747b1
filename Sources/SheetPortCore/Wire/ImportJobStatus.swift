/// Where an import job is (Docs/Reference/HTTP.md, "Imports"): one typed value for the store, the routes,
/// the client's models and the commands, so that no side compares strings.
public enum ImportJobStatus: String, Sendable, CaseIterable {
    /// Waiting for a worker.
    case queued
    /// A worker is converting the workbook.
    case running
    /// Ended with a sheet.
    case succeeded
    /// Ended with an error; no sheet is left.
    case failed
    /// Cancelled by its owner; no sheet is left.
    case cancelled

    /// Whether the job has ended (it will not change again).
    public var isFinal: Bool { self == .succeeded || self == .failed || self == .cancelled }
}
