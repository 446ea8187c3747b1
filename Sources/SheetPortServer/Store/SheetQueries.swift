import Foundation
import SheetPortCore
/// A sheet as stored (its plain columns; cells, comments and layout are sealed elsewhere).
package struct SheetRecord: Sendable, Equatable {
    /// The sheet's id (32 hexadecimal digits).
    package var id: String
    /// The subject who imported it.
    package var owner: String
    /// The sheet's name (the first worksheet's, or a rename).
    package var name: String
    /// 1 after the import, one more for each change.
    package var version: Int
    /// The last row with content.
    package var rows: Int
    /// The last column with content.
    package var columns: Int
    /// The caller's role (filled in for a subject).
    package var role: Role
}

extension Database {
    /// A visible sheet with `subject`'s role on it, or nil when the subject may not read it
    /// (or it does not exist: the two look the same).
    package func sheet(_ id: String, for subject: String) throws -> SheetRecord? {
        let rows = try query("""
            SELECT s.id, s.owner, s.name, s.version, s.rows, s.columns, g.role FROM sheets s
            LEFT JOIN grants g ON g.sheet_id = s.id AND g.subject = ?1
            WHERE s.id = ?2 AND s.visible = 1 AND (s.owner = ?1 OR g.role IS NOT NULL)
            """, [.text(subject), .text(id)])
        return rows.first.map { sheetRecord($0, subject: subject) }
    }

    /// The visible sheets `subject` may read, oldest first.
    package func sheets(for subject: String) throws -> [SheetRecord] {
        try query("""
            SELECT s.id, s.owner, s.name, s.version, s.rows, s.columns, g.role FROM sheets s
            LEFT JOIN grants g ON g.sheet_id = s.id AND g.subject = ?1
            WHERE s.visible = 1 AND (s.owner = ?1 OR g.role IS NOT NULL)
            ORDER BY s.created, s.id
            """, [.text(subject)]).map { sheetRecord($0, subject: subject) }
    }

    private func sheetRecord(_ row: [SQLValue], subject: String) -> SheetRecord {
        let owner = row[1].string ?? ""
        return SheetRecord(id: row[0].string ?? "", owner: owner, name: row[2].string ?? "", version: row[3].int ?? 0,
                           rows: row[4].int ?? 0, columns: row[5].int ?? 0,
                           role: owner == subject ? .owner : Role(rawValue: row[6].string ?? "") ?? .viewer)
    }

    /// The sealed layout (column widths) of a sheet.
    package func sheetLayout(_ id: String) throws -> [UInt8]? {
        try query("SELECT layout FROM sheets WHERE id = ?", [.text(id)]).first?.first?.bytes
    }

    /// Grants `role` on a sheet to `subject` (replacing a previous grant).
    package func grant(_ role: Role, on sheet: String, to subject: String) throws {
        try query("INSERT INTO grants (sheet_id, subject, role) VALUES (?, ?, ?) ON CONFLICT (sheet_id, subject) DO UPDATE SET role = excluded.role",
                  [.text(sheet), .text(subject), .text(role.rawValue)])
    }

    /// Removes `subject`'s grant on a sheet; returns whether there was one.
    package func revokeGrant(on sheet: String, from subject: String) throws -> Bool {
        try query("DELETE FROM grants WHERE sheet_id = ? AND subject = ?", [.text(sheet), .text(subject)])
        return changes > 0
    }

    /// The grants on a sheet: subject and role.
    package func grants(on sheet: String) throws -> [(subject: String, role: String)] {
        try query("SELECT subject, role FROM grants WHERE sheet_id = ? ORDER BY subject", [.text(sheet)])
            .map { ($0[0].string ?? "", $0[1].string ?? "") }
    }

    /// Renames a sheet, moving it to the next version; returns the new version.
    package func rename(sheet: String, to name: String) throws -> Int {
        // The caller's transaction holds the rename, its event and the notice to other instances.
        try query("UPDATE sheets SET name = ? WHERE id = ?", [.text(name), .text(sheet)])
        return try advance(sheet: sheet, for: .rename)
    }

