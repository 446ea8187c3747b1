/// What routes and workers share: the configuration, the data directory, the sealer, the
/// store's connections and the import queue.
package final class ServerContext: Sendable {
    /// The configuration.
    package let configuration: ServerConfiguration
    /// The data directory.
    package let directory: DataDirectory
    /// Seals and opens everything a workbook contributes.
    package let sealer: Sealer
    /// The store: the data directory's SQLite file, or a shared PostgreSQL database.
    package let store: StoreLocation
    /// Connections for request threads.
    package let connections: ConnectionPool
    /// The import queue.
    package let imports: ImportQueue
    /// Every sheet's "changed (id, version)" signal.
    package let changes = SheetChanges()
    /// The open event streams and their caps.
    let events: EventStreams
    /// The cap on exports at once.
    package let exports: ExportSlots
    /// "Sheet (id) changed to version N", heard from every instance (`onChange` is the hook).
    package let sheetChanges: SheetChangeFeed
    /// Renews the leases of the jobs this instance runs (a shared store's).
    let leases: LeaseKeeper
    /// The calculation graphs of recently used sheets (`--calc-memory`).
    let engines: SheetEngines
    /// Stores what writes left to compute after their answer (`SheetSettle`).
    let settler: SheetSettler
    /// Run writes off the polling threads, a sheet's one at a time and in order (`CalcWorkers`).
    let writers: CalcWorkers
    /// Run the reads that may compute (rows windows, views, exports) off the polling threads.
    let readers: CalcWorkers
    /// Passes over worksheets the import jobs of this instance made (one a job: tests hold it there).
    let worksheetPasses = PassCount()
    /// Checkpoints SQLite's WAL once a write found the storage full.
    let relief: StorageRelief
    /// The web page's cookie and addresses.
    let web: WebState
    /// This server's log.
    package var log: ServerLog { configuration.log }

    init(configuration: ServerConfiguration) throws {
        self.configuration = configuration
        directory = try DataDirectory(path: configuration.dataDirectory)
        if configuration.databaseURL != nil, configuration.keyFile == nil {
            throw ServerError.configuration("--database needs --key-file F: every instance seals with the same key")
        }
        // A shared store's sessions are bounded by this server's lease (its own, not the process's).
        store = (configuration.databaseURL.map { StoreLocation.postgres(url: $0) } ?? .sqlite(path: directory.database))
            .boundingSessions(lease: configuration.lease)
        // Creates or migrates the tables, then checks the key against the one the store is
        // sealed with before anything else (recovery above all) touches the store.
        sealer = try KeyCheck.establish(keyFile: configuration.keyFile ?? directory.keyFile, store: store,
                                        staging: configuration.databaseURL == nil ? directory.staging : nil, create: true)!
        // Job results and errors are sealed with this key; those written before are sealed now.
        let opened = try store.open()
        opened.jobSealer = sealer
        try opened.sealPlaintextJobTexts()
        // A SQLite store of an earlier version is switched to incremental vacuum, once.
        try Schema.enableIncrementalVacuum(opened, log: configuration.log)
        web = try WebState(publicURL: configuration.publicURL, opened)
        writers = CalcWorkers(count: configuration.calcWorkers, name: "calc writer")
        readers = CalcWorkers(count: configuration.threads, name: "calc reader")
        // A connection for each thread that runs requests: the polling threads and both kinds of workers.
        connections = try ConnectionPool(count: configuration.threads + configuration.calcWorkers + configuration.threads + 2) { [store, sealer] in try Self.connect(store, sealer: sealer) }
        imports = ImportQueue()
        events = EventStreams(limits: configuration.eventStreams)
        exports = ExportSlots(limit: configuration.exportsAtOnce)
        leases = LeaseKeeper(store: store, lease: configuration.lease, log: configuration.log)
        sheetChanges = SheetChangeFeed(store: store, log: configuration.log)
        relief = StorageRelief(store: store, log: configuration.log)
        // A change heard from any instance wakes this instance's parked waits and event streams.
        sheetChanges.onChange { [changes] sheet, version in changes.signal(SheetChange(sheet: sheet, version: version)) }
        // Another instance's write: this instance's graph of that sheet is stale.
        engines = SheetEngines(budget: configuration.calcMemory)
        settler = SheetSettler()
        sheetChanges.onChange { [engines] sheet, version in engines.drop(sheet, olderThan: version) }
        // An export whose token, session or grant is revoked ends within a recheck, as an event stream does.
        exports.recheck(every: configuration.eventStreams.recheck) { [weak self] access in
            guard let self else { return true }
            do {
                return try database { database in
                    try access.credential.subject(in: database) == access.subject && database.sheet(access.sheet, for: access.subject) != nil
                }
            } catch {
                return true // the store failing is not a revocation: the next look decides
            }
        }
    }

    /// A new connection to the store whose job results and errors are sealed with this server's key.
    package func connect() throws -> Database { try Self.connect(store, sealer: sealer) }

    private static func connect(_ store: StoreLocation, sealer: Sealer) throws -> Database {
        let database = try store.connect()
        database.jobSealer = sealer
        return database
    }

    /// Runs `body` with a database connection.
    package func database<T>(_ body: (Database) throws -> T) throws -> T { try connections.with(body) }
}

