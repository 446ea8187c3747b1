/// What routes and workers share: the configuration, the data directory, the sealer, the
/// database connections and the import queue.
public final class ServerContext: Sendable {
    /// The configuration.
    public let configuration: ServerConfiguration
    /// The data directory.
    public let directory: DataDirectory
    /// Seals and opens everything a workbook contributes.
    public let sealer: Sealer
    /// Connections for request threads.
    public let connections: ConnectionPool
    /// The import queue.
    public let imports: ImportQueue
    /// Every sheet's "changed (id, version)" signal.
    public let changes = SheetChanges()
    /// The open event streams and their caps.
    let events: EventStreams
    /// The cap on exports at once.
    public let exports: ExportSlots

    init(configuration: ServerConfiguration) throws {
        self.configuration = configuration
        directory = try DataDirectory(path: configuration.dataDirectory)
        sealer = try directory.sealer()
        _ = try directory.openDatabase() // creates the tables
        connections = try ConnectionPool(path: directory.database, count: configuration.threads + 2)
        imports = ImportQueue()
        events = EventStreams(limits: configuration.eventStreams)
        exports = ExportSlots(limit: configuration.exportsAtOnce)
    }

    /// Runs `body` with a database connection.
    public func database<T>(_ body: (Database) throws -> T) throws -> T { try connections.with(body) }
}
