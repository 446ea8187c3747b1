import SheetPortCore
/// The calculation engine: a workbook's cells, formulas, names and tables, and their recalculation.
///
/// Load cells with `setValue` / `setFormula` (with the file's cached values), names with
/// `defineName`, tables with `addTable`; then `recalculate()` computes every formula. Later edits go
/// through `setInputs`, which re-evaluates only the cells depending on what changed.
/// Not thread-safe: one engine belongs to one task at a time.
public final class CalcEngine {
    /// The workbook's date system.
    public let dateSystem: DateSystem
    /// The clock NOW and TODAY read.
    public var clock: CalcClock
    /// The renderer TEXT, DOLLAR and FIXED use for number formats.
    public var numberFormatting: any NumberFormatting
    /// The bounds each formula's evaluation keeps (arrays, memory, steps); past them Excel's errors.
    public var limits = CalcLimits()
    /// Iterative calculation of circular references (nil: they are 0 and reported, as Excel does
    /// with iteration off). Applies to `recalculate()`.
    public var iterativeCalculation: IterativeCalculation?
    /// The character set of CHAR and CODE (Excel for Windows' by default).
    public var codePage = CodePage.windowsANSI
    /// When set, recalculation gives up once it passes: the cells still to compute, or the
    /// formula running then, are `#NUM!`, so the engine's values are not the sheet's any more
    /// and its owner rebuilds it (a server refusing a write for time does).
    public var deadline: CalcDeadline?
    /// The seedable generator RAND and RANDBETWEEN draw from.
    var random: SplitMix64

    // The tables below are read and written several times for every cell loaded and evaluated,
    // by the one task that owns the engine: dynamic exclusivity checks on them were a fifth of
    // `convert --recalc`'s instructions (swift_beginAccess), so they are exempted.

    @exclusivity(unchecked) var sheets: [SheetStore] = []
    @exclusivity(unchecked) var sheetByName: [String: Int32] = [:]

    // The cell table: one slot per stored cell, addressed by a 32-bit id.
    @exclusivity(unchecked) var cellSheet: [Int32] = []
    @exclusivity(unchecked) var cellRow: [Int32] = []
    @exclusivity(unchecked) var cellColumn: [Int32] = []
    @exclusivity(unchecked) var cellKind: [CellKind] = []
    @exclusivity(unchecked) var cellFormula: [Int32] = []
    @exclusivity(unchecked) var cellValue: [CalcValue] = []
    @exclusivity(unchecked) var cellState: [CellState] = []
    @exclusivity(unchecked) var freeIDs: [Int32] = []
    /// The cells spills took back during the call that answers changes (`setInputs`,
    /// `recalculateChanged`): their ids are freed (and may be reused at once), so the answer
    /// finds them by location.
    var takenBackSpillCells: [CellLocation] = []

    @exclusivity(unchecked) var formulas: [CompiledFormula] = []
    @exclusivity(unchecked) var formulaIDs: [[Instruction]: Int32] = [:]
    /// Per compiled formula: its template (see `FormulaTemplate`), and whether a source text was
    /// seen to match it (only then is it used).
    @exclusivity(unchecked) var formulaTemplates: [FormulaTemplate?] = []
    @exclusivity(unchecked) var formulaTemplateVerified: [Bool] = []
    /// The formula last set in each column (sheet << 32 | column): the candidate for the next cell down.
    @exclusivity(unchecked) var lastFormulaOfColumn: [Int64: Int32] = [:]
    @exclusivity(unchecked) var arrays: [Int32: ArrayFormula] = [:]
    @exclusivity(unchecked) var arrayAnchorOf: [Int32: Int32] = [:]
    @exclusivity(unchecked) var cachedValues: [Int32: CalcValue] = [:]
    @exclusivity(unchecked) var unparsed: [Int32: (text: String, error: FormulaParseError)] = [:]
    /// Dynamic array formulas: evaluated as arrays, their results spill.
    @exclusivity(unchecked) var dynamicFormulas: Set<Int32> = []
    /// One-cell legacy (CSE) array formulas: evaluated as arrays, never spilling.
    @exclusivity(unchecked) var singleCellArrays: Set<Int32> = []

