import Foundation
import SheetPortCore
import SheetPortCalc

/// The editing routes of Docs/Reference/HTTP.md ("Writing") that write cells: `POST /api/sheets` (create),
/// `cells`, `clear`, `copy`, and a cell's `history`, `restore` and `undo`. Writes need the
/// editor role and go through `SheetWrite`; a refused write stores nothing.
enum EditRoutes {
    // MARK: create

    static func create(_ request: Request, _ context: ServerContext) throws -> Reply {
        guard let name = try body(request)["name"] as? String, !name.isEmpty else {
            return .error(400, .badRequest, "send {\"name\": \"...\"}")
        }
        try BoundaryText.check(name, "name", log: context.log)
        if let violation = SheetName.violation(of: name) { return .error(400, .invalidSheetName, violation.description) }
        let id = Sodium.identifier()
        let subject = request.subject!
        try context.database { database in
            try database.transaction {
                try database.insertEmptySheet(id: id, owner: subject, name: name, created: Int64(Date().timeIntervalSince1970))
                try database.record(SheetEvent(version: 1, change: .create, refs: []), of: id)
                try context.sheetChanges.publish(sheet: id, version: 1, database)
            }
        }
        context.changes.signal(SheetChange(sheet: id, version: 1))
        let sheet = SheetRecord(id: id, owner: subject, name: name, version: 1, rows: 0, columns: 0, role: .owner)
        return .json(SheetsRoute.json(sheet), status: 201)
    }

    // MARK: cells

    static func cells(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        try Router.sheet(id, request, context, needs: .editor)
        guard let items = try body(request)["cells"] as? [Any] else {
            return .error(400, .badRequest, "send {\"cells\": [{\"ref\": \"B2\", \"input\": \"=SUM(A1:A3)\"}]}")
        }
        try checkBatch(items.count, context)
        var inputs: [(CellReference, String, TypedInput)] = []
        inputs.reserveCapacity(items.count)
        for item in items {
            guard let object = item as? [String: Any], let ref = object["ref"] as? String, let text = object["input"] as? String else {
                return .error(400, .badRequest, "each cell is {\"ref\": \"B2\", \"input\": \"...\"} with text for both")
            }
            let cell = try self.cell(ref)
            inputs.append((cell, text, try CellInputCheck.typed(text, at: cell)))
        }
        let outcome = try SheetWrite.run(id, subject: request.subject!, change: .cells, context) { edit in
            edit.reserveUpdates(inputs.count)
            for (cell, text, typed) in inputs {
                // The format typing derives is stored only if valid, as every stored format is.
                let format = typed.numberFormat.flatMap { NumberFormat.isValid($0) ? CellUpdate.Style.numberFormatIfGeneral($0) : nil }
                edit.set(cell, CellUpdate(content: .typed(text: text, typed), style: format ?? .keep))
            }
            try SheetTables.extend(edit, writing: inputs.filter { !$0.1.isEmpty }.map(\.0))
        }
        return reply(outcome)
    }

    // MARK: clear

    static func clear(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        try Router.sheet(id, request, context, needs: .editor)
        let object = try body(request)
        let what = object["what"] as? String ?? "contents"
        guard let text = object["range"] as? String, ["contents", "formats", "all"].contains(what) else {
            return .error(400, .badRequest, "send {\"range\": \"A1:C9\", \"what\": \"contents|formats|all\"}")
        }
        let range = try self.range(text)
        let outcome = try SheetWrite.run(id, subject: request.subject!, change: .clear, context) { edit in
            let cells = try storedCells(edit, range, context)
            edit.reserveUpdates(cells.count)
            for stored in cells {
                edit.set(CellReference(row: stored.row, column: stored.column),
                         CellUpdate(content: what == "formats" ? .keep : .clear, style: what == "contents" ? .keep : .clear))
            }
        }
        return reply(outcome)
    }

    // MARK: copy

