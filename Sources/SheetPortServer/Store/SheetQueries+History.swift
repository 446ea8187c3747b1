import SheetPortCore

/// One row of `cell_history` (`CellHistory` reads its meaning): the plain columns, and the
/// sealed `data` when it was read.
package struct CellHistoryRow: Sendable, Equatable {
    package var version: Int
    package var subject: String
    /// Seconds since 1970.
    package var at: Int
    /// A `SheetChangeKind`'s raw value, `imported`, or `undone` once undone.
    package var change: String
    /// Row 0 and column 0: a write's marker or the import's entry; one of them 0: a size's.
    package var row: Int
    package var column: Int
    package var data: [UInt8]?
}

/// Each cell's inputs over time, per write (`CellHistory`). The changes an undo may take back
/// are those still standing: not the import's entry, not an undo's own, not one undone.
extension Database {
    private static let historyColumns = "version, subject, at, change, row_number, column_number"
    /// The changes an undo never takes back, as SQL.
    private static let notUndoable = "('imported', 'undo', 'undone')"

    private func historyRow(_ row: [SQLValue], data: Bool) -> CellHistoryRow {
        CellHistoryRow(version: row[0].int ?? 0, subject: row[1].string ?? "", at: row[2].int ?? 0, change: row[3].string ?? "",
                       row: row[4].int ?? 0, column: row[5].int ?? 0, data: data ? row[6].bytes ?? [] : nil)
    }

    /// Records one entry (in the transaction of the write or import it belongs to).
    func insertCellHistory(sheet: String, version: Int, row: Int, column: Int, subject: String, at: Int64, change: String, data: [UInt8]) throws {
        try query("""
            INSERT INTO cell_history (sheet_id, version, row_number, column_number, subject, at, change, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(sheet), .integer(Int64(version)), .integer(Int64(row)), .integer(Int64(column)), .text(subject),
                  .integer(at), .text(change), .blob(data)])
    }

    /// A cell's entries with their data, newest first: its own, those of its row block's
    /// entries (`batch`: a large write's, which the caller filters), and the import's entry (the
    /// sheet's oldest version) last when the sheet was imported.
    func cellHistory(of sheet: String, row: Int, column: Int, batch: CellReference) throws -> [CellHistoryRow] {
        try query("""
            SELECT \(Self.historyColumns), data FROM cell_history
            WHERE sheet_id = ? AND ((row_number = ? AND column_number = ?) OR (row_number = ? AND column_number = ?)
                OR (row_number = 0 AND column_number = 0 AND change = 'imported'))
            ORDER BY version DESC
            """, [.text(sheet), .integer(Int64(row)), .integer(Int64(column)), .integer(Int64(batch.row)), .integer(Int64(batch.column))])
            .map { historyRow($0, data: true) }
    }

    /// The version of `subject`'s last write an undo may take back, nil when there is none.
    func lastUndoableVersion(of subject: String, sheet: String) throws -> Int? {
        try query("SELECT MAX(version) FROM cell_history WHERE sheet_id = ? AND subject = ? AND change NOT IN \(Self.notUndoable)",
                  [.text(sheet), .text(subject)]).first?.first?.int
    }

    /// The entries of `subject`'s write at `version` with their data, marker first, then in
    /// row and column order.
    func cellHistory(of sheet: String, version: Int, by subject: String) throws -> [CellHistoryRow] {
        try query("""
            SELECT \(Self.historyColumns), data FROM cell_history
            WHERE sheet_id = ? AND version = ? AND subject = ? ORDER BY row_number, column_number
            """, [.text(sheet), .integer(Int64(version)), .text(subject)]).map { historyRow($0, data: true) }
    }

    /// Marks the entries of `version` undone: an undo never takes them back again.
    func markHistoryUndone(sheet: String, version: Int) throws {
        try query("UPDATE cell_history SET change = 'undone' WHERE sheet_id = ? AND version = ?", [.text(sheet), .integer(Int64(version))])
    }

    /// The still-standing entries after `version` of subjects other than `subject`, markers
    /// aside, without their data (a sheet's later history is long; the caller reads the data of
    /// the few it needs: `cellHistoryData`).
    func laterCellHistory(of sheet: String, after version: Int, notBy subject: String) throws -> [CellHistoryRow] {
        try query("""
            SELECT \(Self.historyColumns) FROM cell_history
            WHERE sheet_id = ? AND version > ? AND subject <> ? AND change NOT IN \(Self.notUndoable)
            AND (row_number <> 0 OR column_number <> 0)
            """, [.text(sheet), .integer(Int64(version)), .text(subject)]).map { historyRow($0, data: false) }
    }

    /// The sealed data of one entry, nil when there is no such entry.
    func cellHistoryData(of sheet: String, version: Int, row: Int, column: Int) throws -> [UInt8]? {
        try query("SELECT data FROM cell_history WHERE sheet_id = ? AND version = ? AND row_number = ? AND column_number = ?",
                  [.text(sheet), .integer(Int64(version)), .integer(Int64(row)), .integer(Int64(column))]).first?.first?.bytes
    }
}