    var names: [NameKey: NameDefinition] = [:]
    /// Hidden rows by sheet: row -> true when hidden by a filter (see `setRowHidden`).
    var hiddenRows: [Int32: [Int32: Bool]] = [:]
    /// Column widths by sheet, as CELL("width") reads them (see `setColumnWidth`).
    var columnLayouts: [Int32: ColumnLayout] = [:]
    /// The cell selected when the workbook was saved, which CELL without a reference answers for.
    var selectedCell: SheetRange?
    /// Each sheet's 1-based number among all the workbook's sheets, and how many it has, as SHEET
    /// and SHEETS count them (see `numberSheets`); nil: the engine's sheets alone.
    var sheetNumbering: (numbers: [Int], count: Int)?
    var tables: [String: CalcTable] = [:]
    /// The pivot tables GETPIVOTDATA reads (`addPivotTable`).
    var pivotTables: [CalcPivotTable] = []
    /// Whether a formula calling SUBTOTAL or AGGREGATE was compiled (`Evaluator+NestedSubtotals.swift`).
    var hasSubtotalFormulas = false
    /// Whether formulas referring to other workbooks compile (`CalcEngine+ExternalBooks.swift`).
    var resolvesExternalReferences = false

    var dependencyIndex: DependencyIndex?
    var changedSinceRecalc: [CellLocation] = []
    var needsFullRecalc = true
    /// A recalculation in dependency order stopped part way (`setInputs(_:stoppingAfter:)`).
    var suspendedPass: OrderedPass?
    /// The cells a suspended pass left when a cell was changed outside `setInputs`: the next
    /// recalculation takes them up.
    var carried: [CellLocation] = []
    @exclusivity(unchecked) var lookupCache = LookupCache()
    @exclusivity(unchecked) var circular: Set<Int32> = []
    /// With iteration off, the cells of an array formula's range a circular reference read, by
    /// anchor: only those are on it, as Excel takes each cell of the range on its own.
    var circularMembers: [Int32: Set<Int32>] = [:]
    /// True while an array formula on a circular reference computes its other cells: the
    /// uncomputed cells it reads count as 0.
    var readsUncomputedAsZero = false
    /// Ranges whose formula cells are all computed in the running pass.
    @exclusivity(unchecked) var doneRanges: Set<SheetRange> = []
    /// True when a dynamic array spilled into new cells during the running pass.
    @exclusivity(unchecked) var spilledInPass = false

    /// How many formula evaluations ran since the engine was made (for tests and statistics).
    @exclusivity(unchecked) public internal(set) var evaluationCount = 0
    /// The findings of the last recalculation.
    public internal(set) var report = CalcReport()

    /// An empty workbook.
    /// - Parameters:
    ///   - dateSystem: the 1900 (default) or 1904 date system.
    ///   - clock: the clock NOW and TODAY read (the system clock, UTC, by default).
    ///   - randomSeed: a seed for RAND and RANDBETWEEN (random when nil).
    ///   - numberFormatting: the number-format renderer for TEXT (a built-in one by default).
    public init(dateSystem: DateSystem = .excel1900, clock: CalcClock = .system, randomSeed: UInt64? = nil,
                numberFormatting: any NumberFormatting = BuiltInNumberFormatting()) {
        self.dateSystem = dateSystem
        self.clock = clock
        self.numberFormatting = numberFormatting
        self.random = SplitMix64(seed: randomSeed ?? UInt64.random(in: 0...UInt64.max))
    }

    // MARK: sheets

    /// Adds a sheet and answers its index; an existing name (case-insensitive) answers that sheet's index.
    @discardableResult
    public func addSheet(_ name: String) -> Int {
        let key = name.uppercased()
        if let existing = sheetByName[key] { return Int(existing) }
        sheets.append(SheetStore(name: name))
        sheetByName[key] = Int32(sheets.count - 1)
        dependencyIndex = nil
        return sheets.count - 1
    }

    /// The sheet names in index order.
    public var sheetNames: [String] { sheets.map(\.name) }

    /// The index of the sheet with this name (case-insensitive), or nil.
    public func sheetIndex(named name: String) -> Int? {
        sheetByName[name.uppercased()].map(Int.init)
    }

    // MARK: cells

    func cellID(sheet: Int, address: CellIndex) -> Int32? {
        guard sheet >= 0, sheet < sheets.count else { return nil }
        return sheets[sheet].find(row: address.row, column: address.column)
    }