    static func copy(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        try Router.sheet(id, request, context, needs: .editor)
        let object = try body(request)
        guard let sourceText = object["source"] as? String, let targetText = object["target"] as? String else {
            return .error(400, .badRequest, "send {\"source\": \"A1:B2\", \"target\": \"D4\"}")
        }
        let source = try range(sourceText)
        var target = try range(targetText)
        let height = source.rows.count, width = source.columns.count
        try checkBatch(source.cellCount, context)
        // A target that is a whole multiple of the source is filled with it; otherwise the source
        // is pasted once at the target's top-left cell.
        if target.rows.count % height != 0 || target.columns.count % width != 0 {
            let top = target.rows.lowerBound, left = target.columns.lowerBound
            guard top + height - 1 <= CellReference.maxRow, left + width - 1 <= CellReference.maxColumn else {
                throw RequestRefusal(status: 400, code: .badRef, message: "pasting \(sourceText) at \(target.start) reaches past the grid")
            }
            target = CellRange(start: target.start, end: CellReference(row: top + height - 1, column: left + width - 1))
        }
        try checkBatch(target.cellCount, context)
        let outcome = try SheetWrite.run(id, subject: request.subject!, change: .copy, context) { edit in
            var cells: [CellReference: StoredCell] = [:]
            for stored in try storedCells(edit, source, context) { cells[CellReference(row: stored.row, column: stored.column)] = stored }
            edit.reserveUpdates(target.cellCount)
            for row in target.rows {
                for column in target.columns {
                    let from = CellReference(row: source.rows.lowerBound + (row - target.rows.lowerBound) % height,
                                        column: source.columns.lowerBound + (column - target.columns.lowerBound) % width)
                    let to = CellReference(row: row, column: column)
                    guard let stored = cells[from] else {
                        edit.set(to, CellUpdate(content: .clear, style: .clear)) // an empty source cell empties its target
                        continue
                    }
                    var update = CellUpdate(style: .replace(stored.style))
                    if let formula = stored.formula {
                        update.content = .formula(try translate(formula, from: from, to: to))
                    } else {
                        // A spilled value pastes as the value (its anchor's formula stays with the anchor).
                        update.content = .value(stored.value, input: stored.isSpilled ? stored.retypeableInput : stored.input)
                    }
                    edit.set(to, update)
                }
            }
        }
        return reply(outcome)
    }

    /// A copied formula as Excel writes it at `to`: relative parts moved, `$` parts kept, a
    /// reference moved off the grid `#REF!`.
    static func translate(_ formula: String, from: CellReference, to: CellReference) throws -> String {
        do {
            return try CalcEngine.translateFormula(formula, from: from, to: to)
        } catch {
            // A stored formula the engine cannot read (kept from a file) is copied as it is.
            return formula
        }
    }

    // MARK: history, restore, undo

    static func history(_ id: String, _ ref: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        try Router.sheet(id, request, context, needs: .viewer)
        let cell = try self.cell(ref)
        let (entries, current) = try context.database { database in
            try database.transaction {
                (try CellHistory.entries(of: cell, sheet: id, database, context), try currentInput(cell, sheet: id, database, context))
            }
        }
        // The inputs: a write that changed only the cell's style is not one.
        let edits = entries.filter { $0.change != "imported" && $0.changed.contains("input") }
        let formatter = ISO8601DateFormatter()
        var items: [JSON] = edits.map { entry in
            var members: [(String, JSON)] = [("version", .int(entry.version)), ("subject", .string(entry.subject)), ("input", .string(entry.input ?? "")),
                                             ("at", .string(formatter.string(from: Date(timeIntervalSince1970: Double(entry.at))))), ("change", .string(entry.change))]
            // A write that gave the cell back to a spill: the anchor whose value it shows since.
            if let after = entry.after, after.isSpilled, let anchor = after.spill { members.append(("spill", .string(anchor))) }
            return .object(members)
        }
        if let imported = entries.first(where: { $0.change == "imported" }) {
            // What the import stored: the input the first later write replaced, else the cell's input now.
            let input = edits.last?.previous ?? current
            items.append(.object([("version", .int(imported.version)), ("subject", .string(imported.subject)), ("input", .string(input)),
                                  ("at", .string(formatter.string(from: Date(timeIntervalSince1970: Double(imported.at))))),
                                  ("change", .string("imported"))]))
        }
        return .json(.object([("history", .array(items))]))
    }

    static func restore(_ id: String, _ ref: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        let sheet = try Router.sheet(id, request, context, needs: .editor)
        let cell = try self.cell(ref)
        let requested = try body(request)["version"]
        guard let version = requested as? Int, !FormatRoutes.isBoolean(requested!), version >= 1, version <= sheet.version else {
            return .error(400, .badRequest, "send {\"version\": N} with a version of the sheet, 1 to \(sheet.version)")
        }
        let outcome = try SheetWrite.run(id, subject: request.subject!, change: .restore, context) { edit in
            try SheetUndo.restore(cell, to: version, edit)
        }
        return reply(outcome)
    }

    /// Takes back the caller's last write (`SheetUndo`); the answer adds `skipped`: the cells,
    /// rows and columns another subject has written since, left as they are.
    static func undo(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        try Router.sheet(id, request, context, needs: .editor)
        var undone: SheetUndo.Outcome?
        let outcome = try SheetWrite.run(id, subject: request.subject!, change: .undo, context) { edit in
            undone = try SheetUndo.takeBack(edit, subject: request.subject!)
        }
        return reply(outcome, adding: [("undone", .int(undone?.version ?? 0)), ("skipped", .array((undone?.skipped ?? []).map { .string($0) }))])
    }