    /// The sheet's current version.
    package func version(of sheet: String) throws -> Int {
        try query("SELECT version FROM sheets WHERE id = ?", [.text(sheet)]).first?.first?.int ?? 0
    }

    /// A sheet's version (0 when there is none) and whether its stored values are behind its
    /// inputs (`SheetSettle`).
    func versionAndValues(of sheet: String) throws -> (version: Int, valuesPending: Bool) {
        guard let row = try query("SELECT version, values_pending FROM sheets WHERE id = ?", [.text(sheet)]).first else { return (0, false) }
        return (row[0].int ?? 0, (row[1].int ?? 0) != 0)
    }

    /// Whether a sheet's stored values are behind its inputs (false when there is no such sheet).
    func valuesPending(of sheet: String) throws -> Bool {
        (try query("SELECT values_pending FROM sheets WHERE id = ?", [.text(sheet)]).first?.first?.int ?? 0) != 0
    }

    /// Deletes a sheet with its rows, comments and grants. The space comes back afterwards,
    /// off the request path (`StorageRelief.noteFreed()`, `giveSpaceBack()`).
    package func deleteSheet(_ id: String) throws {
        try query("DELETE FROM sheets WHERE id = ?", [.text(id)])
    }

    /// The sealed row blocks of a sheet from block `first` to `last`, in order.
    package func rowBlocks(of sheet: String, from first: Int, to last: Int) throws -> [(block: Int, data: [UInt8])] {
        try query("SELECT block, data FROM row_blocks WHERE sheet_id = ? AND block BETWEEN ? AND ? ORDER BY block",
                  [.text(sheet), .integer(Int64(first)), .integer(Int64(last))]).map { ($0[0].int ?? 0, $0[1].bytes ?? []) }
    }

    /// The number of a sheet's last stored row block, nil when it stores none.
    package func lastRowBlock(of sheet: String) throws -> Int? {
        try query("SELECT MAX(block) FROM row_blocks WHERE sheet_id = ?", [.text(sheet)]).first?.first?.int
    }

    /// Stores a sealed row block.
    package func insertRowBlock(sheet: String, block: Int, firstRow: Int, lastRow: Int, data: [UInt8]) throws {
        try query("INSERT INTO row_blocks (sheet_id, block, first_row, last_row, data) VALUES (?, ?, ?, ?, ?)",
                  [.text(sheet), .integer(Int64(block)), .integer(Int64(firstRow)), .integer(Int64(lastRow)), .blob(data)])
    }

    /// The sealed comments of a sheet, in order, with their sequence numbers.
    package func comments(of sheet: String) throws -> [(seq: Int, data: [UInt8])] {
        try query("SELECT seq, data FROM comments WHERE sheet_id = ? ORDER BY seq", [.text(sheet)])
            .map { ($0[0].int ?? 0, $0[1].bytes ?? []) }
    }

    /// Locks a sheet's row until the transaction ends, so two instances adding to it take
    /// turns (SQLite's immediate transactions already do).
    func lockSheet(_ id: String) throws {
        if kind == .postgres { try query("SELECT id FROM sheets WHERE id = ? FOR UPDATE", [.text(id)]) }
    }

    /// The next comment sequence number of a sheet.
    package func nextCommentSequence(of sheet: String) throws -> Int {
        (try query("SELECT COALESCE(MAX(seq), 0) + 1 FROM comments WHERE sheet_id = ?", [.text(sheet)]).first?.first?.int) ?? 1
    }

    /// Stores a sealed comment.
    package func insertComment(sheet: String, seq: Int, data: [UInt8]) throws {
        try query("INSERT INTO comments (sheet_id, seq, data) VALUES (?, ?, ?)", [.text(sheet), .integer(Int64(seq)), .blob(data)])
    }
}