    /// The id of the cell, created empty when missing.
    func ensureCell(sheet: Int, address: CellIndex) -> Int32 {
        if let id = cellID(sheet: sheet, address: address) { return id }
        let id: Int32
        if let free = freeIDs.popLast() {
            id = free
            cellSheet[Int(id)] = Int32(sheet); cellRow[Int(id)] = address.row; cellColumn[Int(id)] = address.column
            cellKind[Int(id)] = .constant; cellFormula[Int(id)] = -1; cellValue[Int(id)] = .empty; cellState[Int(id)] = .done
        } else {
            id = Int32(cellSheet.count)
            cellSheet.append(Int32(sheet)); cellRow.append(address.row); cellColumn.append(address.column)
            cellKind.append(.constant); cellFormula.append(-1); cellValue.append(.empty); cellState.append(.done)
        }
        sheets[sheet].columns[address.column, default: ColumnIndex()].insert(address.row, id)
        if address.row > sheets[sheet].maxRow { sheets[sheet].maxRow = address.row }
        if address.column > sheets[sheet].maxColumn { sheets[sheet].maxColumn = address.column }
        return id
    }

    /// Takes a cell back to a constant: forgets its formula, array range and cached value.
    func resetCell(_ id: Int32) {
        let i = Int(id)
        if cellKind[i] == .formula || cellKind[i] == .arrayMember || cellKind[i] == .unparsed {
            sheets[Int(cellSheet[i])].formulaColumns[cellColumn[i]]?.remove(cellRow[i])
            dependencyIndex = nil
        }
        // Each table is looked at only when it holds something: a cell being loaded is in none,
        // and a look-up hashes (and a removal may copy) even an empty table.
        if !arrays.isEmpty, let array = arrays.removeValue(forKey: id) {
            for r in array.range.start.row...array.range.end.row {
                for c in array.range.start.column...array.range.end.column where !(r == cellRow[i] && c == cellColumn[i]) {
                    if let m = sheets[Int(cellSheet[i])].find(row: r, column: c), arrayAnchorOf[m] == id {
                        arrayAnchorOf[m] = nil
                        sheets[Int(cellSheet[i])].formulaColumns[c]?.remove(r)
                        cellKind[Int(m)] = .constant
                        cellValue[Int(m)] = .empty
                    }
                }
            }
        }
        if !arrayAnchorOf.isEmpty { arrayAnchorOf[id] = nil }
        if !cachedValues.isEmpty { cachedValues[id] = nil }
        if !unparsed.isEmpty { unparsed[id] = nil }
        if !dynamicFormulas.isEmpty { dynamicFormulas.remove(id) }
        if !singleCellArrays.isEmpty { singleCellArrays.remove(id) }
        cellKind[i] = .constant
        cellFormula[i] = -1
        cellState[i] = .done
    }

    func markFormulaCell(_ id: Int32) {
        let i = Int(id)
        sheets[Int(cellSheet[i])].formulaColumns[cellColumn[i], default: ColumnIndex()].insert(cellRow[i], id)
    }

    /// Sets a constant (`.empty` clears the cell); a cell outside the grid is ignored.
    public func setValue(_ value: CalcValue, at cell: CellReference, sheet: Int) {
        guard sheet >= 0, sheet < sheets.count, let address = CellIndex(inGrid: cell) else { return }
        takeUpSuspendedPass()
        if case .empty = value {
            clearCell(at: cell, sheet: sheet)
            return
        }
        let id = ensureCell(sheet: sheet, address: address)
        resetCell(id)
        cellValue[Int(id)] = value
        noteChange(sheet: sheet, address: address)
    }

    /// Removes a cell's content (value, formula, array range).
    public func clearCell(at cell: CellReference, sheet: Int) {
        takeUpSuspendedPass()
        guard let address = CellIndex(inGrid: cell), let id = cellID(sheet: sheet, address: address) else { return }
        if let anchor = arrayAnchorOf[id], anchor != id { resetCell(anchor); markDirtyAnchorRemoved(anchor) }
        resetCell(id)
        cellValue[Int(id)] = .empty
        sheets[sheet].columns[address.column]?.remove(address.row)
        freeIDs.append(id)
        noteChange(sheet: sheet, address: address)
    }

    func markDirtyAnchorRemoved(_ anchor: Int32) {
        cellValue[Int(anchor)] = .empty
    }

