/// What moved a sheet to a new version, as its `version` event names it.
package enum SheetChangeKind: String, Sendable, CaseIterable {
    /// Renamed.
    case rename
    /// A comment added.
    case comment
    /// A grant given, changed or revoked.
    case grant
    /// The import that created it completed.
    case `import`
    /// Created empty (`POST /api/sheets`).
    case create
    /// Cell inputs written (`POST .../cells`).
    case cells
    /// A range cleared.
    case clear
    /// Cells copied (paste or fill).
    case copy
    /// Formats set or cleared.
    case format
    /// Row heights or column widths set.
    case sizes
    /// A cell's earlier input restored.
    case restore
    /// A subject's last write undone.
    case undo
}

/// One recorded `version` event of a sheet.
package struct SheetEvent: Sendable, Equatable {
    /// The version the change moved the sheet to (the event's `id:`).
    package var version: Int
    /// What changed.
    package var change: SheetChangeKind
    /// The cells that changed (at most `SheetEvent.maxRefs`), nil when unknown or more: refetch the window.
    package var refs: [String]? = nil

    /// Refs an event names at most.
    package static let maxRefs = 1_000
}

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
                  event.refs.map { .text($0.joined(separator: ",")) } ?? .null])
        try query("DELETE FROM sheet_events WHERE sheet_id = ? AND version <= ?",
                  [.text(sheet), .integer(Int64(event.version - Self.sheetEventHistory))])
    }

    /// Up to `limit` events of `sheet` after `version`, oldest first.
    package func sheetEvents(of sheet: String, after version: Int, limit: Int) throws -> [SheetEvent] {
        try query("SELECT version, change, refs FROM sheet_events WHERE sheet_id = ? AND version > ? ORDER BY version LIMIT ?",
                  [.text(sheet), .integer(Int64(version)), .integer(Int64(limit))]).compactMap { row in
            guard let version = row[0].int, let change = row[1].string.flatMap(SheetChangeKind.init(rawValue:)) else { return nil }
            // Refs are cell references (A1 text), never commas: the list is stored joined by them.
            let refs = row[2].string.map { $0.isEmpty ? [] : $0.split(separator: ",").map(String.init) }
            return SheetEvent(version: version, change: change, refs: refs)
        }
    }
}
