#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SheetPortCore
import SheetPortReader
import SheetPortCalc

/// A workbook's worksheets loaded into one `CalcEngine` and recalculated: `convert --recalc`
/// writes the recomputed values, `check --recalc` compares them with the cached ones, and the
/// corpus oracle test recomputes with the cached values withheld.
///
/// Every worksheet is loaded (so references across sheets resolve), with the workbook's defined
/// names and tables. Memory: the engine holds every cell of every worksheet (a streaming conversion without
/// `--recalc` holds one row); fine for the workbooks `convert` sees today.
package final class WorkbookCalculation {
    /// One formula cell as read: where, its text, its cached value.
    package struct FormulaCell {
        package var location: CellLocation
        package var formula: String
        package var cached: CellValue
    }

    /// The engine, recalculated.
    package let engine: CalcEngine
    /// What the recalculation could not do as Excel would.
    package private(set) var report: CalcReport
    private let workbook: Workbook
    private let withholdCachedValues: Bool
    /// The engine's sheet index of each loaded worksheet, by the sheet's 1-based workbook position.
    package private(set) var sheetIndex: [Int: Int] = [:]
    /// The loaded worksheets in engine order.
    package private(set) var sheets: [Sheet] = []
    /// Every formula cell read that has a cached value, in sheet and row order (what `check
    /// --recalc` and the oracle compare; cells without one are not kept: 200,000 rows of formulas
    /// would hold every formula's text twice).
    package private(set) var formulaCells: [FormulaCell] = []
    /// Whether `formulaCells` is kept (the server's import compares nothing: a million formulas
    /// would hold their texts and cached values for nothing).
    package var keepsFormulaCells = true
    /// The data ranges of tables whose filter is on, per engine sheet: a hidden row there is
    /// filtered out (SUBTOTAL 1-11 skip it too).
    private var filteredRanges: [Int: [CellRange]] = [:]
    /// Array formulas' ranges per engine sheet: their other cells carry computed values too.
    private var arrayRanges: [Int: [CellRange]] = [:]
    /// The used range of each worksheet loaded whole by `load(_:)`, by its workbook position, as
    /// read from the file: a conversion takes it from here instead of reading the sheet again.
    private var usedRanges: [Int: UsedRange] = [:]
    /// Whether a selected sheet's active cell was given to the engine (the first one counts).
    var hasSelectedCell = false
    /// The number formats, to type a computed number as a date where the cell's format is one.
    private let styles: Styles?

    /// The local time zone's offset from UTC now, for NOW and TODAY in `convert`.
    package static var localUTCOffset: Int {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return Int(parts.tm_gmtoff)
    }

    /// Loads every worksheet of `workbook` and recalculates.
    /// - Parameters:
    ///   - withholdCachedValues: load formula cells without their cached values (the oracle test:
    ///     nothing the file computed can leak into the result).
    ///   - clock: NOW and TODAY's clock (the system clock in the local time zone by default).
    ///   - randomSeed: RAND's seed, for a repeatable run (a random one by default).
    package convenience init(_ workbook: Workbook, withholdCachedValues: Bool = false, clock: CalcClock? = nil,
                             randomSeed: UInt64? = nil) throws {
        try self.init(preparing: workbook, withholdCachedValues: withholdCachedValues, clock: clock, randomSeed: randomSeed)
        for sheet in sheets { try load(sheet) }
        recalculate()
    }

    /// Every worksheet of `workbook` added to a new engine with the defined names and tables, no
    /// cell loaded yet: the caller loads what it needs (`load(_:)`, `load(_:of:)`) and then
    /// calls `recalculate()` (the server's import feeds the first worksheet from the pass that
    /// stores it, and reads other sheets only when a formula refers to them).
    package init(preparing workbook: Workbook, withholdCachedValues: Bool = false, clock: CalcClock? = nil,
                 randomSeed: UInt64? = nil) throws {
        let offset = Self.localUTCOffset
        engine = CalcEngine(dateSystem: workbook.dateSystem,
                            clock: clock ?? CalcClock(utcOffsetSeconds: offset) { CalcClock.system.unixTime() },
                            randomSeed: randomSeed)
        report = engine.report
        // CHAR and CODE as the application that saved the file computes them (Excel for Mac's own).
        engine.codePage = CodePage(application: workbook.application())
        engine.iterativeCalculation = workbook.iterativeCalculation
        self.workbook = workbook
        self.withholdCachedValues = withholdCachedValues
        styles = try? workbook.styles()
        let worksheets = workbook.sheets.filter { $0.kind == .worksheet && $0.part != nil }
        var indexByPosition: [Int: Int] = [:]
        for sheet in worksheets {
            indexByPosition[sheet.position] = engine.addSheet(sheet.name)
        }
        engine.numberSheets(worksheets.map(\.position), count: workbook.sheets.count)
        sheetIndex = indexByPosition
        sheets = worksheets
        // Links before names and formulas: both may read other workbooks' cached values.
        ExternalLinks.load(workbook, into: engine)
        // Names first: formulas are compiled on their own, names resolve at recalculation.
        for name in workbook.definedNames where !name.name.hasPrefix("_xlnm.") {
            let scope = name.localSheet.flatMap { workbook.sheets.indices.contains($0) ? indexByPosition[workbook.sheets[$0].position] : nil }
            if name.localSheet != nil, scope == nil { continue }
            engine.defineName(name.name, formula: name.formula, sheet: scope)
        }
        for sheet in worksheets {
            for (table, isFiltering) in TablePart.filteringTables(of: sheet, index: indexByPosition[sheet.position]!, in: workbook) {
                engine.addTable(table)
                if isFiltering { filteredRanges[table.sheet, default: []].append(table.range) }
            }
            for pivot in PivotTablePart.pivotTables(of: sheet, index: indexByPosition[sheet.position]!, in: workbook) {
                engine.addPivotTable(pivot)
            }
        }
    }

    /// Loads every cell of `sheet` (one pass over the worksheet).
    package func load(_ sheet: Sheet) throws {
        let reader = try workbook.rows(of: sheet)
        var used = UsedRangeAccumulator()
        while let row = try reader.nextRow() {
            used.add(row)
            load(row, of: sheet)
        }
        usedRanges[sheet.position] = used.result
        if let s = sheetIndex[sheet.position] { applyLayout(reader.metadata, sheet: s) }
    }

    /// The used range of `sheet` as the file has it (`Workbook.usedRange(of:)`), found by the
    /// pass that loaded it; nil when it was not loaded whole.
    package func usedRange(of sheet: Sheet) -> UsedRange? {
        usedRanges[sheet.position]
    }

    /// Loads the cells of one row of `sheet`: constants as values (unless `constants` is false:
    /// the caller loads those a formula reads later), formulas with their cached values.
    package func load(_ row: Row, of sheet: Sheet, constants: Bool = true) {
        guard let s = sheetIndex[sheet.position] else { return }
        if row.isHidden {
            // A hidden row in the data of a table whose filter is on is filtered out; elsewhere it
            // was hidden by hand. (The sheet's own autoFilter is not read.)
            let filtered = filteredRanges[s]?.contains { row.index > $0.start.row && row.index <= $0.end.row } ?? false
            engine.setRowHidden(true, row: row.index, sheet: s, filtered: filtered)
        }
        for cell in row.cells {
            let address = CellReference(row: row.index, column: cell.column)
            let value = Self.calcValue(cell.value, dateSystem: workbook.dateSystem)
            guard let formula = cell.formula else {
                // The stored result of an array formula loaded above is its own, not a constant.
                if constants, !engine.isArrayMember(at: address, sheet: s) { engine.setValue(value, at: address, sheet: s) }
                continue
            }
            var range: CellRange?
            if let text = cell.formulaKind.arrayRange {
                range = CellRange(text) ?? CellRange(address, address)
                if let range, range.cellCount > 1 { arrayRanges[s, default: []].append(range) }
            }
            var isDynamic = false
            if case .dynamicArray = cell.formulaKind { isDynamic = true }
            let cached: CalcValue? = withholdCachedValues || cell.value == .empty ? nil : value
            engine.setFormula(formula, at: address, sheet: s, cachedValue: cached, arrayRange: range, isDynamicArray: isDynamic)
            if keepsFormulaCells, cell.value != .empty { formulaCells.append(FormulaCell(location: CellLocation(sheet: s, cell: address), formula: formula, cached: cell.value)) }
        }
    }

    /// Recomputes every formula loaded; the findings are in `report`.
    package func recalculate() {
        report = engine.recalculate()
    }

    /// The engine's value of a formula cell, or of a cell in an array formula's range; nil for
    /// a constant (its value is the file's).
    package func computed(sheet s: Int, row: Int, column: Int) -> CalcValue? {
        let address = CellReference(row: row, column: column)
        if engine.hasFormula(at: address, sheet: s) || arrayRanges[s]?.contains(where: { $0.contains(address) }) == true {
            return engine.value(at: address, sheet: s)
        }
        return nil
    }

    /// Replaces the values of `row`'s formula cells (and array members) of `sheet` by the computed ones.
    package func substitute(_ row: inout Row, of sheet: Sheet) {
        guard let s = sheetIndex[sheet.position] else { return }
        let hasArrays = arrayRanges[s]?.isEmpty == false
        for k in row.cells.indices {
            let cell = row.cells[k]
            guard cell.formula != nil || hasArrays, let value = computed(sheet: s, row: row.index, column: cell.column) else { continue }
            // A computed array element is never empty (Excel shows 0): an empty one is a cell a
            // dynamic array no longer spills into.
            row.cells[k].value = cell.formula == nil && value == .empty ? .empty : cellValue(value, like: cell)
        }
    }

    /// A computed value as the reader's `CellValue` of `cell`: a number in a date format is a date.
    package func cellValue(_ value: CalcValue, like cell: Cell) -> CellValue {
        switch value {
        case .number(let n):
            let format = styles?.format(cell.styleIndex)
            if format?.isDuration == true { return .duration(days: n) }
            if format?.isDate == true { return .date(serial: n) }
            return .number(n)
        case .text(let t): return .string(t)
        case .boolean(let b): return .boolean(b)
        case .error(let e): return .error(e.rawValue)
        case .empty: return .number(0)
        case .array(let a): return cellValue(a.values.first ?? .empty, like: cell)
        }
    }

    /// A reader's value as the engine's: dates are serials of the workbook's date system.
    package static func calcValue(_ value: CellValue, dateSystem: DateSystem) -> CalcValue {
        switch value {
        case .empty: return .empty
        case .number(let n), .date(serial: let n), .duration(days: let n): return .number(n)
        case .string(let s): return .text(s)
        case .boolean(let b): return .boolean(b)
        case .error(let e): return .error(ExcelError(literal: e) ?? .value)
        case .isoDate(let text):
            if let dateTime = ExcelDateTime(iso: text) { return .number(dateTime.serial(in: dateSystem)) }
            return .text(text)
        }
    }

    /// True when a cached value agrees with a computed one: numbers to 15 significant digits,
    /// text exactly, a date cell by its serial.
    package static func agrees(cached: CellValue, computed: CalcValue, dateSystem: DateSystem) -> Bool {
        var computed = computed
        if case .array(let a) = computed { computed = a.values.first ?? .empty }
        let cachedValue = calcValue(cached, dateSystem: dateSystem)
        switch (cachedValue, computed) {
        case (.number(let a), .number(let b)): return sameTo15Digits(a, b)
        case (.number(let a), .empty): return a == 0
        case (.text(let a), .empty): return a.isEmpty
        default: return cachedValue == computed
        }
    }

    /// Equal to 15 significant digits (Excel's precision), one unit of the 15th digit apart at most.
    package static func sameTo15Digits(_ a: Double, _ b: Double) -> Bool {
        if a == b { return true }
        guard a.isFinite, b.isFinite else { return false }
        // Within one unit of the 15th significant digit of the larger.
        let larger = max(abs(a), abs(b))
        return abs(a - b) <= pow(10, (log10(larger)).rounded(.down) - 14)
    }

    /// `A1`, or `'Sheet 2'!A1` when the workbook has more than one worksheet.
    package func reference(_ location: CellLocation) -> String {
        guard sheets.count > 1 else { return location.cell.description }
        let name = sheets[location.sheet].name
        let plain = name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !(name.first?.isNumber ?? true)
        return (plain ? name : "'" + name.replacingOccurrences(of: "'", with: "''") + "'") + "!" + location.cell.description
    }
}
