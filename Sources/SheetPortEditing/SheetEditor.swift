import SheetPortCore

/// The editing client's state for one sheet: the cells of the rows window on screen at the
/// version the server last gave, the selection, the draft, the focus and the last error; keys go
/// in through `handle(_:)`. Writes go through the transport one at a time, in order; what the
/// server answers is reconciled by version (`apply`). Not thread-safe: one thread drives it
/// (events from another thread are handed over with `receive(_:)` on the driving thread).
public final class SheetEditor {
    /// The sheet's id on the server.
    public let sheet: String
    /// The transport to the server.
    public let transport: any EditingTransport
    /// The cells shown, from the last snapshot and the writes and events accepted since.
    public private(set) var cells: [CellReference: CellSnapshot] = [:]
    /// The sheet's version the cells show.
    public private(set) var version = 0
    /// The rows window shown: its first row and row count.
    public private(set) var window = (start: 1, count: 50)
    /// The selection.
    public private(set) var selection: Selection
    /// The open draft.
    public private(set) var draft: Draft?
    /// Where the keys go.
    public internal(set) var focus: EditorFocus = .grid
    /// The panel over the grid while the focus is `.panel`.
    public internal(set) var panel: Panel?
    /// A navigation waiting for the save, discard or cancel answer about the draft.
    public private(set) var pendingNavigation: PendingNavigation?
    /// The last error, until the next successful action replaces it.
    public internal(set) var lastError: EditorError?
    /// Set once the grid may close (no draft left unresolved).
    public private(set) var isClosed = false
    /// The clipboard (a terminal has no system one; an app puts `text` on its pasteboard too).
    public var clipboard: ClipboardContent?
    /// The sheet's defined names for the address field, loaded from the server at the first
    /// Ctrl-G (`loadNames`); a failed load is tried again at the next.
    public var names: [String: CellRange] = [:]
    /// Whether `names` holds the server's (they do not change after the import).
    public private(set) var namesLoaded = false
    /// The person's role on the sheet (a share link's token holds its link's).
    public var role: SheetRole = .owner
    /// Whether the person may only read the sheet (a viewer or commenter, or their share link):
    /// no draft opens and nothing is sent; the keys that would change the sheet say so at once,
    /// instead of a refusal from the server after a draft was typed.
    public var isReadOnly: Bool { !role.writes }
    /// Column widths and the default row height, loaded with the first window and again after
    /// a sizes write.
    public private(set) var sizes = CellSizes()
    /// The heights of the rows of the window that have one (points).
    public private(set) var rowHeights: [Int: Double] = [:]
    private var sizesLoaded = false
    /// Whether the window must be fetched again (a gap in versions, a `more` answer, an event).
    public private(set) var needsRefetch = true
    /// Writes accepted by the editor and not yet answered by the server, oldest first.
    public private(set) var pendingWrites: [PendingWrite] = []
    private var limitsCache: EditingLimits?
    private var flushing = false

    /// A write waiting for its turn.
    public enum PendingWrite: Sendable, Equatable {
        /// Inputs; `draft` is the draft they came from, restored when the write fails.
        case cells([CellEdit], draft: Draft?)
        /// A server-side copy.
        case copy(source: CellRange, target: CellRange)
        /// A clear of `what`: `contents`, `formats` or `all`.
        case clear(CellRange, what: String)
        /// A format set on (or cleared from) a range.
        case format(CellRange, FormatChange)
        /// Ctrl-Z: the person's own last write taken back.
        case undo
        /// Row heights and column widths (nil: the default).
        case sizes(rows: [Int: Double?], columns: [Int: Double?])
        /// A cell's input and format at an earlier version made its own again.
        case restore(CellReference, version: Int)
    }

    /// An editor of `sheet` over `transport`, on a grid of `grid`'s size.
    public init(sheet: String, transport: any EditingTransport, grid: GridSize = .excel) {
        self.sheet = sheet
        self.transport = transport
        selection = Selection(grid: grid)
    }

    /// The grid.
    public var grid: GridSize { selection.grid }

    /// The formula bar: the draft while one is open, else the active cell's input.
    public var formulaBarText: String {
        if let draft { return draft.text }
        return cells[selection.active]?.input ?? ""
    }

