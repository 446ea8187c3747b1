import Foundation

/// "Sheet (id) changed to version N": told by whatever changes a sheet (a rename, an import's
/// end) and heard by every instance. On a shared store the notice goes through PostgreSQL
/// (`NOTIFY sheetport_sheet_changes` in the transaction of the change, so it is sent only if
/// that commits; a listener thread with a connection of its own `LISTEN`s); on the embedded
/// store it is delivered in process. Either way it reaches `onChange`, the hook a waiter hub
/// sets (waiters of `minVersion`, `events` streams); a notice is a wake-up, the version in the
/// database stays the truth.
public final class SheetChangeFeed: @unchecked Sendable {
    /// The PostgreSQL channel.
    static let channel = "sheetport_sheet_changes"

    private let store: StoreLocation
    private let lock = NSCondition()
    private var handlers: [@Sendable (_ sheet: String, _ version: Int) -> Void] = []
    private var latest: [String: Int] = [:]
    private var stopping = false
    private var thread: Thread?
    private let done = DispatchSemaphore(value: 0)

    init(store: StoreLocation) {
        self.store = store
    }

    /// Adds a hook called (on the feed's thread, or the changing thread on the embedded store)
    /// for every change, with the sheet id and its new version.
    public func onChange(_ handler: @escaping @Sendable (_ sheet: String, _ version: Int) -> Void) {
        lock.lock()
        handlers.append(handler)
        lock.unlock()
    }

    /// Tells every instance that `sheet` is at `version`: call it in the transaction that made
    /// the change. On the embedded store the change is delivered at once.
    func publish(sheet: String, version: Int, _ database: Database) throws {
        switch database.kind {
        case .postgres:
            try database.query("SELECT pg_notify(?, ?)", [.text(Self.channel), .text("\(sheet):\(version)")])
        case .sqlite:
            deliver(sheet: sheet, version: version)
        }
    }

    /// Waits until `sheet` is known (from a notice) to be at `version` or later, or until
    /// `deadline`; true when it is. A caller re-reads the version after a false too.
    func wait(sheet: String, version: Int, until deadline: Date) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        while (latest[sheet] ?? 0) < version {
            guard lock.wait(until: deadline) else { return (latest[sheet] ?? 0) >= version }
        }
        return true
    }

    private func deliver(sheet: String, version: Int) {
        lock.lock()
        latest[sheet] = max(latest[sheet] ?? 0, version)
        if latest.count > 10_000 { latest.removeAll() } // wake-ups only: the database is the truth
        let current = handlers
        lock.broadcast()
        lock.unlock()
        current.forEach { $0(sheet, version) }
    }

    /// Starts listening (a shared store only), connecting again after a lost connection.
    func start() {
        guard case .postgres(let url) = store else { return }
        let thread = Thread { [self] in
            defer { done.signal() }
            var connection: PostgresConnection?
            while !isStopping {
                do {
                    if connection == nil {
                        let listener = try PostgresConnection(url: url)
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
                    ServerLog.write("sheet change notices: \(error); listening again")
                    usleep(500_000)
                }
            }
        }
        thread.name = "sheet change feed"
        thread.start()
        self.thread = thread
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    /// Stops listening.
    func stop() {
        lock.lock()
        stopping = true
        lock.unlock()
        if thread != nil { done.wait() }
        thread = nil
    }
}
