/// The server's tables. Everything a workbook contributes (cell inputs, values and styles,
/// comments, column widths) is stored only in sealed blobs; ids, names, counts and statuses are
/// plain so they can be queried.
enum Schema {
    /// Creates the tables when missing and migrates older ones, on either store.
    static func prepare(_ database: Database) throws {
        switch database.kind {
        case .sqlite: try create(database)
        case .postgres: try PostgresSchema.prepare(database)
        }
    }

    /// Creates the SQLite tables when missing.
    static func create(_ database: Database) throws {
        try database.execute("""
        CREATE TABLE IF NOT EXISTS sessions (
            token_hash BLOB PRIMARY KEY,
            subject TEXT NOT NULL,
            created INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS sessions_subject ON sessions(subject);
        CREATE TABLE IF NOT EXISTS sheets (
            id TEXT PRIMARY KEY,
            owner TEXT NOT NULL,
            name TEXT NOT NULL,
            version INTEGER NOT NULL DEFAULT 0,
            rows INTEGER NOT NULL DEFAULT 0,
            columns INTEGER NOT NULL DEFAULT 0,
            visible INTEGER NOT NULL DEFAULT 0,
            job_id TEXT,
            layout BLOB,
            created INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS grants (
            sheet_id TEXT NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
            subject TEXT NOT NULL,
            role TEXT NOT NULL,
            PRIMARY KEY (sheet_id, subject)
        );
        CREATE TABLE IF NOT EXISTS row_blocks (
            sheet_id TEXT NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
            block INTEGER NOT NULL,
            first_row INTEGER NOT NULL,
            last_row INTEGER NOT NULL,
            data BLOB NOT NULL,
            PRIMARY KEY (sheet_id, block)
        );
        CREATE TABLE IF NOT EXISTS comments (
            sheet_id TEXT NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            data BLOB NOT NULL,
            PRIMARY KEY (sheet_id, seq)
        );
        CREATE TABLE IF NOT EXISTS sheet_events (
            sheet_id TEXT NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
            version INTEGER NOT NULL,
            change TEXT NOT NULL,
            PRIMARY KEY (sheet_id, version)
        );
        CREATE TABLE IF NOT EXISTS jobs (
            id TEXT PRIMARY KEY,
            subject TEXT NOT NULL,
            status TEXT NOT NULL,
            idempotency_key TEXT,
            filename TEXT NOT NULL,
            upload_bytes INTEGER NOT NULL,
            bytes INTEGER NOT NULL DEFAULT 0,
            rows INTEGER NOT NULL DEFAULT 0,
            cells INTEGER NOT NULL DEFAULT 0,
            sheet_id TEXT,
            result TEXT,
            error TEXT,
            created INTEGER NOT NULL,
            body_digest BLOB,
            claim TEXT,
            lease_until INTEGER,
            UNIQUE (subject, idempotency_key)
        );
        CREATE TABLE IF NOT EXISTS staged_uploads (
            job_id TEXT NOT NULL,
            piece INTEGER NOT NULL,
            data BLOB NOT NULL,
            PRIMARY KEY (job_id, piece)
        );
        -- Version 4: facts about the store itself (the sealing key's check value, `KeyCheck`).
        CREATE TABLE IF NOT EXISTS meta (
            name TEXT PRIMARY KEY,
            value BLOB NOT NULL
        );
        """)
        try LinksSchema.prepare(database)
        try WebSessionsSchema.prepare(database)
        try migrate(database)
        try EditingSchema.prepare(database)
    }

    /// Brings a data directory of an earlier version up to date, in one transaction so that
    /// two processes opening it at once migrate it once.
    static func migrate(_ database: Database) throws {
        func columns() throws -> Set<String> {
            Set(try database.query("SELECT name FROM pragma_table_info('jobs')").compactMap { $0.first?.string })
        }
        guard try !columns().isSuperset(of: ["body_digest", "claim"]) else { return }
        try database.transaction {
            let present = try columns()
            // Version 2: the digest of an upload, to tell an idempotent repeat from a reused key.
            if !present.contains("body_digest") { try database.execute("ALTER TABLE jobs ADD COLUMN body_digest BLOB") }
            // Version 3: the claim of the worker running a job (and, shared stores only, its lease).
            if !present.contains("claim") { try database.execute("ALTER TABLE jobs ADD COLUMN claim TEXT; ALTER TABLE jobs ADD COLUMN lease_until INTEGER") }
        }
    }
}