    /// The first screen line: `B2 | =SUM(A1:A3)`.
    public var formulaBar: String { "\(selection.active) | \(formulaBarText)" }

    // MARK: Snapshots and versions

    /// Shows rows `start ..< start + count`, fetching them when they are not the window loaded.
    public func show(start: Int, count: Int) {
        let start = max(1, min(start, grid.rows)), count = max(1, min(count, grid.rows - start + 1))
        if window != (start, count) {
            window = (start, count)
            needsRefetch = true
        }
        refreshIfNeeded()
    }

    /// Fetches the window when something asked for it; a failure is the last error (retryable).
    public func refreshIfNeeded() {
        if !sizesLoaded {
            do {
                sizes = try transport.sizes(sheet: sheet)
                sizesLoaded = true
            } catch {
                fail(error, doing: "read the column widths")
            }
        }
        guard needsRefetch else { return }
        do {
            let snapshot = try transport.rows(sheet: sheet, start: window.start, count: window.count)
            needsRefetch = false
            apply(snapshot)
        } catch {
            fail(error, doing: "refresh rows \(window.start)-\(window.start + window.count - 1)")
        }
    }

    /// A rows window: older than the version accepted, ignored; else it replaces every cell
    /// shown (deleted cells and old formats go). The draft is never touched.
    @discardableResult
    public func apply(_ snapshot: RowsWindow) -> Bool {
        guard snapshot.version >= version else { return false }
        var fresh: [CellReference: CellSnapshot] = [:]
        for row in snapshot.rows {
            for (column, cell) in row.cells { fresh[CellReference(row: row.row, column: column)] = cell }
        }
        cells = fresh
        rowHeights = [:]
        for row in snapshot.rows { if let height = row.height { rowHeights[row.row] = height } }
        version = snapshot.version
        return true
    }

    /// A write's answer: the next version merges its changed cells; an older one is ignored; a
    /// later one (another writer came between) or one with `more` refetches the window instead
    /// of guessing what else changed.
    @discardableResult
    public func apply(_ result: WriteResult) -> Bool {
        guard result.version > version else { return false }
        guard result.version == version + 1, !result.more else {
            needsRefetch = true
            return false
        }
        for (ref, cell) in result.changed {
            if cell.input.isEmpty && cell.display.isEmpty && !cell.hasFormat {
                cells[ref] = nil
            } else {
                cells[ref] = cell
            }
        }
        version = result.version
        return true
    }

    /// A sheet event (handed over on the driving thread): one already shown is ignored; a sizes
    /// or undo event reads the sizes and the window again; one whose cells are all outside the
    /// window only moves the version; any other refetches.
    public func receive(_ event: SheetEvent) {
        guard event.version > version else { return }
        if event.change == .sizes || event.change == .undo {
            // Row heights and column widths are not cells (a sizes event names none): they are
            // read again, and the window with them, empty rows' heights included.
            sizesLoaded = false
            needsRefetch = true
            return
        }
        let rows = window.start..<(window.start + window.count)
        if event.version == version + 1, let refs = event.refs, !refs.contains(where: { rows.contains($0.row) }) {
            version = event.version
            return
        }
        needsRefetch = true
    }

    // MARK: Writes

    /// Queues a write and sends the queue, oldest first, one at a time.
    func enqueue(_ write: PendingWrite) -> Bool {
        pendingWrites.append(write)
        return flush()
    }

    /// Sends the writes waiting, in order; stops at the first failure (kept at the head of the
    /// queue, its draft restored) and answers false.
    @discardableResult
    public func flush() -> Bool {
        guard !flushing else { return false }
        flushing = true
        defer { flushing = false }
        while let write = pendingWrites.first {
            do {
                let result: WriteResult
                switch write {
                case .cells(let inputs, _): result = try transport.writeCells(sheet: sheet, inputs)
                case let .copy(source, target): result = try transport.copy(sheet: sheet, source: source, target: target)
                case let .clear(range, what): result = try transport.clear(sheet: sheet, range: range, what: what)
                case let .format(range, change): result = try transport.format(sheet: sheet, range: range, change)
                case .undo:
                    result = try transport.undo(sheet: sheet)
                    // An undone sizes write changes no cell: the sizes are read back too.
                    sizesLoaded = false
                    needsRefetch = true
                case let .restore(ref, version): result = try transport.restore(sheet: sheet, ref: ref, version: version)
                case let .sizes(rows, columns):
                    result = try transport.setSizes(sheet: sheet, rows: rows, columns: columns)
                    // Sizes are not cells: the widths and heights are read back from the server.
                    sizesLoaded = false
                    needsRefetch = true
                }
                pendingWrites.removeFirst()
                apply(result)
                lastError = nil
            } catch {
                pendingWrites.removeFirst()
                if case .cells(_, let failed?) = write {
                    draft = failed
                    selection.select(failed.ref)
                    fail(error, doing: "save \(failed.ref)")
                } else {
                    fail(error, doing: "write")
                }
                return false
            }
        }
        refreshIfNeeded()
        return true
    }

