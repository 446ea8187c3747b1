import SheetPortCore
import SheetPortReader
import SheetPortCalc
import SheetPortConvert
import Foundation

/// The recalculation of an import (Docs/Reference/HTTP.md, "Imports"): the first worksheet's cells
/// are loaded from the pass that stores them, other worksheets only when a formula of the first
/// refers to them; then every formula is computed. A formula referring to another sheet is
/// stored as its value (the server holds the first worksheet only), named in the
/// `cross-sheet-reference` finding.
final class ImportCalculation {
    let calculation: WorkbookCalculation
    private let sheet: Sheet
    /// Upper-cased names of the other worksheets, to their sheets.
    private let others: [String: Sheet]
    /// The other sheets the first one's formulas refer to, upper-cased, in order of first reference.
    private(set) var referencedSheets: [String] = []
    private var referencedSet: Set<String> = []

    /// Whether the imported sheet's constants are loaded with their rows; otherwise only those a
    /// formula can read are, once every formula is known (`recalculate`), from the rows held and
    /// stored: the engine does not hold a sheet's values that nothing reads. A workbook in another
    /// date system than the store's loads them all, as read (stored dates are the store's serials).
    private let loadsConstants: Bool

    /// An import calculation of `sheet`, the first worksheet of `workbook`.
    init(_ workbook: Workbook, sheet: Sheet, clock: CalcClock, limits: CalcLimits) throws {
        calculation = try WorkbookCalculation(preparing: workbook, clock: clock)
        calculation.engine.limits = limits
        calculation.keepsFormulaCells = false
        // The server computes as Excel for Windows whatever saved the file: an edit later computes
        // CHAR and CODE the same way as the import did.
        calculation.engine.codePage = .windowsANSI
        self.sheet = sheet
        var others: [String: Sheet] = [:]
        for other in calculation.sheets where other.position != sheet.position { others[other.name.uppercased()] = other }
        self.others = others
        loadsConstants = workbook.dateSystem != StoredCell.dateSystem
    }

    /// Loads one row of the imported sheet; whether it holds a formula.
    func load(_ row: Row) -> Bool {
        calculation.load(row, of: sheet, constants: loadsConstants)
        var hasFormula = false
        for cell in row.cells {
            guard let formula = cell.formula else { continue }
            hasFormula = true
            if !others.isEmpty, formula.contains("!") {
                for name in FormulaSheets.referenced(in: formula) {
                    let key = name.uppercased()
                    if others[key] != nil, referencedSet.insert(key).inserted { referencedSheets.append(key) }
                }
            }
        }
        return hasFormula
    }

    /// Loads the other sheets referred to, then the imported sheet's constants that some formula
    /// can read, and computes every formula. `rows` calls its body with each row of the imported
    /// sheet once (the held blocks' and the stored ones', in any order of blocks).
    func recalculate(rows: ((Row) throws -> Void) throws -> Void) throws {
        for key in referencedSheets { try calculation.load(others[key]!) }
        if !loadsConstants { try loadReadConstants(rows) }
        calculation.recalculate()
    }

    /// Loads the constants of the imported sheet that a formula can read, column by column, and
    /// keeps the used range of all its cells (whole-column references are cut to it).
    private func loadReadConstants(_ rows: ((Row) throws -> Void) throws -> Void) throws {
        guard let s = calculation.sheetIndex[sheet.position] else { return }
        let engine = calculation.engine
        let read = engine.readCells(sheet: s)
        guard !read.isEmpty else { return }
        var columns: [Int: (rows: [Int], values: [CalcValue])] = [:]
        var lastRow = 0, lastColumn = 0
        try rows { row in
            for cell in row.cells where cell.formula == nil && cell.value != .empty {
                lastRow = max(lastRow, row.index)
                lastColumn = max(lastColumn, cell.column)
                guard read.contains(row: row.index, column: cell.column) else { continue }
                let value = WorkbookCalculation.calcValue(cell.value, dateSystem: StoredCell.dateSystem)
                // Below every cell of its column the value goes in at once (an append); above one
                // (a formula further down, a block read earlier) it waits for its column's merge.
                if (engine.lastRow(ofColumn: cell.column, sheet: s) ?? 0) < row.index {
                    engine.setValue(value, at: CellReference(row: row.index, column: cell.column), sheet: s)
                    continue
                }
                columns[cell.column, default: ([], [])].rows.append(row.index)
                columns[cell.column]!.values.append(value)
            }
        }
        for (column, loaded) in columns {
            // Held and stored blocks come in two runs: a column is sorted once when they interleave.
            if zip(loaded.rows, loaded.rows.dropFirst()).allSatisfy({ $0 < $1 }) {
                engine.loadValues(loaded.values, rows: loaded.rows, column: column, sheet: s)
            } else {
                let order = loaded.rows.indices.sorted { loaded.rows[$0] < loaded.rows[$1] }
                engine.loadValues(order.map { loaded.values[$0] }, rows: order.map { loaded.rows[$0] }, column: column, sheet: s)
            }
        }
        engine.extendUsedRange(toRow: lastRow, column: lastColumn, sheet: s)
    }

