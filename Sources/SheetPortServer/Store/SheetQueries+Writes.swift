/// The `sheets` rows as sheets are created, written and imported: each runs in the caller's
/// transaction (a write's, an import's), which also records the version's event.
extension Database {
    /// Creates an empty visible sheet at version 1 (`POST /api/sheets`).
    package func insertEmptySheet(id: String, owner: String, name: String, created: Int64) throws {
        try query("INSERT INTO sheets (id, owner, name, version, visible, created) VALUES (?, ?, ?, 1, 1, ?)",
                  [.text(id), .text(owner), .text(name), .integer(created)])
    }

    /// Creates the hidden sheet an import job fills (`publishImportedSheet` shows it).
    func insertImportingSheet(id: String, owner: String, name: String, job: String, created: Int64) throws {
        try query("INSERT INTO sheets (id, owner, name, job_id, created) VALUES (?, ?, ?, ?, ?)",
                  [.text(id), .text(owner), .text(name), .text(job), .integer(created)])
    }

    /// Makes an imported sheet visible at version 1 with its extent and sealed layout.
    func publishImportedSheet(_ id: String, rows: Int, columns: Int, layout: [UInt8]) throws {
        try query("UPDATE sheets SET visible = 1, version = 1, rows = ?, columns = ?, layout = ? WHERE id = ?",
                  [.integer(Int64(rows)), .integer(Int64(columns)), .blob(layout), .text(id)])
    }

    /// Deletes every sheet never made visible (imports a killed run left half done).
    func deleteHiddenSheets() throws {
        try query("DELETE FROM sheets WHERE visible = 0")
    }

    /// Takes sheet `id`'s write locks for the caller's transaction and answers its version (0:
    /// no such sheet) and whether its stored values are behind its inputs. On a shared store
    /// the sheet's advisory lock comes first (instances writing it take turns even before its
    /// row exists to lock), then its row; SQLite's immediate transaction already holds the file.
    func lockSheetForWrite(_ id: String) throws -> (version: Int, valuesPending: Bool) {
        if kind == .postgres { try query("SELECT pg_advisory_xact_lock(?)", [.integer(Self.advisoryKey(sheet: id))]) }
        try lockSheet(id)
        return try versionAndValues(of: id)
    }

    /// The advisory lock key of a sheet's writes: the sheet id's first 15 hexadecimal digits
    /// (ids are random), so distinct sheets rarely share a key, and sharing one only serializes.
    static func advisoryKey(sheet id: String) -> Int64 {
        if let key = Int64(id.prefix(15), radix: 16) { return key }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 // FNV-1a: the same on every instance
        for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01B3 }
        return Int64(bitPattern: hash >> 1)
    }

    /// Ends a write: the sheet moves to `version`, its extent grows to take in `lastRow` and
    /// `lastColumn` (it never shrinks), and `valuesPending` records whether recalculated values
    /// are still to be stored (`SheetSettle`).
    func finishWrite(sheet id: String, version: Int, lastRow: Int, lastColumn: Int, valuesPending: Bool) throws {
        // The larger of two values: SQLite's two-argument MAX, PostgreSQL's GREATEST.
        let larger = kind == .postgres ? "GREATEST" : "MAX"
        try query("UPDATE sheets SET version = ?, rows = \(larger)(rows, ?), columns = \(larger)(columns, ?), values_pending = ? WHERE id = ?",
                  [.integer(Int64(version)), .integer(Int64(lastRow)), .integer(Int64(lastColumn)), .integer(valuesPending ? 1 : 0), .text(id)])
    }

    /// Extends a sheet's extent to row `row` when it ends above it (a row height set below its
    /// last row: the export reads rows up to the sheet's last).
    func extendRows(of sheet: String, to row: Int) throws {
        try query("UPDATE sheets SET rows = CASE WHEN rows < ? THEN ? ELSE rows END WHERE id = ?",
                  [.integer(Int64(row)), .integer(Int64(row)), .text(sheet)])
    }

    /// Replaces a sheet's sealed layout (column widths, names).
    func setLayout(of sheet: String, _ sealed: [UInt8]) throws {
        try query("UPDATE sheets SET layout = ? WHERE id = ?", [.blob(sealed), .text(sheet)])
    }

    /// Records that a sheet's stored values caught up with its inputs.
    func markValuesStored(of sheet: String) throws {
        try query("UPDATE sheets SET values_pending = 0 WHERE id = ?", [.text(sheet)])
    }

    /// The sheets whose stored values are behind their inputs (a previous run stopped before
    /// storing a write's dependents).
    func sheetsWithValuesPending() throws -> [String] {
        try query("SELECT id FROM sheets WHERE values_pending <> 0").compactMap { $0.first?.string }
    }
}
