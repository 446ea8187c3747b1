#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SheetPortCore

/// The outcome of exporting one sheet: a row of `export`'s result table.
public struct ExportResult: Sendable {
    /// The sheet's name (or what was asked for, when no sheet has it).
    public var sheet: String
    /// The sheet's id, when found.
    public var sheetID: String?
    /// Where it was (or would have been) published.
    public var file: String
    public var bytes: Int64 = 0
    public var seconds: Double = 0
    /// `X-Sheet-Version` of the export.
    public var version: String?
    /// Why it failed, with control characters made visible; nil when published.
    public var error: String?

    /// Whether the file was published.
    public var succeeded: Bool { error == nil }

    public init(sheet: String, sheetID: String?, file: String, error: String? = nil) {
        self.sheet = sheet
        self.sheetID = sheetID
        self.file = file
        self.error = error
    }
}

/// Exports several sheets, `concurrency` at a time, each on its own thread with its own
/// connection, staging file and publish; one failure does not stop the others.
public final class BulkExport: @unchecked Sendable {
    private let connection: ServerConnection
    private let transfers: [ExportTransfer]
    private let concurrency: Int
    private let timeout: Double
    private let maxSpeed: Int64
    private let lock = NSLock()
    private var next = 0
    private var results: [ExportResult?]
    private var stagedBytes: [Int64]
    // Running totals of the two arrays, so that progress costs no pass over all sheets per chunk.
    private var finishedCount = 0
    private var stagedTotal: Int64 = 0

    /// `transfers` run `concurrency` at a time; `timeout` (seconds, 0 none) bounds each try
    /// of a download, `maxSpeed` (bytes a second, 0 none) each transfer's speed.
    package init(connection: ServerConnection, transfers: [ExportTransfer], concurrency: Int, timeout: Double = 0, maxSpeed: Int64 = 0) {
        self.connection = connection
        self.transfers = transfers
        self.concurrency = max(1, min(concurrency, transfers.count))
        self.timeout = timeout
        self.maxSpeed = maxSpeed
        results = Array(repeating: nil, count: transfers.count)
        stagedBytes = Array(repeating: 0, count: transfers.count)
    }

    /// Runs them all; returns one result per transfer, in order. `progress` is called (on the
    /// worker threads, under a lock) with the transfers done and the bytes staged so far.
    public func run(progress: @escaping @Sendable (_ done: Int, _ total: Int, _ bytes: Int64) -> Void = { _, _, _ in }) -> [ExportResult] {
        let group = DispatchGroup()
        for _ in 0..<concurrency {
            group.enter()
            let thread = Thread { [self] in
                work(progress)
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
        return results.map { $0! }
    }

    private func work(_ progress: @escaping @Sendable (Int, Int, Int64) -> Void) {
        let client = HTTPClient(connectTimeout: 10, timeout: timeout)
        client.maxReceiveSpeed = maxSpeed
        while let index = take() {
            let transfer = transfers[index]
            var result = ExportResult(sheet: transfer.sheet.name, sheetID: transfer.sheet.id, file: transfer.destination)
            let start = Date()
            do {
                let outcome = try transfer.run(on: connection, client: client) { bytes in
                    self.report(index, bytes: bytes, progress)
                }
                result.bytes = outcome.bytes
                result.version = outcome.version
            } catch {
                // ClientError escapes what the server sent; anything else is escaped here.
                result.error = (error as? ClientError)?.description ?? "\(error)".visibleControlCharacters
            }
            result.seconds = Date().timeIntervalSince(start)
            finish(index, result, progress)
        }
    }

    private func take() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard next < transfers.count else { return nil }
        next += 1
        return next - 1
    }

    private func report(_ index: Int, bytes: Int64, _ progress: (Int, Int, Int64) -> Void) {
        lock.lock(); defer { lock.unlock() }
        stage(index, bytes: bytes, progress)
    }

    private func finish(_ index: Int, _ result: ExportResult, _ progress: (Int, Int, Int64) -> Void) {
        lock.lock(); defer { lock.unlock() }
        results[index] = result
        finishedCount += 1
        stage(index, bytes: result.bytes, progress)
    }

    /// Under the lock: the bytes staged for sheet `index`, then the totals to `progress`.
    private func stage(_ index: Int, bytes: Int64, _ progress: (Int, Int, Int64) -> Void) {
        stagedTotal += bytes - stagedBytes[index]
        stagedBytes[index] = bytes
        progress(finishedCount, transfers.count, stagedTotal)
    }
}