    /// Exports the workbook once every write the editor accepted is answered: the export asks for
    /// at least that version.
    public func export() throws -> [UInt8] {
        guard flush() else { throw lastErrorAsTransport() }
        return try transport.export(sheet: sheet, minVersion: version)
    }

    // MARK: Keys

    /// One key, in the focus it arrives in.
    public func handle(_ key: EditorKey) {
        if pendingNavigation != nil { answerPending(key); return }
        switch focus {
        case .addressField(let text): handleAddressField(key, text)
        case .functionMenu(let index): handleMenu(key, index)
        case .formatMenu(let index): handleFormatMenu(key, index)
        case .formatField(let field, let text): handleFormatField(key, field, text)
        case .panel: handlePanel(key)
        case .grid: handleGrid(key)
        }
    }

    /// The keys that change the sheet.
    private static func changesTheSheet(_ key: EditorKey) -> Bool {
        switch key {
        case .text, .backspace, .edit, .delete, .paste, .cut, .insertFunction, .formatMenu, .undo, .bold, .italic, .fillDown, .fillRight: true
        default: false
        }
    }

    private func handleGrid(_ key: EditorKey) {
        if isReadOnly, Self.changesTheSheet(key) {
            lastError = EditorError(message: "read-only: this sheet is shared with you to view, not to change", retryable: false)
            return
        }
        switch key {
        case .text(let typed):
            let clean = typed.filter { !$0.isControl }
            guard !clean.isEmpty else { return }
            if draft == nil { draft = Draft(ref: selection.active, text: "") }
            draft?.text += clean
        case .backspace:
            if draft == nil { draft = Draft(ref: selection.active, text: "") } else if !draft!.text.isEmpty { draft!.text.removeLast() }
        case .edit:
            if draft == nil { draft = Draft(ref: selection.active, text: cells[selection.active]?.input ?? "") }
        case .delete:
            guard draft == nil else { return }
            _ = enqueue(.clear(selection.range, what: "contents"))
        case .enter: commit(then: .down)
        case .reverseEnter: commit(then: .up)
        case .tab: commit(then: .right)
        case .reverseTab: commit(then: .left)
        case .escape:
            draft = nil
            lastError = nil
        case .arrow(let direction):
            guard commitDraft() else { return }
            selection.move(direction)
        case .extend(let direction):
            guard commitDraft() else { return }
            selection.extend(direction)
        case .selectAll:
            if draft == nil { selection.selectAll() }
        case .copy:
            if draft == nil { copySelection(cut: false) }
        case .cut:
            if draft == nil { copySelection(cut: true) }
        case .bold:
            guard commitDraft() else { return }
            let on = !(cells[selection.active]?.bold ?? false)
            _ = enqueue(.format(selection.range, .set([.bold(on)])))
        case .italic:
            guard commitDraft() else { return }
            let on = !(cells[selection.active]?.italic ?? false)
            _ = enqueue(.format(selection.range, .set([.italic(on)])))
        case .fillDown: fill(.down)
        case .fillRight: fill(.right)
        case .paste:
            if draft != nil {
                draft!.text += TSV.decode(clipboard?.text ?? "").first?.first ?? ""
            } else {
                paste()
            }
        case .undo:
            // Inside a draft, Ctrl-Z abandons nothing: the draft is the person's to finish.
            if draft == nil { _ = enqueue(.undo) }
        case .goTo:
            focus = .addressField("")
            if !namesLoaded { loadNames() }
        case .insertFunction(let function):
            if draft != nil { draft!.text += function.rawValue + "("; return }
            insert(function)
        case .functionMenu: focus = .functionMenu(0)
        case .panel(let kind):
            guard commitDraft() else { return }
            openPanel(kind)
        case .formatMenu:
            guard commitDraft() else { return }
            focus = .formatMenu(0)
        case .quit:
            if draft != nil { pendingNavigation = .close } else { isClosed = true }
        case .answer: break
        }
    }