    /// `row` with its formula cells' computed values; a formula that refers to another sheet
    /// becomes its value.
    func computed(_ row: Row) -> Row {
        var row = row
        calculation.substitute(&row, of: sheet)
        guard !referencedSheets.isEmpty else { return row }
        for index in row.cells.indices {
            guard let formula = row.cells[index].formula, !keeps(formula) else { continue }
            row.cells[index].formula = nil
            row.cells[index].formulaKind = .normal
        }
        return row
    }

    /// Whether a formula of the imported sheet is stored as a formula: it refers to no other sheet
    /// (one that does is stored as its value).
    func keeps(_ formula: String) -> Bool {
        referencedSheets.isEmpty || !formula.contains("!")
            || !FormulaSheets.referenced(in: formula).contains(where: { referencedSet.contains($0.uppercased()) })
    }

    /// Marks the imported sheet's dynamic arrays as spilled in its stored row blocks
    /// (`SheetEdit.markSpills(ofImported:)`), after they are all stored; the last row and column marked.
    func markSpills(ofImported id: String, _ database: Database, _ context: ServerContext) throws -> (lastRow: Int, lastColumn: Int) {
        guard let index = calculation.sheetIndex[sheet.position] else { return (0, 0) }
        let engine = calculation.engine
        return try SheetEdit.markSpills(ofImported: id, engine, sheet: index, where: { anchor in
            engine.formula(at: anchor, sheet: index).map(keeps) ?? false
        }, database, context)
    }

    /// The `cross-sheet-reference` finding (info), when formulas referred to other sheets.
    var crossSheetFinding: Finding? {
        guard !referencedSheets.isEmpty else { return nil }
        let names = referencedSheets.map { "\"\(others[$0]!.name)\"" }.joined(separator: ", ")
        return Finding(.crossSheetReference, .info,
                       "formulas refer to the sheet\(referencedSheets.count == 1 ? "" : "s") \(names): evaluated at import and kept as values (the server holds the first worksheet only)",
                       part: sheet.part, count: referencedSheets.count)
    }
}

/// The sheet names a formula's references name (`Sheet2!A1`, `'My Sheet'!A1:B2`,
/// `Jan:Mar!B1`), read from its text outside string literals.
enum FormulaSheets {
    static func referenced(in formula: String) -> [String] {
        var names: [String] = []
        let characters = Array(formula)
        var index = 0
        var pending: [String] = [] // names seen since the last operator, before a possible `!`
        var word = ""
        func endWord() {
            if !word.isEmpty { pending.append(word) }
            word = ""
        }
        while index < characters.count {
            let c = characters[index]
            switch c {
            case "\"":
                endWord(); pending = []
                index += 1
                while index < characters.count {
                    if characters[index] == "\"" {
                        if index + 1 < characters.count, characters[index + 1] == "\"" { index += 2; continue }
                        break
                    }
                    index += 1
                }
            case "'":
                endWord()
                var name = ""
                index += 1
                while index < characters.count {
                    if characters[index] == "'" {
                        if index + 1 < characters.count, characters[index + 1] == "'" { name.append("'"); index += 2; continue }
                        break
                    }
                    name.append(characters[index])
                    index += 1
                }
                pending.append(name)
            case "!":
                endWord()
                for name in pending {
                    // A 3-D range names its first and last sheet; an external workbook's `[1]` goes.
                    for part in name.split(separator: ":") {
                        var part = String(part)
                        if let close = part.lastIndex(of: "]") { part = String(part[part.index(after: close)...]) }
                        if !part.isEmpty { names.append(part) }
                    }
                }
                pending = []
            case ":":
                endWord()
                if let last = pending.popLast() { word = last + ":" } // Jan:Mar! keeps both
            default:
                if c.isLetter || c.isNumber || c == "_" || c == "." || c == "[" || c == "]" || c == "\\" {
                    word.append(c)
                } else {
                    endWord(); pending = []
                }
            }
            index += 1
        }
        return names
    }
}
