import Foundation
import SheetPortCore

/// Each cell's inputs over time (CONTRACTS section 8): every write records one marker entry
/// (row and column 0: the write, even one that changed nothing, is the caller's to undo), and,
/// per cell whose input or style it changed, the version, the subject, the time, and, sealed,
/// which of the two it changed and the cell as it was before and after (so an undo or a restore
/// needs nothing else); per row height or column width it set, the size before and after (row
/// `r` column 0, or row 0 column `c`). An import records one entry for the whole sheet
/// (`imported`, row and column 0).
package enum CellHistory {
    /// One entry.
    package struct Entry {
        package var version: Int
        package var subject: String
        package var at: Int
        package var change: String
        /// The input written (nil for the import's entry).
        package var input: String?
        /// The input it replaced.
        package var previous: String?
        package var cell: GridCell
        /// What the write changed: `input`, `style` (a cell's), `size` (a row's or column's);
        /// entries written before this was recorded changed the input.
        package var changed: Set<String> = ["input"]
        /// The cell before and after the write (nil: empty), when recorded.
        package var before: StoredCell?
        package var after: StoredCell?
        /// Whether `before` and `after` were recorded (older entries hold only the inputs).
        package var hasCells = false
        /// A size entry's height or width before and after (nil: the default).
        package var sizeBefore: Double?
        package var sizeAfter: Double?

        /// Whether this is a write's marker or the import's entry, not a cell's or a size's.
        package var isMarker: Bool { cell.row == 0 && cell.column == 0 }
        /// Whether this is a row height's or a column width's entry.
        package var isSize: Bool { !isMarker && (cell.row == 0 || cell.column == 0) }
    }

    private static func context(_ sheet: String, _ cell: GridCell, _ version: Int) -> [UInt8] {
        Sealer.context("history:\(cell.row):\(cell.column)", sheet, version)
    }

    /// Records what `edit` changed, now at `version`.
    static func record(_ edit: SheetEdit, version: Int, change: SheetChangeKind, _ database: Database, _ context: ServerContext) throws {
        let now = Int64(Date().timeIntervalSince1970)
        func insert(_ cell: GridCell, _ data: JSON) throws {
            try database.query("""
                INSERT INTO cell_history (sheet_id, version, row_number, column_number, subject, at, change, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(edit.sheet), .integer(Int64(version)), .integer(Int64(cell.row)), .integer(Int64(cell.column)), .text(edit.subject),
                      .integer(now), .text(change.rawValue), .blob(context.sealer.seal(Array(data.text.utf8), context: Self.context(edit.sheet, cell, version)))])
        }
        try insert(GridCell(row: 0, column: 0), .object([]))
        for (cell, cells) in edit.written.sorted(by: { $0.key < $1.key }) {
            let (before, after) = cells
            var changed: [String] = []
            if before.input != after.input || before.formula != after.formula || (after.formula == nil && before.value != after.value) {
                changed.append("input")
            }
            if StoredCell.styleJSON(before.style).text != StoredCell.styleJSON(after.style).text { changed.append("style") }
            guard !changed.isEmpty else { continue }
            func line(_ stored: StoredCell) -> JSON { stored.isVacant ? .null : .string(String(decoding: stored.line, as: UTF8.self)) }
            try insert(cell, .object([("input", .string(after.isVacant ? "" : after.input)), ("previous", .string(before.isVacant ? "" : before.retypeableInput)),
                                      ("changed", .array(changed.map { .string($0) })), ("before", line(before)), ("after", line(after))]))
        }
        for size in edit.sizeChanges where size.before != size.after {
            func number(_ value: Double?) -> JSON { value.map { .number($0) } ?? .null }
            try insert(GridCell(row: size.row, column: size.column),
                       .object([("changed", .array([.string("size")])), ("before", number(size.before)), ("after", number(size.after))]))
        }
    }

    /// Records an import's one entry for the whole sheet.
    static func recordImport(sheet: String, subject: String, _ database: Database, _ context: ServerContext) throws {
        let cell = GridCell(row: 0, column: 0)
        try database.query("""
            INSERT INTO cell_history (sheet_id, version, row_number, column_number, subject, at, change, data) VALUES (?, 1, 0, 0, ?, ?, 'imported', ?)
            """, [.text(sheet), .text(subject), .integer(Int64(Date().timeIntervalSince1970)),
                  .blob(context.sealer.seal(Array("{}".utf8), context: Self.context(sheet, cell, 1)))])
    }

    /// A cell's entries, newest first, with the import's entry last (when the sheet was imported).
    static func entries(of cell: GridCell, sheet: String, _ database: Database, _ context: ServerContext) throws -> [Entry] {
        let rows = try database.query("""
            SELECT version, subject, at, change, data, row_number, column_number FROM cell_history
            WHERE sheet_id = ? AND ((row_number = ? AND column_number = ?) OR (row_number = 0 AND column_number = 0 AND change = 'imported'))
            ORDER BY version DESC
            """, [.text(sheet), .integer(Int64(cell.row)), .integer(Int64(cell.column))])
        return try rows.map { try entry($0, sheet: sheet, context) }
    }

    /// The entries of `subject`'s last write not yet undone, nil when there is none.
    static func lastWrite(of subject: String, sheet: String, _ database: Database, _ context: ServerContext) throws -> [Entry]? {
        guard let version = try database.query("""
            SELECT MAX(version) FROM cell_history WHERE sheet_id = ? AND subject = ? AND change NOT IN ('imported', 'undo', 'undone')
            """, [.text(sheet), .text(subject)]).first?.first?.int else { return nil }
        let rows = try database.query("""
            SELECT version, subject, at, change, data, row_number, column_number FROM cell_history
            WHERE sheet_id = ? AND version = ? AND subject = ? ORDER BY row_number, column_number
            """, [.text(sheet), .integer(Int64(version)), .text(subject)])
        return try rows.map { try entry($0, sheet: sheet, context) }
    }

    /// Marks the entries of `version` undone (an undo never undoes them again).
    static func markUndone(sheet: String, version: Int, _ database: Database) throws {
        try database.query("UPDATE cell_history SET change = 'undone' WHERE sheet_id = ? AND version = ?", [.text(sheet), .integer(Int64(version))])
    }

    /// The entries after `version` of subjects other than `subject` that still stand (neither
    /// undone nor an undo: an undo only puts back what its own write replaced) on `cells`
    /// (markers aside): what an undo of `subject`'s write at `version` must leave alone.
    static func laterWrites(to cells: Set<GridCell>, after version: Int, notBy subject: String, sheet: String,
                            _ database: Database, _ context: ServerContext) throws -> [Entry] {
        let rows = try database.query("""
            SELECT version, subject, at, change, row_number, column_number FROM cell_history
            WHERE sheet_id = ? AND version > ? AND subject <> ? AND change NOT IN ('imported', 'undo', 'undone')
            AND (row_number <> 0 OR column_number <> 0)
            """, [.text(sheet), .integer(Int64(version)), .text(subject)])
        var entries: [Entry] = []
        for row in rows where cells.contains(GridCell(row: row[4].int ?? 0, column: row[5].int ?? 0)) {
            // Only these few are unsealed.
            guard let data = try database.query("""
                SELECT data FROM cell_history WHERE sheet_id = ? AND version = ? AND row_number = ? AND column_number = ?
                """, [.text(sheet), row[0], row[4], row[5]]).first?.first else { continue }
            entries.append(try entry([row[0], row[1], row[2], row[3], data, row[4], row[5]], sheet: sheet, context))
        }
        return entries
    }

    private static func entry(_ row: [SQLValue], sheet: String, _ context: ServerContext) throws -> Entry {
        let version = row[0].int ?? 0
        let cell = GridCell(row: row[5].int ?? 0, column: row[6].int ?? 0)
        let plaintext = try context.sealer.open(row[4].bytes ?? [], context: Self.context(sheet, cell, version), what: "cell history")
        let object = JSON.parseObject(plaintext) ?? [:]
        var entry = Entry(version: version, subject: row[1].string ?? "", at: row[2].int ?? 0, change: row[3].string ?? "",
                          input: object["input"] as? String, previous: object["previous"] as? String, cell: cell)
        if let changed = object["changed"] as? [String] { entry.changed = Set(changed) }
        if entry.isMarker { entry.changed = [] }
        if entry.isSize {
            entry.sizeBefore = (object["before"] as? NSNumber)?.doubleValue
            entry.sizeAfter = (object["after"] as? NSNumber)?.doubleValue
        } else if object["changed"] != nil {
            entry.hasCells = true
            let row = cell.row
            func stored(_ member: String) -> StoredCell? { (object[member] as? String).flatMap { StoredCell(line: Array($0.utf8), row: row) } }
            entry.before = stored("before")
            entry.after = stored("after")
        }
        return entry
    }
}