    private func handleAddressField(_ key: EditorKey, _ text: String) {
        switch key {
        case .text(let typed): focus = .addressField(text + typed.filter { !$0.isControl })
        case .backspace: focus = .addressField(String(text.dropLast()))
        case .escape: focus = .grid
        case .enter, .tab:
            do {
                let range = try NameBox.parse(text, names: names, grid: grid)
                focus = .grid
                navigate(to: range)
            } catch {
                lastError = EditorError(message: error.description, retryable: false)
            }
        case .quit: focus = .grid; handleGrid(.quit)
        default: break
        }
    }

    private func handleMenu(_ key: EditorKey, _ index: Int) {
        let entries = GridMenuEntry.allCases
        switch key {
        case .enter:
            focus = .grid
            switch entries[index] {
            case .function(let function): handleGrid(.insertFunction(function))
            case .panel(let kind): handleGrid(.panel(kind))
            }
        case .text(let typed):
            if let chosen = entries.firstIndex(where: { $0.title.uppercased().hasPrefix(typed.uppercased()) }) { focus = .functionMenu(chosen) }
        default: handleMenuMove(key, index, count: entries.count, menu: EditorFocus.functionMenu)
        }
    }

    private func handleFormatMenu(_ key: EditorKey, _ index: Int) {
        let entries = FormatMenuEntry.allCases
        if key == .enter { choose(entries[index]) } else { handleMenuMove(key, index, count: entries.count, menu: EditorFocus.formatMenu) }
    }

    /// The keys every menu answers alike: the arrows and (reverse) Tab move through its `count`
    /// entries, wrapping around; Escape closes it; quit closes it and quits.
    private func handleMenuMove(_ key: EditorKey, _ index: Int, count: Int, menu: (Int) -> EditorFocus) {
        switch key {
        case .arrow(.down), .arrow(.right), .tab: focus = menu((index + 1) % count)
        case .arrow(.up), .arrow(.left), .reverseTab: focus = menu((index + count - 1) % count)
        case .escape: focus = .grid
        case .quit: focus = .grid; handleGrid(.quit)
        default: break
        }
    }

    /// A format menu entry: a change at once, or the field that asks for its value (holding
    /// the active cell's current one).
    private func choose(_ entry: FormatMenuEntry) {
        let range = selection.range, cell = cells[selection.active]
        focus = .grid
        switch entry {
        case .alignLeft: _ = enqueue(.format(range, .set([.align(.left)])))
        case .alignCenter: _ = enqueue(.format(range, .set([.align(.center)])))
        case .alignRight: _ = enqueue(.format(range, .set([.align(.right)])))
        case .alignGeneral: _ = enqueue(.format(range, .set([.align(nil)])))
        case .clearFormatting: _ = enqueue(.format(range, .clear))
        case .numberFormat: focus = .formatField(.numberFormat, cell?.numberFormat ?? "General")
        case .fill: focus = .formatField(.fill, cell?.fill ?? "")
        case .color: focus = .formatField(.color, cell?.color ?? "")
        case .columnWidth: focus = .formatField(.columnWidth, Self.sizeText(sizes.width(ofColumn: selection.active.column)))
        case .rowHeight: focus = .formatField(.rowHeight, Self.sizeText(rowHeight(selection.active.row)))
        }
    }

    private static func sizeText(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }

    private func handleFormatField(_ key: EditorKey, _ field: FormatField, _ text: String) {
        switch key {
        case .text(let typed): focus = .formatField(field, text + typed.filter { !$0.isControl })
        case .backspace: focus = .formatField(field, String(text.dropLast()))
        case .escape: focus = .grid
        case .enter:
            do {
                let write = try formatWrite(field, text)
                focus = .grid
                _ = enqueue(write)
            } catch {
                lastError = EditorError(message: error.description, retryable: false)
            }
        case .quit: focus = .grid; handleGrid(.quit)
        default: break
        }
    }