    /// Parses and interns a formula written at `address`.
    static func compile(_ text: String, at address: CellIndex, external: Bool = false) throws(FormulaParseError) -> (instructions: [Instruction], arrayArguments: Bool) {
        var p = FormulaParser(text, at: address)
        p.allowsExternal = external
        let ins = try p.run()
        return (ins, p.usesArrayArguments)
    }

    func intern(_ instructions: [Instruction], arrayArguments: Bool) -> Int32 {
        if let f = formulaIDs[instructions] { return f }
        let f = Int32(formulas.count)
        formulas.append(CompiledFormula(instructions: instructions, usesArrayArguments: arrayArguments))
        if formulas[Int(f)].callsSubtotal { hasSubtotalFormulas = true }
        formulaTemplates.append(FormulaTemplate(formulas[Int(f)]))
        formulaTemplateVerified.append(false)
        formulaIDs[instructions] = f
        return f
    }

    /// Checks that formula text parses, without storing it (for `bad-formula` answers).
    public static func validateFormula(_ text: String, at cell: CellReference = CellReference(row: 1, column: 1)) throws(FormulaParseError) {
        _ = try compile(text, at: CellIndex(cell))
    }

    /// Sets a formula as stored in xlsx (`SUM(A1:A3)`, no leading `=`).
    ///
    /// A formula that does not parse, or refers to another workbook, keeps `cachedValue` and is
    /// reported (`unsupported-formula`); the parse error is returned. A formula calling a function the
    /// engine does not implement keeps `cachedValue` too (or is `#NAME?` without one). A cell
    /// outside the grid is ignored.
    /// - Parameters:
    ///   - text: the formula, without the leading `=`.
    ///   - cell: the formula's cell.
    ///   - sheet: the index of the cell's sheet.
    ///   - cachedValue: the value the file stores for the cell, if any.
    ///   - arrayRange: the range of a legacy (CSE) array formula, or of a dynamic array's spill, whose anchor is `cell`.
    ///   - isDynamicArray: true for a dynamic array formula (it spills: the range may grow or shrink).
    @discardableResult
    public func setFormula(_ text: String, at cell: CellReference, sheet: Int, cachedValue: CalcValue? = nil,
                           arrayRange: CellRange? = nil, isDynamicArray: Bool = false) -> FormulaParseError? {
        guard sheet >= 0, sheet < sheets.count, let address = CellIndex(inGrid: cell) else { return nil }
        let arrayRange = arrayRange.map(CellIndexRange.init)
        takeUpSuspendedPass()
        let id = ensureCell(sheet: sheet, address: address)
        resetCell(id)
        noteChange(sheet: sheet, address: address)
        dependencyIndex = nil
        let f: Int32
        if let reused = reusableFormula(text, at: address, sheet: sheet) {
            f = reused
        } else {
            let compiled: (instructions: [Instruction], arrayArguments: Bool)
            do {
                compiled = try CalcEngine.compile(text, at: address, external: resolvesExternalReferences)
            } catch {
                cellKind[Int(id)] = .unparsed
                unparsed[id] = (text, error)
                cellValue[Int(id)] = cachedValue ?? .error(.name)
                return error
            }
            f = intern(compiled.instructions, arrayArguments: compiled.arrayArguments)
            noteFormula(f, text: text, at: address, sheet: sheet)
        }
        cellKind[Int(id)] = .formula
        cellFormula[Int(id)] = f
        cellValue[Int(id)] = cachedValue ?? .empty
        cellState[Int(id)] = .dirty
        if !formulas[Int(f)].unknownFunctions.isEmpty, let cachedValue { cachedValues[id] = cachedValue }
        markFormulaCell(id)
        if isDynamicArray { dynamicFormulas.insert(id) }
        if let arrayRange, arrayRange.start == address, arrayRange.rowCount * arrayRange.columnCount > 1 {
            arrays[id] = ArrayFormula(range: arrayRange, isDynamic: isDynamicArray)
            for r in arrayRange.start.row...arrayRange.end.row {
                for c in arrayRange.start.column...arrayRange.end.column where !(r == address.row && c == address.column) {
                    let m = ensureCell(sheet: sheet, address: CellIndex(row: r, column: c))
                    if cellKind[Int(m)] != .constant || arrays[m] != nil { resetCell(m) }
                    cellKind[Int(m)] = .arrayMember
                    arrayAnchorOf[m] = id
                    markFormulaCell(m)
                }
            }
        } else if arrayRange != nil && !isDynamicArray {
            // A one-cell legacy array formula still evaluates its ranges as arrays.
            singleCellArrays.insert(id)
        }
        return nil
    }

