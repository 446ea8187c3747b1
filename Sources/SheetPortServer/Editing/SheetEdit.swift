import SheetPortCore
import SheetPortCalc
import Foundation
import SheetPortReader
import SheetPortConvert

/// What a write does to one cell.
package struct CellUpdate {
    /// Its content.
    package enum Content {
        /// Unchanged (a format only, or a recalculated dependent).
        case keep
        /// Typed text, as `TypedInput` read it (`text` is what the cell's `input` shows).
        case typed(text: String, TypedInput)
        /// A formula (without `=`), already checked to parse.
        case formula(String)
        /// A constant with the input that shows it (a copied cell: its value as it is, never re-read).
        case value(CalcValue, input: String)
        /// Nothing: the cell's input and value go.
        case clear
    }

    /// Its style.
    package enum Style {
        /// Unchanged.
        case keep
        /// No style (the plain one).
        case clear
        /// The number format typed input implies, set only when the cell has none (Excel's General).
        case numberFormatIfGeneral(String)
        /// This style in place of the cell's (a copied cell's).
        case replace([String: Any])
        /// These members set (a nil value removes the member), the others kept.
        case merge([String: Any?])
    }

    package var content: Content = .keep
    package var style: Style = .keep

    package init(content: Content = .keep, style: Style = .keep) {
        self.content = content
        self.style = style
    }
}

