import CSQLite

/// One SQLite connection in WAL mode with a busy timeout and a cache of prepared statements:
/// the embedded store's `StoreConnection`.
///
/// Not thread-safe: a connection is used by one thread at a time (`ConnectionPool` hands them out).
final class SQLiteConnection: StoreConnection {
    /// The database file.
    package let path: String
    private var handle: OpaquePointer?
    private var statements: [String: Statement] = [:]

    /// Opens (creating) the database at `path`, in WAL mode, with foreign keys on.
    package init(path: String) throws {
        self.path = path
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            throw ServerError.database(code: SQLITE_CANTOPEN, message: "\(path): \(message)")
        }
        sqlite3_busy_timeout(handle, 10_000)
        // Rows are stored as sealed blocks of tens of KiB: 64 KiB pages write them in a few
        // page writes, not dozens of 4 KiB ones (a 2 M-cell import wrote 38,000 pages of 4 KiB
        // to the WAL and as many again at checkpoints). It applies when a new database gets its
        // first page, and must come before WAL mode; an existing database keeps its size.
        try execute("PRAGMA page_size=65536")
        // Pages freed by deleting a sheet go back to the file system in bounded steps
        // (`Database.reclaimSpace()`); like the page size, it applies to a new database, and an
        // existing one is switched once at start (`Schema.enableIncrementalVacuum`).
        try execute("PRAGMA auto_vacuum=INCREMENTAL")
        try execute("PRAGMA journal_mode=WAL")
        // Checkpoint every 16 MiB of WAL (256 pages of 64 KiB), as the default 1,000 pages of 4 KiB did about.
        try execute("PRAGMA wal_autocheckpoint=256")
        // A WAL that grew during a large import or delete is cut back to 16 MiB at a checkpoint,
        // so the space the data gave back is not held by the WAL instead.
        try execute("PRAGMA journal_size_limit=16777216")
        try execute("PRAGMA synchronous=NORMAL")
        try execute("PRAGMA foreign_keys=ON")
        // Freed pages are zeroed, so deleted sealed blocks leave nothing behind either.
        try execute("PRAGMA secure_delete=ON")
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs SQL with no parameters and no rows (several statements allowed).
    package func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "error"
            sqlite3_free(message)
            throw ServerError.database(code: code, message: text)
        }
    }

    /// The prepared statement for `sql` (prepared once per connection), reset and unbound.
    package func statement(_ sql: String) throws -> Statement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        var prepared: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil) == SQLITE_OK, let prepared else {
            throw error()
        }
        let statement = Statement(handle: prepared, connection: self)
        statements[sql] = statement
        return statement
    }

    /// Runs `sql` with `values` bound and returns the rows.
    @discardableResult
    package func query(_ sql: String, _ values: [SQLValue] = []) throws -> [[SQLValue]] {
        let statement = try statement(sql)
        try statement.bind(values)
        var rows: [[SQLValue]] = []
        while try statement.step() { rows.append(statement.columns()) }
        statement.reset()
        return rows
    }

    /// An immediate transaction: the write lock is taken at once, so two writers never deadlock.
    func begin() throws { try execute("BEGIN IMMEDIATE") }

    /// The clock in milliseconds since 1970, as SQL.
    let nowMilliseconds = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"

    /// The column that orders rows by insertion.
    let insertionOrder = "rowid"

    /// Which store this is.
    let kind = StoreKind.sqlite

    /// Rows changed by the last statement.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether a transaction is open on this connection.
    var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    func error() -> ServerError {
        ServerError.database(code: sqlite3_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// A prepared statement.
final class Statement {
    private let handle: OpaquePointer
    private unowned let database: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.database = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// A non-null pointer for empty text: SQLite binds a null pointer as SQL NULL.
    private static var emptyText: UnsafePointer<CChar> {
        UnsafeRawPointer(("" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// Binds `values` to the parameters 1, 2, ...
    package func bind(_ values: [SQLValue]) throws {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
            case .real(let number): code = sqlite3_bind_double(handle, index, number)
            case .text(let text):
                // By byte count: a NUL inside the text is stored, never a place where it ends.
                var text = text
                code = text.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) {
                        sp_sqlite3_bind_text64_transient(handle, index, $0.baseAddress ?? Self.emptyText, sqlite3_uint64($0.count))
                    }
                }
            case .blob(let bytes): code = bytes.withUnsafeBytes { sp_sqlite3_bind_blob_transient(handle, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count)) }
            }
            guard code == SQLITE_OK else { throw database.error() }
        }
    }

    /// Steps once: true when a row is ready.
    package func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = database.error()
            reset()
            throw error
        }
    }

    /// The current row's columns.
    package func columns() -> [SQLValue] {
        (0..<sqlite3_column_count(handle)).map { index in
            switch sqlite3_column_type(handle, index) {
            case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
            case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
            case SQLITE_TEXT:
                // By byte count, as bound: a stored NUL comes back, it does not cut the text.
                let count = Int(sqlite3_column_bytes(handle, index))
                guard count > 0, let text = sqlite3_column_text(handle, index) else { return .text("") }
                return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
            case SQLITE_BLOB:
                let count = Int(sqlite3_column_bytes(handle, index))
                guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return .blob([]) }
                return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
            default: return .null
            }
        }
    }

    /// Resets the statement and clears its bindings.
    package func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }
}

