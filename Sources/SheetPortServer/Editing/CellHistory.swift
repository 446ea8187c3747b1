import Foundation
import SheetPortCore
import SheetPortConvert

/// Each cell's inputs over time (Docs/Reference/HTTP.md, "History, restore and undo"): every write
/// records one marker entry (row and column 0: the write, even one that changed nothing, is the
/// caller's to undo), and, per cell whose input or style it changed, the version, the subject, the
/// time, and, sealed, which of the two it changed and the cell as it was before and after (so an
/// undo or a restore needs nothing else); per row height or column width it set, the size before
/// and after (row `r` column 0, or row 0 column `c`). A write of many cells keeps its cells'
/// entries a row block to a stored entry (`batchedFrom`, `batchKey`), read back cell by cell. An
/// import records one entry for the whole sheet (`imported`, row and column 0).
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

    /// Changed cells past which a write's entries are kept a row block to an entry (`batchKey`):
    /// a 100,000-cell paste stores 1,563 entries, not 100,000 rows each compressed and sealed.
    static let batchedFrom = 256

    /// The key (row, column) of the entry holding a write's cells of row block `block`: a negative
    /// row, so it never meets a cell's, a size's or a marker's, and column -1.
    static func batchKey(block: Int) -> CellReference { CellReference(row: -(block + 1), column: -1) }

    /// Whether an entry's key is a row block's (`batchKey`).
    static func isBatch(_ record: CellHistoryRow) -> Bool { record.column == -1 && record.row < 0 }

    /// Records what `edit` changed, now at `version`: a marker, an entry per changed cell (or,
    /// past `batchedFrom`, one per row block holding the block's cells), one per size.
    static func record(_ edit: SheetEdit, version: Int, change: SheetChangeKind, _ database: Database, _ context: ServerContext) throws {
        let now = Int64(Date().timeIntervalSince1970)
        func insert(_ cell: CellReference, _ text: [UInt8]) throws {
            try database.insertCellHistory(sheet: edit.sheet, version: version, row: cell.row, column: cell.column, subject: edit.subject, at: now,
                                           change: change.rawValue,
                                           data: context.sealer.seal(packed(text), context: Self.context(edit.sheet, cell, version)))
        }
        try insert(CellReference(row: 0, column: 0), Array("{}".utf8))
        // Each changed cell by its place in `written` (each holds two stored cells, slow to copy),
        // in row and column order, with what changed (one of three arrays, none made per cell).
        let written = edit.written
        var cells: [(index: Int, cell: CellReference, changed: [String])] = []
        cells.reserveCapacity(written.count)
        for index in written.indices {
            let input = written[index].before.input != written[index].after.input || written[index].before.formula != written[index].after.formula
                || (written[index].after.formula == nil && written[index].before.value != written[index].after.value)
            let (beforeStyle, afterStyle) = (written[index].before.style, written[index].after.style)
            let style = !(beforeStyle.isEmpty && afterStyle.isEmpty) && StoredCell.styleJSON(beforeStyle).text != StoredCell.styleJSON(afterStyle).text
            guard input || style else { continue }
            cells.append((index, written[index].cell, input && style ? Self.inputAndStyle : input ? Self.inputOnly : Self.styleOnly))
        }
        if !zip(cells, cells.dropFirst()).allSatisfy({ $0.cell < $1.cell }) { cells.sort { $0.cell < $1.cell } }
        let writer = EntryWriter()
        if cells.count < batchedFrom {
            for entry in cells {
                writer.putCell(written[entry.index], changed: entry.changed, at: nil)
                try insert(entry.cell, writer.take())
            }
        } else {
            var start = 0
            while start < cells.count {
                let block = RowBlock.block(of: cells[start].cell.row)
                var end = start
                while end < cells.count, RowBlock.block(of: cells[end].cell.row) == block { end += 1 }
                writer.sink.put("{\"cells\":[" as StaticString)
                for (index, entry) in cells[start..<end].enumerated() {
                    if index > 0 { writer.sink.put(UInt8(ascii: ",")) }
                    writer.putCell(written[entry.index], changed: entry.changed, at: entry.cell)
                }
                writer.sink.put("]}" as StaticString)
                try insert(batchKey(block: block), writer.take())
                start = end
            }
        }
        for size in edit.sizeChanges where size.before != size.after {
            func number(_ value: Double?) -> JSON { value.map { .number($0) } ?? .null }
            try insert(CellReference(row: size.row, column: size.column),
                       Array(JSON.object([("changed", .array([.string("size")])), ("before", number(size.before)), ("after", number(size.after))]).text.utf8))
        }
    }

    /// What a cell's entry says changed.
    private static let inputOnly = ["input"], styleOnly = ["style"], inputAndStyle = ["input", "style"]

    /// Records an import's one entry for the whole sheet.
    static func recordImport(sheet: String, subject: String, _ database: Database, _ context: ServerContext) throws {
        let cell = CellReference(row: 0, column: 0)
        try database.insertCellHistory(sheet: sheet, version: 1, row: cell.row, column: cell.column, subject: subject,
                                       at: Int64(Date().timeIntervalSince1970), change: "imported",
                                       data: context.sealer.seal(Array("{}".utf8), context: Self.context(sheet, cell, 1)))
    }

    /// A cell's entries, newest first, with the import's entry last (when the sheet was imported).
    static func entries(of cell: CellReference, sheet: String, _ database: Database, _ context: ServerContext) throws -> [Entry] {
        try database.cellHistory(of: sheet, row: cell.row, column: cell.column, batch: batchKey(block: RowBlock.block(of: cell.row)))
            .flatMap { try entries($0, sheet: sheet, context).filter { $0.cell == cell || $0.change == "imported" } }
    }

    /// The entries of `subject`'s last write not yet undone (marker first, then in row and column
    /// order), nil when there is none.
    static func lastWrite(of subject: String, sheet: String, _ database: Database, _ context: ServerContext) throws -> [Entry]? {
        guard let version = try database.lastUndoableVersion(of: subject, sheet: sheet) else { return nil }
        return try database.cellHistory(of: sheet, version: version, by: subject).flatMap { try entries($0, sheet: sheet, context) }
            .sorted { ($0.cell.row, $0.cell.column) < ($1.cell.row, $1.cell.column) }
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
        let blocks = Set(cells.map { RowBlock.block(of: $0.row) })
        var entries: [Entry] = []
        for var record in try database.laterCellHistory(of: sheet, after: version, notBy: subject) {
            let batch = isBatch(record)
            guard batch ? blocks.contains(-record.row - 1) : cells.contains(CellReference(row: record.row, column: record.column)) else { continue }
            // Only these few are unsealed.
            guard let data = try database.cellHistoryData(of: sheet, version: record.version, row: record.row, column: record.column) else { continue }
            record.data = data
            entries += try self.entries(record, sheet: sheet, context).filter { !batch || cells.contains($0.cell) }
        }
        return entries
    }

    /// A stored entry's meaning: one entry, or a row block's entry's cells one by one.
    private static func entries(_ record: CellHistoryRow, sheet: String, _ context: ServerContext) throws -> [Entry] {
        let key = CellReference(row: record.row, column: record.column)
        let plaintext = try context.sealer.open(record.data ?? [], context: Self.context(sheet, key, record.version), what: "cell history")
        let json = try unpacked(plaintext)
        guard isBatch(record) else {
            let object = JSON.parseObject(json) ?? [:]
            return [entry(record, cell: key) { object[$0] }]
        }
        // The writer's flat cells are read straight into entries (no dictionary per cell); any other shape through Foundation.
        if let cells = batchCells(json) { return cells.compactMap { cell in batchEntry(record) { cell[$0]?.object } } }
        let cells = JSON.parseObject(json)?["cells"] as? [[String: Any]] ?? []
        return cells.compactMap { cell in batchEntry(record) { cell[$0] } }
    }

    /// The entry of one cell of a row block's entry, whose members `member` gives; nil without its cell.
    private static func batchEntry(_ record: CellHistoryRow, _ member: (String) -> Any?) -> Entry? {
        guard let row = member("row") as? Int, let column = member("col") as? Int, row > 0, column > 0 else { return nil }
        return entry(record, cell: CellReference(row: row, column: column), member)
    }

    /// The cells of a row block's entry (`{"cells":[{...},...]}`) read without Foundation (each
    /// cell's members as `JSONSerialization` would give them: `FlatValue.object`); nil when the
    /// text is not in that flat shape.
    static func batchCells(_ json: [UInt8]) -> [FlatObject]? {
        json.withUnsafeBufferPointer { bytes in
            var scanner = JSONScanner(bytes: bytes)
            var cells: [FlatObject]?
            do throws(JSONScanner.Malformed) {
                try scanner.object { (scanner: inout JSONScanner, key: JSONString) throws(JSONScanner.Malformed) in
                    // `cells` alone, as the writer writes it; any other key goes to the general parser.
                    guard cells == nil, key.equals("cells", in: scanner.bytes) else { throw scanner.failure }
                    var read: [FlatObject] = []
                    try scanner.array { (scanner: inout JSONScanner) throws(JSONScanner.Malformed) in
                        read.append(try FlatObject(&scanner))
                    }
                    cells = read
                }
                try scanner.expectEnd()
            } catch {
                return nil
            }
            return cells
        }
    }

    /// One cell's, size's or marker's entry from its JSON object, whose members `object` gives
    /// as `JSONSerialization` would.
    private static func entry(_ record: CellHistoryRow, cell: CellReference, _ object: (String) -> Any?) -> Entry {
        var entry = Entry(version: record.version, subject: record.subject, at: record.at, change: record.change,
                          input: object("input") as? String, previous: object("previous") as? String, cell: cell)
        let changed = object("changed")
        if let changed = changed as? [String] { entry.changed = Set(changed) }
        if entry.isMarker { entry.changed = [] }
        if entry.isSize {
            entry.sizeBefore = (object("before") as? NSNumber)?.doubleValue
            entry.sizeAfter = (object("after") as? NSNumber)?.doubleValue
        } else if changed != nil {
            entry.hasCells = true
            let row = cell.row
            // The line's own UTF-8, not a copy of it.
            func stored(_ member: String) -> StoredCell? { (object(member) as? String).flatMap { StoredCell(line: $0.utf8, row: row) } }
            entry.before = stored("before")
            entry.after = stored("after")
        }
        return entry
    }
}
