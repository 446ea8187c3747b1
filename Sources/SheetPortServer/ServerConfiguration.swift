import Foundation
import SheetPortCore
import SheetPortReader
import SheetPortConvert
import SheetPortCalc
/// How `sheetport serve` runs: where, with what caps and how many threads.
public struct ServerConfiguration: Sendable {
    /// The data directory.
    public var dataDirectory: String
    /// Where to listen (port 0: the system chooses; the server prints the bound address).
    public var address: ListenAddress
    /// The largest upload accepted, in bytes.
    public var maxUploadBytes = 256 << 20
    /// The most cells an imported sheet's used range may span.
    public var maxCells = 10_000_000
    /// The HTTP daemon's threads, connection limits and timeouts.
    public var http = ConnectionLimits()
    /// libmicrohttpd polling threads (the request thread pool).
    public var threads: Int {
        get { http.threads }
        set { http.threads = newValue }
    }
    /// Import workers.
    public var workers = 2
    /// Exports built or streamed at once; past it an export answers 503 with `Retry-After`.
    public var exportsAtOnce = 4
    /// Connections served at once.
    public var connections: Int {
        get { http.connections }
        set { http.connections = newValue }
    }
    /// Event streams: caps, heartbeat and recheck intervals.
    public var eventStreams = EventStreamLimits()
    /// The archive limits imports read with.
    public var archiveLimits = ArchiveLimits()
    /// A shared PostgreSQL database (`postgresql://...`) instead of the data directory's
    /// SQLite file: the data directory is then this instance's local scratch only.
    public var databaseURL: String?
    /// The sealing key file shared by every instance (default: `seal.key` in the data directory).
    public var keyFile: String?
    /// Seconds a job's claim holds without renewal before another instance may take it over.
    public var lease: Double = 30
    /// The time zone NOW and TODAY read in (UTC unless `serve --time-zone` says otherwise).
    public var timeZone = TimeZone(identifier: "UTC")!
    /// The memory the calculation engines of recently used sheets may hold, in bytes (`--calc-memory`).
    public var calcMemory = 512 << 20
    /// The longest a write may calculate up to its answer, in seconds (`--calc-timeout`); past
    /// it the write is refused with 422 `calc-timeout`. Undo and restore are never refused for time.
    public var calcTimeout: Double = 30
    /// Threads that run writes' calculations (a sheet's writes one at a time, in order).
    public var calcWorkers = 4
    /// The most cells one write may change (`--max-batch-cells`): `cells` inputs, a `clear` or `copy` range.
    public var maxBatchCells = 100_000
    /// The largest body of one write, in bytes (`--max-batch-bytes`).
    public var maxBatchBytes = 8 << 20
    /// The largest rows window or view answer, in bytes (`--max-window-bytes`): past it the
    /// answer stops early with `next` (its first row is always answered).
    public var maxWindowBytes = 16 << 20
    /// The bounds of one formula's evaluation (arrays, memory, steps), reported by `GET /api/limits`.
    public var calcLimits = CalcLimits()
    /// The address people reach the server at (`--public-url`, such as `https://sheets.example`):
    /// the base of share links' URLs and the origin the page's changes must come from; nil: the
    /// listening address.
    public var publicURL: String?
    /// Where the server's log lines go (standard error unless an embedder or a test gives its own).
    package var log = ServerLog.standardError

    /// A configuration with the defaults.
    public init(dataDirectory: String, address: ListenAddress) {
        self.dataDirectory = dataDirectory
        self.address = address
    }

    /// Excel's grid and text limits, reported by `GET /api/limits`.
    public static let maxRows = CellReference.maxRow
    /// Columns of Excel's grid.
    public static let maxColumns = CellReference.maxColumn
    /// Characters (UTF-16 units) of a cell's text.
    public static let maxCellTextLength = PreflightOptions.maxCellTextLength
}
