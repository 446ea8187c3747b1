import SheetPortCore
@testable import SheetPortEditing

/// A real in-memory sheet behind the transport protocol: versions advance per write, writes are
/// atomic, copies translate formulas with Core's translator, events are queued; `failNext` makes
/// the next write fail as a dropped connection would (retryable) or as a refusal.
final class MemorySheetTransport: EditingTransport {
    var inputs: [CellReference: String] = [:]
    var fills: [CellReference: String] = [:]
    /// Formats set through `format`, as the rows window shows them (input and value ignored).
    var formats: [CellReference: CellSnapshot] = [:]
    /// Column widths and row heights set through `setSizes`.
    var columnWidths: [Int: Double] = [:], rowHeights: [Int: Double] = [:]

    func sizes(sheet: String) throws -> CellSizes {
        CellSizes(columnRuns: columnWidths.keys.sorted().map { CellSizes.ColumnRun(first: $0, last: $0, width: columnWidths[$0]!) })
    }

    func setSizes(sheet: String, rows: [Int: Double?], columns: [Int: Double?]) throws -> WriteResult {
        if let failure = failNext { failNext = nil; throw failure }
        for (row, height) in rows { rowHeights[row] = height }
        for (column, width) in columns { columnWidths[column] = width }
        version += 1
        writeLog.append(version)
        events.append(SheetEvent(version: version, change: .sizes, refs: nil))
        return WriteResult(version: version, changed: [:])
    }

    /// Every format request, in order.
    var formatLog: [(range: CellRange, change: FormatChange)] = []
    var version = 0
    var limitsValue = EditingLimits(maxBatchCells: 10_000, maxBatchBytes: 1 << 20)
    var failNext: TransportError?
    /// Rows windows asked for, to see virtualization and refetches.
    var windowRequests: [(start: Int, count: Int)] = []
    var exportedAt: [Int] = []
    var events: [SheetEvent] = []
    var writeLog: [Int] = []

    func cell(_ input: String) -> CellSnapshot {
        if input.hasPrefix("=") { return CellSnapshot(input: input, display: evaluate(input), type: "number") }
        if let number = Double(input) { return CellSnapshot(input: input, display: input, type: "number", number: number) }
        return CellSnapshot(input: input, display: input, type: input.isEmpty ? "empty" : "string")
    }

    /// SUM over a range, enough for the insert-function answers; other formulas show 0.
    func evaluate(_ formula: String) -> String {
        guard formula.hasPrefix("=SUM("), formula.hasSuffix(")"), let range = CellRange(String(formula.dropFirst(5).dropLast())) else { return "0" }
        var total = 0.0
        for row in range.start.row...range.end.row {
            for column in range.start.column...range.end.column {
                total += Double(inputs[CellReference(row: row, column: column)] ?? "") ?? 0
            }
        }
        return total.rounded() == total ? String(Int(total)) : String(total)
    }

    func limits() throws -> EditingLimits { limitsValue }

    /// The sheet's defined names; `failNames` makes the next look-up fail.
    var definedNames: [String: CellRange] = [:]
    var failNames: TransportError?
    func names(sheet: String) throws -> [String: CellRange] {
        if let failure = failNames { failNames = nil; throw failure }
        return definedNames
    }

    /// Makes the next rows window fail.
    var failRows: TransportError?

    func rows(sheet: String, start: Int, count: Int) throws -> RowsWindow {
        if let failure = failRows { failRows = nil; throw failure }
        windowRequests.append((start, count))
        var rows: [Int: [Int: CellSnapshot]] = [:]
        for ref in Set(inputs.keys).union(fills.keys).union(formats.keys) where ref.row >= start && ref.row < start + count {
            var snapshot = styled(ref)
            snapshot.fill = fills[ref] ?? snapshot.fill
            rows[ref.row, default: [:]][ref.column] = snapshot
        }
        // A row with a height and no cell is in the window too, as the server keeps its header.
        for row in rowHeights.keys where row >= start && row < start + count && rows[row] == nil { rows[row] = [:] }
        return RowsWindow(version: version, start: start, count: count,
                          rows: rows.keys.sorted().map { WindowRow(row: $0, cells: rows[$0]!, height: rowHeights[$0]) })
    }

