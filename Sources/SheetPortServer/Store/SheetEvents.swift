import SheetPortCore
/// The store's bounded history of each sheet's changes: what `GET /api/sheets/{id}/events`
/// sends, and resumes from after `Last-Event-ID`. Read from the store, not from memory, so a
/// stream on any instance sees every change.
extension Database {
    /// Events kept per sheet; a client that resumes from further back gets the oldest kept.
    static let sheetEventHistory = 1024

    /// Moves `sheet` to its next version for `change` and records the event; returns the new
    /// version. Runs inside the transaction of the change itself.
    func advance(sheet: String, for change: SheetChangeKind) throws -> Int {
        try query("UPDATE sheets SET version = version + 1 WHERE id = ?", [.text(sheet)])
        let version = try version(of: sheet)
        try record(SheetEvent(version: version, change: change), of: sheet)
        return version
    }

    /// Records that `sheet` reached `event.version`, dropping events older than the history keeps.
    func record(_ event: SheetEvent, of sheet: String) throws {
        // An upsert both SQLite and PostgreSQL take.
        try query("""
            INSERT INTO sheet_events (sheet_id, version, change, refs) VALUES (?, ?, ?, ?)
            ON CONFLICT (sheet_id, version) DO UPDATE SET change = excluded.change, refs = excluded.refs
            """, [.text(sheet), .integer(Int64(event.version)), .text(event.change.rawValue),
                  event.refs.map { .text($0.map(\.description).joined(separator: ",")) } ?? .null])
        try query("DELETE FROM sheet_events WHERE sheet_id = ? AND version <= ?",
                  [.text(sheet), .integer(Int64(event.version - Self.sheetEventHistory))])
    }

    /// Up to `limit` events of `sheet` after `version`, oldest first.
    package func sheetEvents(of sheet: String, after version: Int, limit: Int) throws -> [SheetEvent] {
        try query("SELECT version, change, refs FROM sheet_events WHERE sheet_id = ? AND version > ? ORDER BY version LIMIT ?",
                  [.text(sheet), .integer(Int64(version)), .integer(Int64(limit))]).compactMap { row in
            guard let version = row[0].int, let change = row[1].string.map(SheetChangeKind.init(rawValue:)) else { return nil }
            // Refs are cell references (A1 text), never commas: the list is stored joined by them.
            let refs = row[2].string.map { $0.split(separator: ",").compactMap { CellReference(String($0)) } }
            return SheetEvent(version: version, change: change, refs: refs)
        }
    }
}