    /// The input a cell holds now, as text that types back to it ("" for an empty cell).
    static func currentInput(_ cell: CellReference, sheet: String, _ database: Database, _ context: ServerContext) throws -> String {
        let block = RowBlock.block(of: cell.row)
        guard let sealed = try database.rowBlock(of: sheet, block: block) else { return "" }
        let entries = try RowBlock.entries(stored: context.sealer.open(sealed, context: RowBlock.context(sheet: sheet, block: block), what: "row block"))
        guard let entry = entries.first(where: { $0.row == cell.row }) else { return "" }
        for line in entry.cells {
            guard let stored = StoredCell(line: line, row: cell.row), stored.column == cell.column else { continue }
            return stored.retypeableInput
        }
        return ""
    }

    // MARK: requests and answers

    /// The answer of a write: `{"version":N,"changed":[...],"more":false}`, then the members `adding` (an undo's).
    static func reply(_ outcome: SheetWrite.Outcome, adding: [(String, JSON)] = []) -> Reply {
        let listed = outcome.changed.prefix(SheetWrite.maxChanged)
        return .json(.object([("version", .int(outcome.version)), ("changed", .array(listed.map(\.apiJSON))),
                              ("more", .bool(outcome.changedCount > SheetWrite.maxChanged))] + adding))
    }

    /// The request's JSON object; 400 when the body is not one.
    static func body(_ request: Request) throws -> [String: Any] {
        guard let object = JSON.parseObject(request.body) else {
            throw RequestRefusal(status: 400, code: .badRequest, message: "the body is not a JSON object")
        }
        return object
    }

    /// A cell reference of the grid; 400 `bad-ref` otherwise.
    static func cell(_ ref: String) throws -> CellReference {
        guard ref.utf8.count <= 10, !ref.contains("$"), let reference = CellReference(ref) else {
            throw RequestRefusal(status: 400, code: .badRef,
                                 message: "\"\(ref.prefix(40).visibleControlCharacters)\" is not a cell of the grid (A1 to XFD1048576)")
        }
        return reference
    }

    /// A range of the grid; 400 `bad-ref` otherwise.
    static func range(_ text: String) throws -> CellRange {
        guard text.utf8.count <= 24, !text.contains("$"), let range = CellRange(text, in: .excel) else {
            throw RequestRefusal(status: 400, code: .badRef,
                                 message: "\"\(text.prefix(40).visibleControlCharacters)\" is not a range of the grid (A1 to XFD1048576)")
        }
        return range
    }

    /// 413 `batch-too-large` when a write would change more than `maxBatchCells` cells.
    static func checkBatch(_ cells: Int, _ context: ServerContext) throws {
        let cap = context.configuration.maxBatchCells
        guard cells <= cap else {
            throw RequestRefusal(status: 413, code: .batchTooLarge,
                                 message: "a write changes at most \(cap) cells (maxBatchCells); this one would change \(cells)")
        }
    }

    /// The stored cells of `range`; `SheetEditError.tooMany` (413) past `maxBatchCells`.
    static func storedCells(_ edit: SheetEdit, _ range: CellRange, _ context: ServerContext) throws -> [StoredCell] {
        try edit.storedCells(rows: range.rows, columns: range.columns, limit: context.configuration.maxBatchCells)
    }
}

extension SheetEditError {
    /// The router's answer: 404 for a sheet gone, 409 `nothing-to-undo`, 400 `bad-request` or
    /// `bad-formula` for an input, 413 `batch-too-large`, 422 `calc-timeout`.
    var refusal: RequestRefusal {
        switch self {
        case .noSuchSheet: return .notFound
        case .nothingToUndo: return RequestRefusal(status: 409, code: .nothingToUndo, message: "you have no write on this sheet left to undo")
        case .badInput(let message): return RequestRefusal(status: 400, code: .badRequest, message: message)
        case .badFormula(let message): return RequestRefusal(status: 400, code: .badFormula, message: message)
        case .calcTimeout(let seconds):
            return RequestRefusal(status: 422, code: .calcTimeout,
                                  message: "this write calculates for longer than the server allows (\(seconds.formatted()) s, serve --calc-timeout); nothing of it was stored")
        case .tooMany(let cap):
            return RequestRefusal(status: 413, code: .batchTooLarge, message: "a write changes at most \(cap) cells (maxBatchCells); this range holds more")
        }
    }
}