    /// The cell at `ref` with its format.
    func styled(_ ref: CellReference) -> CellSnapshot {
        var snapshot = cell(inputs[ref] ?? "")
        if let format = formats[ref] {
            snapshot.bold = format.bold
            snapshot.italic = format.italic
            snapshot.alignment = format.alignment
            snapshot.numberFormat = format.numberFormat
            snapshot.fill = format.fill
            snapshot.color = format.color
        }
        return snapshot
    }

    func format(sheet: String, range: CellRange, _ change: FormatChange) throws -> WriteResult {
        if let failure = failNext { failNext = nil; throw failure }
        formatLog.append((range, change))
        var changed: [CellReference: CellSnapshot] = [:]
        for row in range.rows {
            for column in range.columns {
                let ref = CellReference(row: row, column: column)
                switch change {
                case .clear:
                    guard formats[ref] != nil else { continue }
                    formats[ref] = nil
                case .set(let members):
                    var format = formats[ref] ?? CellSnapshot(input: "", display: "", type: "empty")
                    for member in members {
                        switch member {
                        case .bold(let on): format.bold = on
                        case .italic(let on): format.italic = on
                        case .align(let alignment): format.alignment = alignment
                        case .numberFormat(let code): format.numberFormat = code == "General" ? nil : code
                        case .fill(let colour): format.fill = colour
                        case .color(let colour): format.color = colour
                        }
                    }
                    formats[ref] = format
                }
                changed[ref] = styled(ref)
            }
        }
        version += 1
        writeLog.append(version)
        events.append(SheetEvent(version: version, change: .format, refs: Array(changed.keys)))
        return WriteResult(version: version, changed: changed)
    }

    /// The editor's own writes, each with the inputs it replaced, for `undo`.
    private var undoable: [[CellReference: String]] = []

    func undo(sheet: String) throws -> WriteResult {
        guard let last = undoable.popLast() else {
            throw TransportError(status: 409, code: .nothingToUndo, message: "nothing to undo", retryable: false)
        }
        let result = try write(last)
        undoable.removeLast()
        return result
    }

    private func write(_ change: [CellReference: String], kind: String = "cells") throws -> WriteResult {
        if let failure = failNext { failNext = nil; throw failure }
        undoable.append(Dictionary(uniqueKeysWithValues: change.keys.map { ($0, inputs[$0] ?? "") }))
        for (ref, input) in change {
            inputs[ref] = input.isEmpty ? nil : input
            cellHistory[ref, default: []].insert(CellHistoryEntry(version: version + 1, subject: subject, input: input, at: "2026-12-06T21:00:00Z", change: kind), at: 0)
        }
        version += 1
        writeLog.append(version)
        events.append(SheetEvent(version: version, change: .cells, refs: Array(change.keys)))
        var changed: [CellReference: CellSnapshot] = [:]
        for ref in change.keys { changed[ref] = cell(inputs[ref] ?? "") }
        return WriteResult(version: version, changed: changed)
    }

    func writeCells(sheet: String, _ cells: [CellEdit]) throws -> WriteResult {
        try write(Dictionary(cells.map { ($0.ref, $0.input) }, uniquingKeysWith: { $1 }))
    }

    func copy(sheet: String, source: CellRange, target: CellRange) throws -> WriteResult {
        // The source at the target's corner, or repeated over a target range (fill down, right).
        let single = target.start == target.end
        let rows = single ? source.rowCount : target.rowCount, columns = single ? source.columnCount : target.columnCount
        var change: [CellReference: String] = [:]
        for row in 0..<rows {
            for column in 0..<columns {
                let from = CellReference(row: source.start.row + row % source.rowCount, column: source.start.column + column % source.columnCount)
                let to = CellReference(row: target.start.row + row, column: target.start.column + column)
                var input = inputs[from] ?? ""
                if input.hasPrefix("=") {
                    input = "=" + FormulaTranslator.translate(String(input.dropFirst()), rows: to.row - from.row, columns: to.column - from.column)
                }
                change[to] = input
            }
        }
        return try write(change)
    }

    /// Every clear request, in order.
    var clearLog: [(range: CellRange, what: String)] = []

    func clear(sheet: String, range: CellRange, what: String) throws -> WriteResult {
        clearLog.append((range, what))
        if what != "contents" { for ref in formats.keys where range.contains(ref) { formats[ref] = nil } }
        var change: [CellReference: String] = [:]
        for ref in inputs.keys where ref.row >= range.start.row && ref.row <= range.end.row && ref.column >= range.start.column && ref.column <= range.end.column {
            change[ref] = ""
        }
        return try write(change)
    }

