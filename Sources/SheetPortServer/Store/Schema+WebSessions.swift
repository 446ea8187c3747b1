/// The browser sessions' tables (`WebSession`), created on either store when missing: a session
/// is kept by the BLAKE2b hash of its id (never the id) beside the hash of the token or share
/// link it stands for, so it resolves through `sessions` on every request and ends with it.
/// People's preferences are kept sealed, one row a subject.
enum WebSessionsSchema {
    /// Creates the tables when missing; `Schema.create` and `PostgresSchema.prepare` call it.
    static func prepare(_ database: Database) throws {
        let integer = database.kind == .postgres ? "BIGINT" : "INTEGER"
        let blob = database.kind == .postgres ? "BYTEA" : "BLOB"
        // PostgreSQL has no rowid: a serial column orders a token's sessions by creation.
        let order = database.kind == .postgres ? "seq BIGSERIAL UNIQUE," : ""
        try database.execute("""
        CREATE TABLE IF NOT EXISTS web_sessions (
            \(order)
            id_hash \(blob) PRIMARY KEY,
            token_hash \(blob) NOT NULL,
            created \(integer) NOT NULL,
            last_used \(integer) NOT NULL,
            preferences \(blob)
        );
        CREATE INDEX IF NOT EXISTS web_sessions_token ON web_sessions(token_hash);
        CREATE TABLE IF NOT EXISTS preferences (
            subject TEXT PRIMARY KEY,
            data \(blob) NOT NULL
        );
        """)
    }
}