    /// The value of a cell (`.empty` when nothing is stored, or outside the grid).
    public func value(at cell: CellReference, sheet: Int) -> CalcValue {
        guard let address = CellIndex(inGrid: cell), let id = cellID(sheet: sheet, address: address) else { return .empty }
        return cellValue[Int(id)]
    }

    /// The formula text of a cell as stored (no leading `=`), or nil for a constant.
    public func formula(at cell: CellReference, sheet: Int) -> String? {
        guard let address = CellIndex(inGrid: cell), let id = cellID(sheet: sheet, address: address) else { return nil }
        switch cellKind[Int(id)] {
        case .formula: return formulas[Int(cellFormula[Int(id)])].text(at: address)
        case .unparsed: return unparsed[id]?.text
        default: return nil
        }
    }

    /// True when the cell holds a formula, parsed or not (`formula(at:) != nil` without rendering its text).
    public func hasFormula(at cell: CellReference, sheet: Int) -> Bool {
        guard let address = CellIndex(inGrid: cell), let id = cellID(sheet: sheet, address: address) else { return false }
        return cellKind[Int(id)] == .formula || cellKind[Int(id)] == .unparsed
    }

    /// True when the cell is covered by an array formula anchored elsewhere (a legacy array's range
    /// or a dynamic array's spill). A file stores such a cell's value as a plain one; loaded as a
    /// constant it would detach from its array and block a dynamic array's spill.
    package func isArrayMember(at cell: CellReference, sheet: Int) -> Bool {
        guard !arrayAnchorOf.isEmpty, let address = CellIndex(inGrid: cell), let id = cellID(sheet: sheet, address: address) else { return false }
        return cellKind[Int(id)] == .arrayMember
    }

    /// The number of distinct compiled formulas (cells of one shape share one).
    public var compiledFormulaCount: Int { formulas.count }

    /// The formula `text` written at `source`, as Excel writes it when the cell is copied to `target`:
    /// relative parts move, `$` parts stay, references moved off the grid become `#REF!`.
    public static func translateFormula(_ text: String, from source: CellReference, to target: CellReference) throws(FormulaParseError) -> String {
        let compiled = try compile(text, at: CellIndex(source))
        return CompiledFormula(instructions: compiled.instructions, usesArrayArguments: compiled.arrayArguments).text(at: CellIndex(target))
    }

    /// The names of the functions the engine implements, sorted (for the list in the Functions article);
    /// the stored forms of operators (`_TRO_ALL` for `A1:.C9`) are no functions of their own.
    public static var implementedFunctions: [String] {
        (FunctionRegistry.specs.map(\.name).filter { !$0.hasPrefix("_") } + FunctionRegistry.compiledForms).sorted()
    }

    /// Excel's built-in functions the engine does not implement (upper-cased, without prefixes):
    /// those needing a service outside the workbook (CUBE*, RTD, WEBSERVICE, STOCKHISTORY, IMAGE,
    /// TRANSLATE, COPILOT, PY, ...), the XLM add-in calls, and the Thai and
    /// Japanese locale functions. With `implementedFunctions` they are every name Excel knows: any
    /// other name is `#NAME?` in Excel as in the engine.
    package static let excelFunctionsNotImplemented: Set<String> = [
        "CALL", "COPILOT", "CUBEKPIMEMBER", "CUBEMEMBER", "CUBEMEMBERPROPERTY", "CUBERANKEDMEMBER", "CUBESET", "CUBESETCOUNT",
        "CUBEVALUE", "DATESTRING", "DETECTLANGUAGE", "ECMA.CEILING", "ENCODEURL", "EUROCONVERT", "FIELDVALUE", "FILTERXML",
        "IMAGE", "ISTHAIDIGIT", "NUMBERSTRING", "PY", "REGISTER.ID", "ROUNDBAHTDOWN",
        "ROUNDBAHTUP", "RTD", "SQL.REQUEST", "STOCKHISTORY", "THAIDAYOFWEEK", "THAIDIGIT", "THAIMONTHOFYEAR", "THAINUMSOUND",
        "THAINUMSTRING", "THAISTRINGLENGTH", "THAIYEAR", "TRANSLATE", "USDOLLAR", "WEBSERVICE", "YEN",
    ]

