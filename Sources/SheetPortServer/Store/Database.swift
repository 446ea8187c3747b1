import Foundation
/// Which store a `Database` talks to.
package enum StoreKind: Sendable {
    /// The embedded default: one SQLite file in the data directory, one server process.
    case sqlite
    /// A PostgreSQL database shared by several server processes (Docs/Reference/CLI.md, "sheetport serve").
    case postgres

    /// Whether several server instances share the store: then jobs are claimed from it under
    /// leases, staged uploads are kept in it (any instance may run the job), and changes are
    /// announced to the other instances. The embedded store belongs to one process. What the
    /// domain asks instead of which database runs.
    package var isShared: Bool { self == .postgres }
}

/// What a store's connection does: the same SQL (`?` and `?N` parameters, bound by length,
/// never spliced into the text) on SQLite or PostgreSQL. `Database` wraps one, so routes,
/// jobs and queries do not know which store runs.
protocol StoreConnection: AnyObject {
    /// Which store this is.
    var kind: StoreKind { get }
    /// Runs SQL with no parameters and no rows (several statements allowed).
    func execute(_ sql: String) throws
    /// Runs `sql` with `values` bound and returns the rows.
    func query(_ sql: String, _ values: [SQLValue]) throws -> [[SQLValue]]
    /// Starts a transaction that writes (SQLite takes its write lock at once).
    func begin() throws
    /// Rows changed by the last statement.
    var changes: Int { get }
    /// The store's clock in milliseconds since 1970, as an SQL expression (leases use the
    /// database's clock, so instances on machines whose clocks differ agree).
    var nowMilliseconds: String { get }
    /// The column that orders a table's rows by insertion.
    var insertionOrder: String { get }
}

/// Where the store is: a SQLite file, or a PostgreSQL connection URL.
package enum StoreLocation: Sendable, Equatable {
    /// The embedded SQLite database file.
    case sqlite(path: String)
    /// A `postgresql://` (or `postgres://`) URL, or a libpq `key=value` connection string, and
    /// the bounds its sessions set (a server's, from its lease).
    case postgres(url: String, bounds: PostgresSessionBounds = .init())

    /// Opens a connection (the schema is made by `Schema.prepare`).
    package func connect() throws -> Database {
        switch self {
        case .sqlite(let path): return Database(try SQLiteConnection(path: path))
        case .postgres(let url, let bounds): return Database(try PostgresConnection(url: url, bounds: bounds))
        }
    }

    /// Opens a connection and creates or migrates the schema (once, however many processes
    /// start at once).
    package func open() throws -> Database {
        let database = try connect()
        try Schema.prepare(database)
        return database
    }

    /// Which store this is.
    package var kind: StoreKind {
        if case .sqlite = self { return .sqlite }
        return .postgres
    }

    /// Whether several server instances share the store (`StoreKind.isShared`).
    package var isShared: Bool { kind.isShared }

    /// This location with its sessions to a shared store bounded for a server holding leases
    /// of `lease` seconds: a frozen instance's session is ended within half a lease (1 to 10 s),
    /// releasing its locks; no lock is waited for much longer (`PostgresSessionBounds`). The
    /// bounds travel with the location, so two servers in one process keep their own. The
    /// embedded store has nothing to bound.
    package func boundingSessions(lease: Double) -> StoreLocation {
        guard case .postgres(let url, _) = self else { return self }
        let idle = min(max(lease / 2, 1), 10)
        return .postgres(url: url, bounds: PostgresSessionBounds(lockTimeout: idle + 2, idleInTransactionTimeout: idle))
    }
}

/// One connection to the store, SQLite or PostgreSQL.
///
/// Not thread-safe: a connection is used by one thread at a time (`ConnectionPool` hands them out).
package final class Database {
    let connection: any StoreConnection
    /// The key this connection seals and opens job results and errors with (`SealedJobText`):
    /// its server's, set on the connections a server opens; nil (a store opened by
    /// `sheetport token`, a test) reads and writes them as they are.
    package var jobSealer: Sealer?

    init(_ connection: any StoreConnection) {
        self.connection = connection
    }

    /// Opens (creating) the SQLite database at `path`, in WAL mode, with foreign keys on.
    package convenience init(path: String) throws {
        self.init(try SQLiteConnection(path: path))
    }

    /// Which store this is.
    package var kind: StoreKind { connection.kind }

    /// Whether several server instances share the store (`StoreKind.isShared`).
    package var isShared: Bool { kind.isShared }

    /// Runs SQL with no parameters and no rows (several statements allowed).
    package func execute(_ sql: String) throws { try connection.execute(sql) }

    /// Runs `sql` with `values` bound and returns the rows.
    @discardableResult
    package func query(_ sql: String, _ values: [SQLValue] = []) throws -> [[SQLValue]] {
        try connection.query(sql, values)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try connection.begin()
        do {
            let result = try body()
            try connection.execute("COMMIT")
            return result
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Rows changed by the last statement.
    package var changes: Int { connection.changes }

    /// The store's clock in milliseconds since 1970, as SQL.
    var nowMilliseconds: String { connection.nowMilliseconds }

    /// The column that orders rows by insertion.
    var insertionOrder: String { connection.insertionOrder }
}
