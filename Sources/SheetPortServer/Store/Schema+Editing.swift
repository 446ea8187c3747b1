import Foundation

/// The tables and columns editing adds (Docs/Reference/HTTP.md, "Writing"), on either store, created when
/// missing: idempotent statements run after each store's own schema, so they need no number
/// in PostgreSQL's `schema_version` (branches adding tables at once do not collide).
enum EditingSchema {
    /// Adds what is missing.
    static func prepare(_ database: Database) throws {
        switch database.kind {
        case .sqlite:
            let eventColumns = Set(try database.query("SELECT name FROM pragma_table_info('sheet_events')").compactMap { $0.first?.string })
            if !eventColumns.contains("refs") { try database.execute("ALTER TABLE sheet_events ADD COLUMN refs TEXT") }
            let sheetColumns = Set(try database.query("SELECT name FROM pragma_table_info('sheets')").compactMap { $0.first?.string })
            if !sheetColumns.contains("values_pending") { try database.execute(valuesPending) }
            try database.execute(cellHistory(blob: "BLOB"))
        case .postgres:
            try database.execute("ALTER TABLE sheet_events ADD COLUMN IF NOT EXISTS refs TEXT")
            try database.execute(valuesPending.replacingOccurrences(of: "ADD COLUMN", with: "ADD COLUMN IF NOT EXISTS"))
            try database.execute(cellHistory(blob: "BYTEA"))
        }
    }

    /// 1 while a write's recalculated dependents are not all stored yet (`SheetSettle`): a
    /// reader brings them level first.
    private static let valuesPending = "ALTER TABLE sheets ADD COLUMN values_pending BIGINT NOT NULL DEFAULT 0"

    /// Each write's inputs, per cell (sealed: the input and the one it replaced), and the
    /// import's one entry (row 0, column 0); the subject and time are plain, as a job's are.
    private static func cellHistory(blob: String) -> String {
        """
        CREATE TABLE IF NOT EXISTS cell_history (
            sheet_id TEXT NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
            version BIGINT NOT NULL,
            row_number BIGINT NOT NULL,
            column_number BIGINT NOT NULL,
            subject TEXT NOT NULL,
            at BIGINT NOT NULL,
            change TEXT NOT NULL,
            data \(blob) NOT NULL,
            PRIMARY KEY (sheet_id, row_number, column_number, version)
        );
        CREATE INDEX IF NOT EXISTS cell_history_subject ON cell_history(sheet_id, subject, version);
        """
    }
}