    /// The write a format field's text asks for, over the selection (its columns or rows for sizes).
    private func formatWrite(_ field: FormatField, _ text: String) throws(FormatFieldError) -> PendingWrite {
        let range = selection.range
        switch field {
        case .numberFormat:
            let code = FormatField.trimmed(text)
            guard !code.isEmpty, code.count <= 255 else { throw FormatFieldError(description: "a number format is 1 to 255 characters") }
            return .format(range, .set([.numberFormat(code)]))
        case .fill: return .format(range, .set([.fill(try FormatField.colour(text))]))
        case .color: return .format(range, .set([.color(try FormatField.colour(text))]))
        case .columnWidth:
            let width = try FormatField.size(text, maximum: 255, unit: "characters")
            guard range.columnCount <= 16_384 else { throw FormatFieldError(description: "too many columns") }
            return .sizes(rows: [:], columns: Dictionary(uniqueKeysWithValues: range.columns.map { ($0, width) }))
        case .rowHeight:
            let height = try FormatField.size(text, maximum: 409, unit: "points")
            guard range.rowCount <= 10_000 else { throw FormatFieldError(description: "row heights are set for at most 10000 rows at a time") }
            return .sizes(rows: Dictionary(uniqueKeysWithValues: range.rows.map { ($0, height) }), columns: [:])
        }
    }

    /// The active cell as the number format being typed would show it (numbers only), for the
    /// format field's preview; nil when there is nothing to preview.
    public var formatPreview: String? {
        guard case .formatField(.numberFormat, let code) = focus, !code.isEmpty, let number = cells[selection.active]?.number else { return nil }
        return NumberFormatRenderer.text(number: number, code: code)
    }

    /// The height of `row` in points: its own, the sheet's default, or Excel's.
    public func rowHeight(_ row: Int) -> Double {
        rowHeights[row] ?? sizes.defaultRowHeight ?? CellSizes.defaultRowHeight
    }

    /// Loads the sheet's defined names for the address field; a failure is the last error
    /// (retryable: cells and ranges still go, and the next Ctrl-G tries again).
    public func loadNames() {
        do {
            names = try transport.names(sheet: sheet)
            namesLoaded = true
        } catch {
            fail(error, doing: "load the sheet's names")
        }
    }

    /// Goes to `range`, asking first when a draft is open.
    public func navigate(to range: CellRange) {
        guard draft == nil else { pendingNavigation = .goTo(range); return }
        selection.select(range)
    }

    private func answerPending(_ key: EditorKey) {
        guard let pending = pendingNavigation else { return }
        let answer: DraftAnswer
        switch key {
        case .answer(let given): answer = given
        case .escape: answer = .cancel
        case .text(let typed) where typed.lowercased() == "s": answer = .save
        case .text(let typed) where typed.lowercased() == "d": answer = .discard
        case .text(let typed) where typed.lowercased() == "c": answer = .cancel
        default: return
        }
        pendingNavigation = nil
        switch answer {
        case .cancel: return
        case .discard: draft = nil
        case .save: guard commitDraft() else { return }
        }
        switch pending {
        case .close: isClosed = true
        case .goTo(let range): selection.select(range)
        }
    }

    /// Commits the draft (if any); on success moves the selection `direction`.
    private func commit(then direction: Direction) {
        guard commitDraft() else { return }
        selection.advance(direction)
    }

    /// Sends the draft as one input; false (the draft kept, the error shown) when it failed.
    private func commitDraft() -> Bool {
        guard let open = draft else { return true }
        draft = nil
        if open.text == (cells[open.ref]?.input ?? "") && cells[open.ref] != nil { return true }
        return enqueue(.cells([CellEdit(ref: open.ref, input: open.text)], draft: open))
    }

    // MARK: Clipboard

    /// The most cells a copy takes (a whole-grid copy is refused, not built).
    public static let maxCopyCells = 1_000_000

