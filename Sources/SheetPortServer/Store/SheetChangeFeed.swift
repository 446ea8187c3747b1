import Foundation

/// "Sheet (id) changed to version N": told by whatever changes a sheet (a rename, an import's
/// end) and heard by every instance. On a shared store the notice goes through PostgreSQL
/// (`NOTIFY sheetport_sheet_changes` in the transaction of the change, so it is sent only if
/// that commits; a listener thread with a connection of its own `LISTEN`s) and reaches
/// `onChange`, the hook the waiter hub sets (`minVersion` waits, `events` streams). The
/// changing instance signals its own hub directly after the commit; the embedded store has no
/// other instance, so there the feed is silent. A notice is a wake-up: the version in the
/// database stays the truth.
package final class SheetChangeFeed: @unchecked Sendable {
    /// The PostgreSQL channel.
    static let channel = "sheetport_sheet_changes"

    private let store: StoreLocation
    private let log: ServerLog
    private let lock = NSLock()
    private var handlers: [@Sendable (_ sheet: String, _ version: Int) -> Void] = []
    private var stopping = false
    private let thread = JoinableThread()

    init(store: StoreLocation, log: ServerLog) {
        self.store = store
        self.log = log
    }

    /// Adds a hook called on the feed's thread for every change heard, with the sheet id and its
    /// new version.
    package func onChange(_ handler: @escaping @Sendable (_ sheet: String, _ version: Int) -> Void) {
        lock.lock()
        handlers.append(handler)
        lock.unlock()
    }

    /// Tells every other instance that `sheet` is at `version`: call it in the transaction that
    /// made the change. On the embedded store there is no other instance.
    func publish(sheet: String, version: Int, _ database: Database) throws {
        guard database.kind == .postgres else { return }
        try database.query("SELECT pg_notify(?, ?)", [.text(Self.channel), .text("\(sheet):\(version)")])
    }

    private func deliver(sheet: String, version: Int) {
        lock.lock()
        let current = handlers
        lock.unlock()
        current.forEach { $0(sheet, version) }
    }

    /// Starts listening (a shared store only), connecting again after a lost connection.
    func start() {
        guard case .postgres(let url, let bounds) = store else { return }
        thread.start(named: "sheet change feed") { [self] in
            var connection: PostgresConnection?
            while !isStopping {
                do {
                    if connection == nil {
                        let listener = try PostgresConnection(url: url, bounds: bounds)
                        try listener.execute("LISTEN \(Self.channel)")
                        connection = listener
                    }
                    for payload in try connection!.notifications(timeout: 0.25) {
                        let parts = payload.split(separator: ":")
                        guard parts.count == 2, let version = Int(parts[1]) else { continue }
                        deliver(sheet: String(parts[0]), version: version)
                    }
                } catch {
                    connection = nil
                    log.write("sheet change notices: \(error); listening again")
                    usleep(500_000)
                }
            }
        }
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    /// Stops listening.
    func stop() {
        lock.withLock { stopping = true }
        thread.join()
    }
}