    /// Whether Excel knows a function by this name (upper-cased, without prefixes), implemented here or not.
    package static func isExcelFunction(_ name: String) -> Bool {
        FunctionRegistry.byName[name] != nil || FunctionRegistry.compiledForms.contains(name) || excelFunctionsNotImplemented.contains(name)
    }

    // MARK: names and tables

    /// Defines a name (`TaxRate` = `Sheet1!$B$1`, or any formula), workbook-wide or for one sheet.
    /// Returns the parse error when the definition does not parse (the name is then `#NAME?`... kept as an error).
    @discardableResult
    public func defineName(_ name: String, formula: String, sheet scope: Int? = nil) -> FormulaParseError? {
        let key = NameKey(scope: Int32(scope ?? -1), name: name.uppercased())
        dependencyIndex = nil
        needsFullRecalc = true
        do {
            let compiled = try CalcEngine.compile(formula, at: CellIndex(row: 0, column: 0), external: resolvesExternalReferences)
            let f = intern(compiled.instructions, arrayArguments: compiled.arrayArguments)
            names[key] = NameDefinition(name: name, formula: f, error: nil)
            return nil
        } catch {
            names[key] = NameDefinition(name: name, formula: -1, error: error)
            return error
        }
    }

    /// The definition of a name (upper-cased) as a formula on sheet `sheet` sees it: the sheet's
    /// own name first, else the workbook's.
    func definedName(_ upper: String, sheet: Int32) -> NameDefinition? {
        names.isEmpty ? nil : names[NameKey(scope: sheet, name: upper)] ?? names[NameKey(scope: -1, name: upper)]
    }

    /// The formula cells that are volatile or depend on a volatile one (transitively).
    func volatileDependents() -> Set<Int32> {
        if dependencyIndex == nil { dependencyIndex = DependencyIndex(engine: self) }
        return Set(dependents(of: []))
    }

    /// The formula cells that are volatile (NOW, TODAY, RAND, RANDBETWEEN, OFFSET, INDIRECT) or
    /// depend on one, transitively: `check --recalc` and the corpus oracle leave them out of comparisons.
    package func volatileFormulaCells() -> Set<CellLocation> {
        Set(volatileDependents().map { location(of: Int($0)) })
    }

    /// Adds (or replaces) a table for structured references.
    public func addTable(_ table: CalcTable) {
        tables[table.name.uppercased()] = table
        dependencyIndex = nil
        needsFullRecalc = true
    }

    func noteChange(sheet: Int, address: CellIndex) {
        // Before the first recalculation everything is computed anyway.
        guard !needsFullRecalc else { return }
        changedSinceRecalc.append(CellLocation(sheet: sheet, cell: address.reference))
    }

    /// The location of cell `id` (an index into the cell tables), as the API answers it.
    func location(of id: Int) -> CellLocation {
        CellLocation(sheet: Int(cellSheet[id]), cell: CellReference(row: Int(cellRow[id]) + 1, column: Int(cellColumn[id]) + 1))
    }
}

/// A defined name's key: its scope (sheet index, or -1 for the workbook) and upper-cased name.
struct NameKey: Hashable {
    var scope: Int32
    var name: String
}

/// A defined name: its compiled formula (evaluated at A1 of the referring sheet), or its parse error.
struct NameDefinition {
    var name: String
    var formula: Int32
    var error: FormulaParseError?
}

/// A recalculation state of a formula cell.
enum CellState: UInt8 {
    case done
    case dirty
    /// On the evaluation path: reading it again while computing is a circular reference.
    case onPath
    /// Settled but not computed, as Excel leaves the cells of a circular reference and those
    /// reading them when iteration is off: it holds 0, and a formula reading it is not computed either.
    case uncomputed
}

extension CalcClock {
    /// The system clock in UTC.
    public static var system: CalcClock {
        CalcClock(utcOffsetSeconds: 0) { systemUnixTime() }
    }
}

/// A small seedable generator (SplitMix64) for RAND and RANDBETWEEN.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