/// The changes one write makes to a sheet, gathered before anything is applied: the write's
/// body reads stored cells and sets updates; `SheetWrite` then applies them to the engine and
/// recalculates before its transaction opens (`calculate`), and in a short transaction runs the
/// body's own writes (`storing`) and rewrites the affected row blocks (`store`).
package final class SheetEdit {
    /// The sheet's id.
    package let sheet: String
    /// The subject writing.
    package let subject: String
    let model: SheetModel
    /// The connection the edit reads and writes through: the planning's, then the write's
    /// transaction's (`beginStoring`).
    private(set) var database: Database
    let context: ServerContext
    /// The updates, by cell.
    package private(set) var updates: [CellReference: CellUpdate] = [:]
    /// Each updated cell as it was before this write and as it is after (for the history and
    /// undo), in row and column order (`store` rewrites them in that order).
    package private(set) var written: [WrittenCell] = []
    /// The row heights and column widths this write set, with the ones they replaced.
    package var sizeChanges: [SizeChange] = []
    /// Whether blocks holding only recalculated cells are rewritten on every core (a request's
    /// write), or on the calling thread alone (the background's, which leaves the other core to requests).
    var parallel = true
    /// Opened row blocks, by block number (edited in place until they are written).
    private var blocks: [Int: [RowBlock.Entry]] = [:]
    /// The typed cells of `blocks`' lines as read or written (`RowBlock.TypedLines`).
    private var typedLines: [Int: RowBlock.TypedLines] = [:]
    /// The sealed bytes each block of `blocks` was read from (none for one `keep` set).
    private var sealedBlocks: [Int: [UInt8]] = [:]
    /// The blocks read while planning, with the sealed bytes they were read from: read again in
    /// the write's transaction, a block whose bytes are the same is not opened and decoded twice.
    private var planned: [Int: (sealed: [UInt8], entries: [RowBlock.Entry], typed: RowBlock.TypedLines)] = [:]
    /// The cells this write spills into, anchors or takes back from a spill (`spillMarks`).
    var spills: [CellReference: SpillMark] = [:]
    /// What the body writes to the database itself (row heights, the layout, undo marks), run in
    /// the write's transaction once the calculation is done (`beginStoring`).
    private var stores: [() throws -> Void] = []

    init(sheet: String, subject: String, model: SheetModel, database: Database, context: ServerContext) {
        self.sheet = sheet
        self.subject = subject
        self.model = model
        self.database = database
        self.context = context
    }

    /// Sets the update of `cell` (replacing an earlier one of this write).
    package func set(_ cell: CellReference, _ update: CellUpdate) {
        updates[cell] = update
    }

    /// Makes room for `count` more updates at once (a write of many cells sets them one by one).
    package func reserveUpdates(_ count: Int) {
        updates.reserveCapacity(updates.count + count)
    }

    /// Runs `write` in the write's transaction, before the cells are stored (reading through
    /// `database` then reads what that transaction sees).
    func storing(_ write: @escaping () throws -> Void) { stores.append(write) }

    /// Moves the edit into the write's transaction on `database`: the blocks read while planning
    /// are read again there (another instance's settling may have stored values since), and the
    /// body's own writes run.
    func beginStoring(in database: Database) throws {
        self.database = database
        for (block, sealed) in sealedBlocks {
            guard let entries = blocks[block] else { continue }
            planned[block] = (sealed, entries, typedLines[block] ?? RowBlock.TypedLines())
        }
        blocks = [:]
        sealedBlocks = [:]
        for write in stores { try write() }
    }

    /// The engine's formula of a cell (without `=`), nil for a constant or an empty cell.
    package func formula(at cell: CellReference) -> String? { model.engine.formula(at: cell, sheet: 0) }

    /// The stored cell, nil when none is stored there.
    package func stored(_ cell: CellReference) throws -> StoredCell? {
        let block = RowBlock.block(of: cell.row)
        guard let entry = try entries(of: block).first(where: { $0.row == cell.row }) else { return nil }
        for line in entry.cells {
            if let stored = StoredCell(line: line, row: cell.row), stored.column == cell.column { return stored }
        }
        return nil
    }

    /// The stored cells in `rows` x `columns`, in row order; throws `tooMany` past `limit`
    /// (reading only the blocks the rows span up to the sheet's last stored block).
    package func storedCells(rows: ClosedRange<Int>, columns: ClosedRange<Int>, limit: Int) throws -> [StoredCell] {
        let lastBlock = try database.lastRowBlock(of: sheet) ?? -1
        var cells: [StoredCell] = []
        var block = RowBlock.block(of: rows.lowerBound)
        while block <= min(RowBlock.block(of: rows.upperBound), lastBlock) {
            for entry in try entries(of: block) where rows.contains(entry.row) {
                for line in entry.cells {
                    // The column first, cheaply: most lines of a wide block are outside a narrow range.
                    if let column = Self.column(of: line), !columns.contains(column) { continue }
                    guard let stored = StoredCell(line: line, row: entry.row), columns.contains(stored.column) else { continue }
                    cells.append(stored)
                    if cells.count > limit { throw SheetEditError.tooMany(limit) }
                }
            }
            block += 1
        }
        return cells
    }

    /// Keeps a block's rows as a write outside `apply` left them (row heights), so `apply` starts from them.
    func keep(_ entries: [RowBlock.Entry], of block: Int) {
        blocks[block] = entries
        sealedBlocks[block] = nil
    }

    /// A block's rows, read and unsealed once per write.
    func entries(of block: Int) throws -> [RowBlock.Entry] {
        if let entries = blocks[block] { return entries }
        var entries: [RowBlock.Entry] = []
        if let sealed = try database.rowBlock(of: sheet, block: block) {
            if let known = planned.removeValue(forKey: block), known.sealed == sealed {
                // The same bytes the planning read and authenticated: the same rows.
                entries = known.entries
                typedLines[block] = known.typed
            } else {
                var typed = RowBlock.TypedLines()
                entries = try RowBlock.entries(stored: context.sealer.open(sealed, context: RowBlock.context(sheet: sheet, block: block), what: "row block"), typed: &typed)
                typedLines[block] = typed
            }
            sealedBlocks[block] = sealed
        }
        blocks[block] = entries
        return entries
    }

    /// What `apply` did.
    struct Applied {
        /// The first changed cells as stored now (a cleared one empty), in row order.
        var cells: [StoredCell] = []
        /// How many cells changed in all.
        var count = 0
        /// The last row and column holding content among the changed cells.
        var lastRow = 0
        var lastColumn = 0
    }

    /// Applies the updates to the engine, which recalculates what depends on them, and answers
    /// the cells to rewrite (`store`): every cell whose input, style, value or part in a spill
    /// changed, sorted, with its value now. Reads and writes nothing in the database: a write
    /// runs it before its transaction opens, so a long calculation holds no database lock.
    ///
    /// The engine stops once more than `shown` dependents changed (the answer then says `more`):
    /// the rest are computed and stored after the answer (`SheetSettle`), and every read waits
    /// for them.
    func calculate(showing shown: Int) -> [Touched] {
        var inputs: [CellInput] = []
        // Row-major, the order the engine places cells fastest in (not the dictionary's).
        let cells = updates.keys.sorted()
        for cell in cells {
            guard let update = updates[cell] else { continue }
            let location = CellLocation(sheet: 0, cell: cell)
            switch update.content {
            case .keep: continue
            case .typed(_, let typed): inputs.append(CellInput(location: location, content: typed.content))
            case .formula(let formula): inputs.append(CellInput(location: location, content: .formula(formula)))
            case .value(let value, _): inputs.append(CellInput(location: location, content: .value(value)))
            case .clear: inputs.append(CellInput(location: location, content: .empty))
            }
        }
        model.cellCount += inputs.count
        let recalculated = inputs.isEmpty ? [] : model.engine.setInputs(inputs, stoppingAfter: shown)
        let engine = model.engine
        var touched = Self.merge(cells, recalculated) { engine.value(at: $0, sheet: 0) }
        spills = spillMarks(recalculated: recalculated)
        if !spills.isEmpty { touched = adding(spills.keys, to: touched) }
        return touched
    }

    /// Rewrites `touched` (sorted, each cell once) in their row blocks: each updated cell's
    /// update applied, every cell's value the one given; each touched block read, unsealed,
    /// sealed and stored once. Answers the first `shown` changed cells as stored now, how many
    /// changed, and the last row and column holding content.
    ///
    /// A block holding an updated cell (or one this write already opened) is rewritten here; the
    /// blocks holding only recalculated dependents (all 3,125 of a 200,000-row running total's)
    /// are read 64 to a statement and opened, spliced, compressed and sealed side by side
    /// (`flush`), then stored in order.
    func store(_ touched: [Touched], showing shown: Int) throws -> Applied {
        var applied = Applied()
        written.reserveCapacity(written.count + updates.count)
        var pending = PendingBlocks(touched: touched)
        var start = 0
        while start < touched.count {
            let block = RowBlock.block(of: touched[start].cell.row)
            var end = start
            var updated = blocks[block] != nil
            while end < touched.count, RowBlock.block(of: touched[end].cell.row) == block {
                if !updated, updates[touched[end].cell] != nil { updated = true }
                end += 1
            }
            if !updated {
                if let first = pending.blocks.first?.block, block - first >= SheetModel.blocksPerRead { try flush(&pending, into: &applied, showing: shown) }
                pending.blocks.append((block, start..<end))
                start = end
                continue
            }
            try flush(&pending, into: &applied, showing: shown)
            // Taken out while rewritten, so editing them copies neither the rows nor the typed lines.
            _ = try entries(of: block)
            var entries = blocks.removeValue(forKey: block) ?? []
            var typed = typedLines.removeValue(forKey: block) ?? RowBlock.TypedLines()
            typed.reserveCapacity(end - start)
            Self.rewrite(touched[start..<end], updates: updates, spills: spills, in: &entries, into: &applied, written: &written, typed: &typed, showing: shown)
            blocks[block] = entries
            typedLines[block] = typed
            let data = entries.isEmpty ? nil : context.sealer.seal(RowBlock.binary(entries, typed: typed), context: RowBlock.context(sheet: sheet, block: block))
            try database.replaceRowBlock(sheet: sheet, block: block, firstRow: entries.first?.row ?? 0, lastRow: entries.last?.row ?? 0, data: data)
            start = end
        }
        try flush(&pending, into: &applied, showing: shown)
        return applied
    }

    /// A cell to rewrite and its value now (the engine's).
    typealias Touched = (cell: CellReference, value: CalcValue)

    /// The updated cells (sorted) and the recalculated ones (sorted, the inputs among them) as one
    /// sorted list, each cell once, with its value now (`value` answers an updated cell's that did
    /// not change: a format's).
    private static func merge(_ updated: [CellReference], _ recalculated: [CellChange], value: (CellReference) -> CalcValue) -> [Touched] {
        var touched: [Touched] = []
        touched.reserveCapacity(updated.count + recalculated.count)
        var u = 0
        for change in recalculated where change.location.sheet == 0 {
            let cell = change.location.cell
            while u < updated.count, updated[u] < cell {
                touched.append((updated[u], scalar(value(updated[u]))))
                u += 1
            }
            if u < updated.count, updated[u] == cell { u += 1 }
            touched.append((cell, scalar(change.value)))
        }
        touched.append(contentsOf: updated[u...].map { ($0, scalar(value($0))) })
        return touched
    }

    /// A cell's value as a block stores it: an array formula's first value.
    static func scalar(_ value: CalcValue) -> CalcValue {
        if case .array(let array) = value { return array.values.first ?? .empty }
        return value
    }

    /// Rewrites the lines of `cells` (sorted, all of one block) in that block's `entries`, row by
    /// row, and drops the rows left with nothing. The lines it writes whole are added to
    /// `typed` with their cells, for `RowBlock.binary` to encode without reading them back.
    static func rewrite(_ cells: ArraySlice<Touched>, updates: [CellReference: CellUpdate], spills: [CellReference: SpillMark], in entries: inout [RowBlock.Entry],
                        into applied: inout Applied, written: inout [WrittenCell],
                        typed: inout RowBlock.TypedLines, showing shown: Int) {
        var rowStart = cells.startIndex
        while rowStart < cells.endIndex {
            let row = cells[rowStart].cell.row
            var rowEnd = rowStart
            while rowEnd < cells.endIndex, cells[rowEnd].cell.row == row { rowEnd += 1 }
            rewrite(row: row, cells[rowStart..<rowEnd], updates: updates, spills: spills, in: &entries, into: &applied, written: &written,
                    typed: &typed, showing: shown)
            rowStart = rowEnd
        }
        entries.removeAll { $0.cells.isEmpty && $0.height == nil && !$0.isHidden }
    }

    /// Rewrites the lines of `cells` (one row's, ascending by column) in their block's rows: each
    /// cell's update applied, its value the one given (an updated cell's is the engine's). A cell
    /// only recalculated has its value spliced into its line (`StoredLine`), never parsed whole.
    /// The row's lines are indexed by column once, so a write across a wide row stays linear.
    private static func rewrite(row: Int, _ cells: ArraySlice<Touched>, updates: [CellReference: CellUpdate], spills: [CellReference: SpillMark], in entries: inout [RowBlock.Entry],
                        into applied: inout Applied, written: inout [WrittenCell],
                        typed: inout RowBlock.TypedLines, showing shown: Int) {
        let index = entries.firstIndex { $0.row >= row } ?? entries.endIndex
        if index == entries.endIndex || entries[index].row != row {
            entries.insert(RowBlock.Entry(row: row, height: nil, isHidden: false, cells: []), at: index)
        }
        // A recalculated dependent: its value spliced into its line where it stands (rows are
        // narrow: found by a scan of the row's lines); the rest go the general way below.
        let firstShown = applied.cells.count
        defer {
            // The row's cells in column order, whichever way each went.
            if applied.cells.count - firstShown > 1 { applied.cells[firstShown...].sort { $0.column < $1.column } }
        }
        var rest: [(cell: CellReference, value: CalcValue, update: CellUpdate?)] = []
        for (cell, value) in cells {
            let update = updates.isEmpty ? nil : updates[cell]
            guard update == nil, spills.isEmpty || spills[cell] == nil, value != .empty,
                  let position = entries[index].cells.firstIndex(where: { column(of: $0) == cell.column }),
                  let spliced = StoredLine.replacingValue(in: entries[index].cells[position], with: value) else {
                rest.append((cell, value, update))
                continue
            }
            entries[index].cells[position] = ArraySlice(spliced)
            applied.count += 1
            applied.lastRow = max(applied.lastRow, row)
            applied.lastColumn = max(applied.lastColumn, cell.column)
            if applied.cells.count < shown, let stored = StoredCell(line: spliced, row: row) { applied.cells.append(stored) }
        }
        guard !rest.isEmpty else { return }
        var lines = RowLines(capacity: entries[index].cells.count + rest.count)
        var unreadable: [ArraySlice<UInt8>] = []
        for line in entries[index].cells {
            if let column = column(of: line) ?? StoredCell(line: line, row: row)?.column { lines[column] = line } else { unreadable.append(line) }
        }
        for (cell, value, update) in rest {
            applied.count += 1
            var (stored, beforeLine) = StoredCell.reading(lines[cell.column], row: row, column: cell.column, typed: typed)
            let before = stored
            apply(update ?? CellUpdate(), to: &stored)
            if let mark = spills[cell] { mark.apply(to: &stored) }
            stored.value = value
            var line: ArraySlice<UInt8>?
            if !stored.isVacant {
                // Rendered once, typed from its own bytes (`TypedLine` slices of it).
                let (bytes, typedLine) = stored.typedLine
                let rendered = ArraySlice(bytes)
                if let typedLine { typed.add(rendered, typedLine) }
                line = rendered
            }
            if update != nil { written.append(WrittenCell(before: before, after: stored, beforeLine: beforeLine, afterLine: line)) }
            lines[cell.column] = line
            if !stored.isVacant {
                applied.lastRow = max(applied.lastRow, row)
                applied.lastColumn = max(applied.lastColumn, cell.column)
            }
            if applied.cells.count < shown { applied.cells.append(stored) }
        }
        entries[index].cells = lines.lines + unreadable
    }

    /// A row's lines by column, in column order: a row holds a handful, read and rewritten in
    /// column order, so an array kept sorted (appended to, mostly) beats hashing every line.
    private struct RowLines {
        private var columns: [Int] = []
        private var slots: [ArraySlice<UInt8>?] = []

        init(capacity: Int) {
            columns.reserveCapacity(capacity)
            slots.reserveCapacity(capacity)
        }

        /// The line of `column` (setting nil removes it; a column set again keeps the last).
        subscript(column: Int) -> ArraySlice<UInt8>? {
            get {
                let at = position(of: column)
                return at < columns.count && columns[at] == column ? slots[at] : nil
            }
            set {
                let at = position(of: column)
                if at < columns.count, columns[at] == column {
                    slots[at] = newValue
                } else if newValue != nil {
                    columns.insert(column, at: at)
                    slots.insert(newValue, at: at)
                }
            }
        }

        /// The lines in column order.
        var lines: [ArraySlice<UInt8>] { slots.compactMap { $0 } }

        /// Where `column` is or goes (the end first: columns mostly come in order).
        private func position(of column: Int) -> Int {
            if columns.last.map({ $0 < column }) ?? true { return columns.count }
            var low = 0, high = columns.count
            while low < high {
                let middle = (low + high) / 2
                if columns[middle] < column { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// The column of a stored line from its leading `{"col":N,` (how every stored line starts), else nil.
    static func column(of line: ArraySlice<UInt8>) -> Int? {
        let prefix = Array("{\"col\":".utf8)
        guard line.starts(with: prefix) else { return nil }
        var column = 0
        var position = line.startIndex + prefix.count
        while position < line.endIndex, line[position] >= 0x30, line[position] <= 0x39, column < 100_000 {
            column = column * 10 + Int(line[position] - 0x30)
            position += 1
        }
        return position < line.endIndex && line[position] == UInt8(ascii: ",") && column > 0 ? column : nil
    }

    /// An update applied to a stored cell's input, formula and style.
    private static func apply(_ update: CellUpdate, to stored: inout StoredCell) {
        switch update.content {
        case .keep: break
        default:
            // New content is a cell of its own: a spill it anchors or joins is marked again (`SpillMark`).
            stored.arrayRange = nil
            stored.spill = nil
        }
        switch update.content {
        case .keep: break
        case .typed(let text, let typed):
            stored.input = text
            if case .formula(let formula) = typed.content { stored.formula = formula } else { stored.formula = nil }
            if case .empty = typed.content { stored.input = "" }
        case .formula(let formula):
            stored.input = "=" + formula
            stored.formula = formula
        case .value(_, let input):
            stored.input = input
            stored.formula = nil
        case .clear:
            stored.input = ""
            stored.formula = nil
        }
        switch update.style {
        case .keep: break
        case .clear: stored.style = [:]
        case .numberFormatIfGeneral(let format): if stored.style["numFmt"] == nil { stored.style["numFmt"] = format }
        case .replace(let style): stored.style = style
        case .merge(let members): for (key, value) in members { stored.style[key] = value }
        }
    }
}

/// An updated cell as it was before a write and as it is after, with the stored lines that
/// spell them when the write holds them already (its history entry keeps those bytes).
package struct WrittenCell {
    package var before: StoredCell
    package var after: StoredCell
    /// `before`'s line as it was stored, when typed (so spelled as `StoredCell.line` spells it).
    var beforeLine: ArraySlice<UInt8>?
    /// `after`'s line as the write stored it (nil: the cell is vacant).
    var afterLine: ArraySlice<UInt8>?

    /// The cell.
    var cell: CellReference { CellReference(row: after.row, column: after.column) }

    init(before: StoredCell, after: StoredCell, beforeLine: ArraySlice<UInt8>? = nil, afterLine: ArraySlice<UInt8>? = nil) {
        self.before = before
        self.after = after
        self.beforeLine = beforeLine
        self.afterLine = afterLine
    }
}

/// A row height or column width a write set (nil: the default), with the one it replaced.
package struct SizeChange {
    /// The row (`column` 0) or the column (`row` 0), 1-based.
    package var row: Int
    package var column: Int
    package var before: Double?
    package var after: Double?
}

/// Why a write's gathering stopped (the routes answer each with its status and code).
package enum SheetEditError: Error, Equatable {
    /// More cells than the write may change.
    case tooMany(Int)
    /// The sheet is gone (deleted since the caller's role was checked).
    case noSuchSheet
    /// The subject has no write on the sheet left to undo.
    case nothingToUndo
    /// An input no cell may hold (a control character, longer than a cell holds): why.
    case badInput(String)
    /// A formula that does not parse, refers to another workbook or is too long: why.
    case badFormula(String)
    /// The write's calculation ran past `serve --calc-timeout` (these seconds): nothing stored.
    case calcTimeout(Double)
}