    // MARK: Panels

    /// Who this transport writes as, in history entries and comments.
    var subject = "me"
    /// Each cell's history, newest first, as the writes made it.
    var cellHistory: [CellReference: [CellHistoryEntry]] = [:]
    var commentList: [CellComment] = []
    var grantList: [String: SheetRole] = [:]
    var linkList: [ShareLink] = []
    /// The start of the URL a made link answers with (the token follows).
    var linkURLPrefix = "http://127.0.0.1:8080/l/"
    /// Makes the next panel request (history, comments, sharing) fail.
    var failPanel: TransportError?

    private func panelRequest() throws {
        if let failure = failPanel { failPanel = nil; throw failure }
    }

    /// Every view asked for.
    var viewLog: [TableViewQuery] = []

    /// Sorts by `COL:asc|desc` keys (numbers before text, blanks last) and keeps the rows whose
    /// filters `COL:>N`, `COL:<N`, `COL:=X`, `COL:contains:X` hold; another is 400 `bad-view`.
    func view(sheet: String, _ query: TableViewQuery, start: Int, count: Int) throws -> ViewWindow {
        try panelRequest()
        viewLog.append(query)
        let badView = TransportError(status: 400, code: ServerErrorCode(rawValue: "bad-view"), message: "bad view", retryable: false)
        func value(_ row: Int, _ column: String) -> String { inputs[CellReference(column + String(row))!] ?? "" }
        var rows = Set(inputs.keys.map(\.row)).sorted()
        for filter in query.filters {
            let parts = filter.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, CellReference(parts[0] + "1") != nil else { throw badView }
            let (column, test) = (parts[0], parts[1])
            rows = try rows.filter { row in
                let cell = value(row, column)
                if test.hasPrefix("contains:") { return cell.lowercased().contains(test.dropFirst(9).lowercased()) }
                if test.hasPrefix(">"), let bound = Double(test.dropFirst()) { return (Double(cell) ?? -.infinity) > bound }
                if test.hasPrefix("<"), let bound = Double(test.dropFirst()) { return (Double(cell) ?? .infinity) < bound }
                if test.hasPrefix("=") { return cell == test.dropFirst() }
                throw badView
            }
        }
        for key in query.sort.split(separator: ",").reversed() {
            let parts = key.split(separator: ":").map(String.init)
            guard parts.count == 2, CellReference(parts[0] + "1") != nil, ["asc", "desc"].contains(parts[1]) else { throw badView }
            func rank(_ row: Int) -> (Int, Double, String) {
                let cell = value(row, parts[0])
                if cell.isEmpty { return (2, 0, "") }
                return Double(cell).map { (0, $0, "") } ?? (1, 0, cell.lowercased())
            }
            // Stable (ties keep storage order); blanks last in either direction.
            rows = rows.enumerated().sorted { a, b in
                let (x, y) = (rank(a.element), rank(b.element))
                if x.0 != y.0 { return x.0 < y.0 }
                if x == y { return a.offset < b.offset }
                let less = x.0 == 0 ? x.1 < y.1 : x.2 < y.2
                return parts[1] == "asc" ? less : !less && (x.1 != y.1 || x.2 != y.2)
            }.map(\.element)
        }
        let window = rows.dropFirst(start - 1).prefix(count).map { row in
            WindowRow(row: row, cells: Dictionary(uniqueKeysWithValues: inputs.keys.filter { $0.row == row }.map { ($0.column, styled($0)) }))
        }
        return ViewWindow(version: version, total: rows.count, rows: Array(window))
    }

    func history(sheet: String, ref: CellReference) throws -> [CellHistoryEntry] {
        try panelRequest()
        return cellHistory[ref] ?? []
    }

    func restore(sheet: String, ref: CellReference, version: Int) throws -> WriteResult {
        // The input as of `version`: the newest entry not after it.
        let input = cellHistory[ref]?.first { $0.version <= version }?.input ?? ""
        return try write([ref: input], kind: "restore")
    }

    func comments(sheet: String) throws -> [CellComment] {
        try panelRequest()
        return commentList
    }

    func addComment(sheet: String, ref: CellReference, text: String, replyTo: Int?) throws {
        try panelRequest()
        let cell = replyTo.flatMap { thread in commentList.first { $0.id == thread }?.ref } ?? ref
        commentList.append(CellComment(id: commentList.count + 1, ref: cell, author: subject, text: text, replyTo: replyTo))
        version += 1
    }