    private func copySelection(cut: Bool) {
        let range = selection.range
        guard range.rowCount * range.columnCount <= Self.maxCopyCells else {
            lastError = EditorError(message: "copy refused: \(range) has more than \(Self.maxCopyCells) cells", retryable: false)
            return
        }
        var source = cells
        let loaded = window.start..<(window.start + window.count)
        if range.start.row < loaded.lowerBound || range.end.row >= loaded.upperBound {
            do {
                let fetched = try transport.rows(sheet: sheet, start: range.start.row, count: range.rowCount)
                source = [:]
                for row in fetched.rows { for (column, cell) in row.cells { source[CellReference(row: row.row, column: column)] = cell } }
            } catch {
                fail(error, doing: "copy \(range)")
                return
            }
        }
        let rows = (range.start.row...range.end.row).map { row in
            (range.start.column...range.end.column).map { column in source[CellReference(row: row, column: column)]?.display ?? "" }
        }
        clipboard = ClipboardContent(text: TSV.encode(rows), origin: (sheet, range), isCut: cut)
        lastError = nil
    }

    private func paste() {
        guard let content = clipboard, !content.text.isEmpty || content.origin != nil else {
            lastError = EditorError(message: PasteError.empty.description, retryable: false)
            return
        }
        let limits: EditingLimits
        do {
            limits = try currentLimits()
        } catch {
            fail(error, doing: "read the server's limits")
            return
        }
        do {
            if let origin = content.origin, origin.sheet == sheet {
                let target = selection.isRange ? selection.range : CellRange(start: selection.active, end: selection.active)
                let cells = max(origin.range.rowCount * origin.range.columnCount, target.rowCount * target.columnCount)
                guard cells <= limits.maxBatchCells else { throw PasteError.tooManyCells(cells: cells, cap: limits.maxBatchCells) }
                let end = CellReference(row: target.start.row + origin.range.rowCount - 1, column: target.start.column + origin.range.columnCount - 1)
                guard end.row <= grid.rows, end.column <= grid.columns else {
                    throw PasteError.offGrid(range: "\(target.start):\(CellReference.columnName(end.column))\(end.row)")
                }
                if content.isCut {
                    // A move: the cells land first, then what of the source the paste did not
                    // cover is emptied (values and formats, as Excel's cut leaves nothing), and the
                    // clipboard is spent, so a second paste cannot move them twice.
                    let landed = CellRange(start: target.start, end: end)
                    guard enqueue(.copy(source: origin.range, target: landed)) else { return }
                    clipboard = nil
                    selection.select(landed)
                    for part in origin.range.subtracting(landed) { guard enqueue(.clear(part, what: "all")) else { return } }
                    return
                }
                if enqueue(.copy(source: origin.range, target: target)), !selection.isRange {
                    selection.select(CellRange(start: target.start, end: end))
                }
                return
            }
            let inputs = try Self.pasteInputs(content.text, at: selection.active, limits: limits, grid: grid)
            if enqueue(.cells(inputs, draft: nil)), let last = inputs.last, inputs.count > 1 {
                selection.select(CellRange(start: selection.active, end: last.ref))
            }
        } catch let error as PasteError {
            lastError = EditorError(message: error.description, retryable: false)
        } catch {
            fail(error, doing: "paste")
        }
    }

    /// The inputs a paste of TSV `text` at `origin` writes, refused whole (`PasteError`) when
    /// over a cap or past the grid.
    public static func pasteInputs(_ text: String, at origin: CellReference, limits: EditingLimits, grid: GridSize) throws(PasteError) -> [CellEdit] {
        try blockInputs(TSV.decode(text), at: origin, limits: limits, grid: grid)
    }

    /// The inputs that write `rows` as a block with its top-left cell at `origin` (a short row's
    /// missing fields clear their cells, as a paste does), refused whole (`PasteError`) when over
    /// a cap or past the grid: a paste, or `sheetport cells set --from FILE.csv`.
    public static func blockInputs(_ rows: [[String]], at origin: CellReference, limits: EditingLimits, grid: GridSize) throws(PasteError) -> [CellEdit] {
        let width = rows.map(\.count).max() ?? 0
        guard !rows.isEmpty, width > 0 else { throw .empty }
        // Counted before the inputs are made, so a huge block costs nothing to refuse.
        let count = rows.count * width
        guard count <= limits.maxBatchCells else { throw .tooManyCells(cells: count, cap: limits.maxBatchCells) }
        let end = CellReference(row: origin.row + rows.count - 1, column: origin.column + width - 1)
        guard end.row <= grid.rows, end.column <= grid.columns else {
            throw .offGrid(range: "\(origin):\(CellReference.columnName(end.column))\(end.row)")
        }
        var inputs: [CellEdit] = []
        inputs.reserveCapacity(count)
        for (rowOffset, row) in rows.enumerated() {
            for columnOffset in 0..<width {
                inputs.append(CellEdit(ref: CellReference(row: origin.row + rowOffset, column: origin.column + columnOffset),
                                       input: columnOffset < row.count ? row[columnOffset] : ""))
            }
        }
        try checkBatch(inputs, limits: limits)
        return inputs
    }

