import SheetPortCore
import SheetPortCalc
import Foundation
import SheetPortConvert

/// Undo and restore from the cell history (Docs/Reference/HTTP.md, "History, restore and undo"), inside a write's `body`.
///
/// An undo puts back what the caller's last write replaced: each cell's input and style as
/// they were, each row height and column width. What another subject has written since to the
/// same cell's input, the same cell's style or the same size is theirs and stays (as co-authoring
/// in Google Sheets and Excel leaves another person's later edit alone); the undo still takes
/// the write off the caller's list and answers those refs as `skipped`.
enum SheetUndo {
    /// What an undo put back and what it left to others.
    struct Outcome {
        /// The version of the write taken back.
        var version: Int
        /// Cells (`B2`), rows (`3`) and columns (`C`) another subject has written since, left as they are.
        var skipped: [String]
    }

    /// Sets `edit`'s updates to take back `subject`'s last write not yet undone and marks it
    /// undone; `SheetEditError.nothingToUndo` when there is none.
    static func takeBack(_ edit: SheetEdit, subject: String) throws -> Outcome {
        let sheet = edit.sheet, database = edit.database, context = edit.context
        guard let entries = try CellHistory.lastWrite(of: subject, sheet: sheet, database, context), let version = entries.first?.version else {
            throw SheetEditError.nothingToUndo
        }
        let mine = entries.filter { !$0.isMarker }
        var taken: Set<String> = []
        for later in try CellHistory.laterWrites(to: Set(mine.map(\.cell)), after: version, notBy: subject, sheet: sheet, database, context) {
            for aspect in later.changed { taken.insert(key(later.cell, aspect)) }
        }
        var skipped: [String] = []
        var heights: [Int: Double?] = [:], widths: [Int: Double?] = [:]
        edit.reserveUpdates(mine.count)
        for entry in mine {
            // No key made per cell when no one else wrote since (the usual case).
            let open = taken.isEmpty ? entry.changed : entry.changed.filter { !taken.contains(key(entry.cell, $0)) }
            if open.count < entry.changed.count { skipped.append(name(of: entry.cell)) }
            if entry.isSize {
                guard !open.isEmpty else { continue }
                if entry.cell.column == 0 { heights[entry.cell.row] = entry.sizeBefore } else { widths[entry.cell.column] = entry.sizeBefore }
                continue
            }
            var update = CellUpdate()
            if open.contains("input") { update.content = try content(entry, before: true) }
            if open.contains("style"), entry.hasCells { update.style = .replace(entry.before?.style ?? [:]) }
            if case .keep = update.content, case .keep = update.style { continue }
            edit.set(entry.cell, update)
        }
        SheetSizes.setHeights(heights, edit)
        SheetSizes.setWidths(widths, edit)
        edit.storing { try CellHistory.markUndone(sheet: sheet, version: version, edit.database) }
        return Outcome(version: version, skipped: skipped)
    }

    /// Sets `edit`'s update of `cell` to its input and style at `version`: for each, the one the
    /// newest entry at or before `version` wrote, else the one the first later entry replaced
    /// (what the import stored), else the cell's own (nothing changed it since).
    static func restore(_ cell: CellReference, to version: Int, _ edit: SheetEdit) throws {
        let entries = try CellHistory.entries(of: cell, sheet: edit.sheet, edit.database, edit.context).filter { !$0.isMarker }
        var update = CellUpdate()
        for aspect in ["input", "style"] {
            let touching = entries.filter { $0.changed.contains(aspect) }
            let atOrBefore = touching.first { $0.version <= version }
            guard let entry = atOrBefore ?? touching.last else { continue }
            let before = atOrBefore == nil
            if aspect == "input" {
                update.content = try content(entry, before: before)
            } else if entry.hasCells {
                update.style = .replace((before ? entry.before : entry.after)?.style ?? [:])
            }
        }
        edit.set(cell, update)
    }

    /// The content of an entry's cell before or after its write: the stored cell as it was
    /// (its formula, or its value with the input that showed it), or, for entries that hold
    /// only inputs, that input typed again.
    private static func content(_ entry: CellHistory.Entry, before: Bool) throws -> CellUpdate.Content {
        guard entry.hasCells else {
            let input = (before ? entry.previous : entry.input) ?? ""
            return .typed(text: input, try CellInputCheck.typed(input, at: entry.cell))
        }
        guard let stored = before ? entry.before : entry.after else { return .clear }
        if let formula = stored.formula { return .formula(formula) }
        // A spilled value was typed by no one: the cell is cleared and its spill fills it again.
        if stored.input.isEmpty && (stored.value == .empty || stored.isSpilled) { return .clear }
        return .value(stored.value, input: stored.input)
    }

    private static func key(_ cell: CellReference, _ aspect: String) -> String { "\(cell.row):\(cell.column):\(aspect)" }

    /// `B2` for a cell, `3` for a row's height, `C` for a column's width.
    private static func name(of cell: CellReference) -> String {
        if cell.column == 0 { return String(cell.row) }
        if cell.row == 0 { return CellReference.columnName(cell.column) }
        return cell.description
    }
}