    func resolveComment(sheet: String, comment: Int, resolved: Bool) throws {
        try panelRequest()
        for index in commentList.indices where commentList[index].id == comment || commentList[index].replyTo == comment {
            commentList[index].resolved = resolved
        }
        version += 1
    }

    func grants(sheet: String) throws -> [SheetGrant] {
        try panelRequest()
        return grantList.map { SheetGrant(subject: $0.key, role: $0.value) }
    }

    func grant(sheet: String, subject: String, role: SheetRole) throws {
        try panelRequest()
        grantList[subject] = role
        version += 1
    }

    func revokeGrant(sheet: String, subject: String) throws {
        try panelRequest()
        guard grantList.removeValue(forKey: subject) != nil else {
            throw TransportError(status: 404, code: .notFound, message: "\(subject) has no grant", retryable: false)
        }
        version += 1
    }

    func links(sheet: String) throws -> [ShareLink] {
        try panelRequest()
        return linkList
    }

    func createLink(sheet: String, role: SheetRole) throws -> ShareLink {
        try panelRequest()
        let id = String((linkList.compactMap { Int($0.id) }.max() ?? 0) + 1)
        linkList.append(ShareLink(id: id, role: role))
        version += 1
        return ShareLink(id: id, role: role, url: linkURLPrefix + "tok\(id)")
    }

    func deleteLink(sheet: String, id: String) throws {
        try panelRequest()
        linkList.removeAll { $0.id == id }
        version += 1
    }

    func export(sheet: String, minVersion: Int) throws -> [UInt8] {
        exportedAt.append(version)
        return Array("version \(version) >= \(minVersion)".utf8)
    }

    func followEvents(sheet: String, after version: Int?, stop: @escaping () -> Bool, event: @escaping (SheetEvent) -> Void) throws {
        for queued in events where queued.version > (version ?? 0) { event(queued) }
    }

    /// Another client's write: the model changes, an event is queued, nothing told to the editor.
    func otherClientWrites(_ ref: String, _ input: String) {
        inputs[CellReference(ref)!] = input
        version += 1
        events.append(SheetEvent(version: version, change: .cells, refs: [CellReference(ref)!]))
    }
}

/// Keys in the terminal's notation for tables: `"12" enter tab stab aenter esc up down left right
/// S-up S-down S-left S-right ^A ^C ^V ^G ^Q F3 A= bs del f2 ans:s ans:d ans:c`.
func keys(_ script: String) -> [EditorKey] {
    script.split(separator: " ").map { word -> EditorKey in
        switch word {
        case "enter": .enter
        case "tab": .tab
        case "stab": .reverseTab
        case "aenter": .reverseEnter
        case "esc": .escape
        case "up": .arrow(.up)
        case "down": .arrow(.down)
        case "left": .arrow(.left)
        case "right": .arrow(.right)
        case "S-up": .extend(.up)
        case "S-down": .extend(.down)
        case "S-left": .extend(.left)
        case "S-right": .extend(.right)
        case "^A": .selectAll
        case "^C": .copy
        case "^V": .paste
        case "^X": .cut
        case "^B": .bold
        case "A-i": .italic
        case "^D": .fillDown
        case "^R": .fillRight
        case "A-f": .formatMenu
        case "^G": .goTo
        case "^Z": .undo
        case "^Q": .quit
        case "F3": .functionMenu
        case "A-h": .panel(.history)
        case "A-m": .panel(.comments)
        case "A-s": .panel(.sharing)
        case "A-t": .panel(.table)
        case "A=": .insertFunction(.sum)
        case "bs": .backspace
        case "del": .delete
        case "f2": .edit
        case "ans:s": .answer(.save)
        case "ans:d": .answer(.discard)
        case "ans:c": .answer(.cancel)
        case "space": .text(" ")
        default: .text(String(word))
        }
    }
}

/// An editor of `model` showing rows 1-20.
func shownEditor(_ model: MemorySheetTransport) -> SheetEditor {
    let editor = SheetEditor(sheet: "s", transport: model)
    editor.show(start: 1, count: 20)
    return editor
}

func run(_ editor: SheetEditor, _ script: String) {
    for key in keys(script) { editor.handle(key) }
}