    /// Refuses `inputs` whole (`PasteError`) when one write of them would be over the server's
    /// `maxBatchCells` or `maxBatchBytes`: the server would refuse them with 413, never truncate.
    public static func checkBatch(_ inputs: [CellEdit], limits: EditingLimits) throws(PasteError) {
        guard inputs.count <= limits.maxBatchCells else { throw .tooManyCells(cells: inputs.count, cap: limits.maxBatchCells) }
        // `{"cells":[` and `]}` around the inputs.
        let bytes = inputs.reduce(12) { $0 + $1.encodedSize }
        guard bytes <= limits.maxBatchBytes else { throw .tooManyBytes(bytes: bytes, cap: limits.maxBatchBytes) }
    }

    private func currentLimits() throws -> EditingLimits {
        if let limitsCache { return limitsCache }
        let limits = try transport.limits()
        limitsCache = limits
        return limits
    }

    // MARK: Fill

    /// Ctrl-D, Ctrl-R: one server copy from the selection's first row (column), or from the row
    /// above (column left) of a one-row (one-column) selection.
    private func fill(_ direction: Direction) {
        guard commitDraft() else { return }
        guard let (source, target) = selection.range.fill(direction) else {
            lastError = EditorError(message: "fill \(direction == .down ? "down" : "right"): nothing \(direction == .down ? "above" : "to the left of") \(selection.range) to fill from", retryable: false)
            return
        }
        guard target.cellCount <= Self.maxCopyCells else {
            lastError = EditorError(message: "fill refused: \(target) has more than \(Self.maxCopyCells) cells", retryable: false)
            return
        }
        _ = enqueue(.copy(source: source, target: target))
    }

    // MARK: Insert function

    /// Rows fetched at a time when an argument's run goes past the window shown.
    static let insertFetchRows = 500

    private func insert(_ function: InsertableFunction) {
        // A run of numbers may go on above (or left of) what is on screen: the rows outside the
        // window are fetched as the run reaches them, so the argument is the sheet's run, not
        // the screen's.
        var outside: [CellReference: CellSnapshot] = [:]
        var fetched: Set<Int> = []
        var failure: (any Error)?
        let loaded = window.start..<(window.start + window.count)
        let plan = InsertFunctionPlan.make(function, selection: selection) { ref in
            if loaded.contains(ref.row) { return self.cells[ref] }
            guard failure == nil else { return nil }
            let block = (ref.row - 1) / Self.insertFetchRows
            if fetched.insert(block).inserted {
                do {
                    let rows = try self.transport.rows(sheet: self.sheet, start: block * Self.insertFetchRows + 1, count: Self.insertFetchRows)
                    for row in rows.rows { for (column, cell) in row.cells { outside[CellReference(row: row.row, column: column)] = cell } }
                } catch {
                    failure = error
                    return nil
                }
            }
            return outside[ref]
        }
        if let failure {
            fail(failure, doing: "read the cells for \(function.rawValue)")
            return
        }
        switch plan {
        case .write(let inputs): _ = enqueue(.cells(inputs, draft: nil))
        case .draft(let text): draft = Draft(ref: selection.active, text: text)
        case .offGrid: lastError = EditorError(message: "\(function.rawValue): no room for the result past the sheet's edge", retryable: false)
        }
    }

    // MARK: Errors

    func fail(_ error: any Error, doing what: String) {
        if let error = error as? TransportError {
            lastError = EditorError(message: "cannot \(what): \(error)" + (error.retryable ? " (will retry)" : ""), retryable: error.retryable)
        } else {
            lastError = EditorError(message: "cannot \(what): \(error)", retryable: true)
        }
    }

    private func lastErrorAsTransport() -> TransportError {
        TransportError(status: 0, code: nil, message: lastError?.message ?? "a write failed", retryable: lastError?.retryable ?? true)
    }
}
