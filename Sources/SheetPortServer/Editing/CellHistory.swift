import Foundation
import SheetPortCore
import SheetPortConvert

/// Each cell's inputs over time (Docs/Reference/HTTP.md, "History, restore and undo"): every write
/// records one marker entry (row and column 0: the write, even one that changed nothing, is the
/// caller's to undo), and, per cell whose input or style it changed, the version, the subject, the
/// time, and, sealed, which of the two it changed and the cell as it was before and after (so an
/// undo or a restore needs nothing else); per row height or column width it set, the size before
/// and after (row `r` column 0, or row 0 column `c`). An import records one entry for the whole
/// sheet (`imported`, row and column 0).
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
        package var cell: CellReference
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

    /// The sealing context of the entry of `cell` at `version`.
    static func context(_ sheet: String, _ cell: CellReference, _ version: Int) -> [UInt8] {
        Sealer.context("history:\(cell.row):\(cell.column)", sheet, version)
    }

    /// Records what `edit` changed, now at `version`.
    static func record(_ edit: SheetEdit, version: Int, change: SheetChangeKind, _ database: Database, _ context: ServerContext) throws {
        let now = Int64(Date().timeIntervalSince1970)
        func insert(_ cell: CellReference, _ data: JSON) throws {
            try database.insertCellHistory(sheet: edit.sheet, version: version, row: cell.row, column: cell.column, subject: edit.subject, at: now,
                                           change: change.rawValue,
                                           data: context.sealer.seal(packed(Array(data.text.utf8)), context: Self.context(edit.sheet, cell, version)))
        }
        try insert(CellReference(row: 0, column: 0), .object([]))
        for (cell, cells) in edit.written.sorted(by: { $0.key < $1.key }) {
            let (before, after) = cells
            var changed: [String] = []
            if before.input != after.input || before.formula != after.formula || (after.formula == nil && before.value != after.value) {
                changed.append("input")
            }
            if StoredCell.styleJSON(before.style).text != StoredCell.styleJSON(after.style).text { changed.append("style") }
            guard !changed.isEmpty else { continue }
            func line(_ stored: StoredCell) -> JSON { stored.isVacant ? .null : .string(String(decoding: stored.line, as: UTF8.self)) }
            try insert(cell, .object([("input", .string(after.isVacant ? "" : after.input)), ("previous", .string(before.isVacant || before.isSpilled ? "" : before.retypeableInput)),
                                      ("changed", .array(changed.map { .string($0) })), ("before", line(before)), ("after", line(after))]))
        }
        for size in edit.sizeChanges where size.before != size.after {
            func number(_ value: Double?) -> JSON { value.map { .number($0) } ?? .null }
            try insert(CellReference(row: size.row, column: size.column),
                       .object([("changed", .array([.string("size")])), ("before", number(size.before)), ("after", number(size.after))]))
        }
    }

    /// Records an import's one entry for the whole sheet.
    static func recordImport(sheet: String, subject: String, _ database: Database, _ context: ServerContext) throws {
        let cell = CellReference(row: 0, column: 0)
        try database.insertCellHistory(sheet: sheet, version: 1, row: cell.row, column: cell.column, subject: subject,
                                       at: Int64(Date().timeIntervalSince1970), change: "imported",
                                       data: context.sealer.seal(Array("{}".utf8), context: Self.context(sheet, cell, 1)))
    }

    /// A cell's entries, newest first, with the import's entry last (when the sheet was imported).
    static func entries(of cell: CellReference, sheet: String, _ database: Database, _ context: ServerContext) throws -> [Entry] {
        try database.cellHistory(of: sheet, row: cell.row, column: cell.column).map { try entry($0, sheet: sheet, context) }
    }

    /// The entries of `subject`'s last write not yet undone, nil when there is none.
    static func lastWrite(of subject: String, sheet: String, _ database: Database, _ context: ServerContext) throws -> [Entry]? {
        guard let version = try database.lastUndoableVersion(of: subject, sheet: sheet) else { return nil }
        return try database.cellHistory(of: sheet, version: version, by: subject).map { try entry($0, sheet: sheet, context) }
    }

    /// Marks the entries of `version` undone (an undo never undoes them again).
    static func markUndone(sheet: String, version: Int, _ database: Database) throws {
        try database.markHistoryUndone(sheet: sheet, version: version)
    }

    /// The entries after `version` of subjects other than `subject` that still stand (neither
    /// undone nor an undo: an undo only puts back what its own write replaced) on `cells`
    /// (markers aside): what an undo of `subject`'s write at `version` must leave alone.
    static func laterWrites(to cells: Set<CellReference>, after version: Int, notBy subject: String, sheet: String,
                            _ database: Database, _ context: ServerContext) throws -> [Entry] {
        var entries: [Entry] = []
        for var record in try database.laterCellHistory(of: sheet, after: version, notBy: subject)
        where cells.contains(CellReference(row: record.row, column: record.column)) {
            // Only these few are unsealed.
            guard let data = try database.cellHistoryData(of: sheet, version: record.version, row: record.row, column: record.column) else { continue }
            record.data = data
            entries.append(try entry(record, sheet: sheet, context))
        }
        return entries
    }

    private static func entry(_ record: CellHistoryRow, sheet: String, _ context: ServerContext) throws -> Entry {
        let version = record.version
        let cell = CellReference(row: record.row, column: record.column)
        let plaintext = try context.sealer.open(record.data ?? [], context: Self.context(sheet, cell, version), what: "cell history")
        let object = JSON.parseObject(try unpacked(plaintext)) ?? [:]
        var entry = Entry(version: version, subject: record.subject, at: record.at, change: record.change,
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
