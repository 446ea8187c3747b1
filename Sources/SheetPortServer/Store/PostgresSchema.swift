/// The shared PostgreSQL store's tables, as the SQLite ones (`Schema`): ids, names, counts and
/// statuses plain, every cell, comment, layout and staged upload sealed (`bytea`). Migrations
/// are numbered in `schema_version`; a start takes a transaction-scoped advisory lock first,
/// so instances starting at once apply each migration once, one after the other.
enum PostgresSchema {
    /// The advisory lock key of schema changes ("SheetPort" in ASCII, truncated to 63 bits).
    static let lockKey: Int64 = 0x5368_6565_7450_6F72

    /// Each migration, applied in order: version N is `migrations[N - 1]`.
    static let migrations: [String] = [
        """
        CREATE TABLE sessions (
            token_hash BYTEA PRIMARY KEY,
            subject TEXT NOT NULL,
            created BIGINT NOT NULL
        );
        CREATE INDEX sessions_subject ON sessions(subject);
        CREATE TABLE sheets (
            id TEXT PRIMARY KEY,
            owner TEXT NOT NULL,
            name TEXT NOT NULL,
            version BIGINT NOT NULL DEFAULT 0,
            rows BIGINT NOT NULL DEFAULT 0,
            columns BIGINT NOT NULL DEFAULT 0,
            visible BIGINT NOT NULL DEFAULT 0,
            job_id TEXT,
            layout BYTEA,
            created BIGINT NOT NULL
        );
        CREATE TABLE grants (
            sheet_id TEXT NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
            subject TEXT NOT NULL,
            role TEXT NOT NULL,
            PRIMARY KEY (sheet_id, subject)
        );
        CREATE TABLE row_blocks (
            sheet_id TEXT NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
            block BIGINT NOT NULL,
            first_row BIGINT NOT NULL,
            last_row BIGINT NOT NULL,
            data BYTEA NOT NULL,
            PRIMARY KEY (sheet_id, block)
        );
        CREATE TABLE comments (
            sheet_id TEXT NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
            seq BIGINT NOT NULL,
            data BYTEA NOT NULL,
            PRIMARY KEY (sheet_id, seq)
        );
        CREATE TABLE jobs (
            seq BIGSERIAL UNIQUE,
            id TEXT PRIMARY KEY,
            subject TEXT NOT NULL,
            status TEXT NOT NULL,
            idempotency_key TEXT,
            filename TEXT NOT NULL,
            upload_bytes BIGINT NOT NULL,
            bytes BIGINT NOT NULL DEFAULT 0,
            rows BIGINT NOT NULL DEFAULT 0,
            cells BIGINT NOT NULL DEFAULT 0,
            sheet_id TEXT,
            result TEXT,
            error TEXT,
            created BIGINT NOT NULL,
            body_digest BYTEA,
            claim TEXT,
            lease_until BIGINT,
            UNIQUE (subject, idempotency_key)
        );
        CREATE INDEX jobs_status ON jobs(status, seq);
        CREATE TABLE staged_uploads (
            job_id TEXT NOT NULL,
            piece BIGINT NOT NULL,
            data BYTEA NOT NULL,
            PRIMARY KEY (job_id, piece)
        );
        -- Row blocks and staged pieces are sealed: compressing them gains nothing.
        ALTER TABLE row_blocks ALTER COLUMN data SET STORAGE EXTERNAL;
        ALTER TABLE staged_uploads ALTER COLUMN data SET STORAGE EXTERNAL;
        """,
        // Version 2: how many times a job was claimed (1, or more after takeovers).
        "ALTER TABLE jobs ADD COLUMN attempts BIGINT NOT NULL DEFAULT 0",
        // Version 3: each sheet's recent versions and what made them, for event streams' Last-Event-ID.
        """
        CREATE TABLE sheet_events (
            sheet_id TEXT NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
            version BIGINT NOT NULL,
            change TEXT NOT NULL,
            PRIMARY KEY (sheet_id, version)
        )
        """,
        // Version 4: facts about the store itself (the sealing key's check value, `KeyCheck`).
        "CREATE TABLE meta (name TEXT PRIMARY KEY, value BYTEA NOT NULL)",
    ]

    /// Creates or migrates the schema to the newest version.
    static func prepare(_ database: Database) throws {
        try database.transaction {
            try database.query("SELECT pg_advisory_xact_lock(?)", [.integer(lockKey)])
            try database.execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
            let current = try database.query("SELECT MAX(version) FROM schema_version").first?.first?.int ?? 0
            guard current <= migrations.count else {
                throw ServerError.configuration("the database's schema is version \(current), newer than this server's \(migrations.count); upgrade the server")
            }
            for version in stride(from: current + 1, through: migrations.count, by: 1) {
                try database.execute(migrations[version - 1])
                try database.query("INSERT INTO schema_version (version) VALUES (?)", [.integer(Int64(version))])
            }
            try EditingSchema.prepare(database)
            // Tables created when missing, outside the numbered migrations (under the same lock).
            try LinksSchema.prepare(database)
            try WebSessionsSchema.prepare(database)
        }
    }
}
