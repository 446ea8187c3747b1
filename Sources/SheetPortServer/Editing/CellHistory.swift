import Foundation
import SheetPortCore
import SheetPortCalc
import SheetPortConvert

/// Each cell's inputs over time (CONTRACTS section 8): every write records, per cell whose
/// input it changed, the version, the subject, the time, and, sealed, the new input and the one
/// it replaced (so an undo or a restore needs nothing else). An import records one entry for the
/// whole sheet (`imported`, row and column 0).
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
    }

    private static func context(_ sheet: String, _ cell: GridCell, _ version: Int) -> [UInt8] {
        Sealer.context("history:\(cell.row):\(cell.column)", sheet, version)
    }

    /// Records the input changes of `edit`, now at `version`.
    static func record(_ edit: SheetEdit, version: Int, change: SheetChangeKind, _ database: Database, _ context: ServerContext) throws {
        let now = Int64(Date().timeIntervalSince1970)
        for (cell, update) in edit.updates.sorted(by: { $0.key < $1.key }) {
            let input: String
            switch update.content {
            case .keep: continue
            case .typed(let text, let typed): if case .empty = typed.content { input = "" } else { input = text }
            case .formula(let formula): input = "=" + formula
            case .value(let value, _): input = TypedInput.text(of: value)
            case .clear: input = ""
            }
            let previous = edit.previousInputs[cell] ?? ""
            if previous == input && change != .restore && change != .undo { continue }
            let data = JSON.object([("input", .string(input)), ("previous", .string(previous))]).text
            try database.query("""
                INSERT INTO cell_history (sheet_id, version, row_number, column_number, subject, at, change, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(edit.sheet), .integer(Int64(version)), .integer(Int64(cell.row)), .integer(Int64(cell.column)), .text(edit.subject),
                      .integer(now), .text(change.rawValue), .blob(context.sealer.seal(Array(data.utf8), context: Self.context(edit.sheet, cell, version)))])
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
            WHERE sheet_id = ? AND ((row_number = ? AND column_number = ?) OR (row_number = 0 AND column_number = 0))
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

    private static func entry(_ row: [SQLValue], sheet: String, _ context: ServerContext) throws -> Entry {
        let version = row[0].int ?? 0
        let cell = GridCell(row: row[5].int ?? 0, column: row[6].int ?? 0)
        let plaintext = try context.sealer.open(row[4].bytes ?? [], context: Self.context(sheet, cell, version), what: "cell history")
        let object = JSON.parseObject(plaintext) ?? [:]
        return Entry(version: version, subject: row[1].string ?? "", at: row[2].int ?? 0, change: row[3].string ?? "",
                     input: object["input"] as? String, previous: object["previous"] as? String, cell: cell)
    }
}
