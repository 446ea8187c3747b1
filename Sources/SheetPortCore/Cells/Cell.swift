/// The value of a cell, as stored (cached) in the workbook.
public enum CellValue: Equatable, Sendable {
    /// A formula cell with no cached value.
    case empty
    /// A number (`t="n"`, or no type) whose format is not a date format.
    case number(Double)
    /// Text: shared, inline or a formula's string result.
    case string(String)
    /// `t="b"`.
    case boolean(Bool)
    /// `t="e"`: `#DIV/0!`, `#N/A`, ...
    case error(String)
    /// A number whose format is a date or time format: the serial in the workbook's date system.
    case date(serial: Double)
    /// A number whose format shows elapsed time (`[h]:mm:ss`): days, counted from 1899-12-30.
    case duration(days: Double)
    /// `t="d"`: an ISO 8601 date-time, kept as written.
    case isoDate(String)
}

/// A shared or array formula as stored on its cell.
public enum FormulaKind: Sendable, Equatable {
    /// A formula of its own cell (shared formulas arrive here expanded).
    case normal
    /// An array (CSE or dynamic-array) formula over `range` (A1 notation).
    case array(range: String)
    /// A dynamic-array formula (Excel 365's, typed without Ctrl+Shift+Enter) whose result spills
    /// over `range` (A1 notation) from its cell; written as an array formula with dynamic-array
    /// cell metadata, so Excel opens it as a spill.
    case dynamicArray(range: String)

    /// The range of an array or dynamic-array formula, nil for a normal one.
    public var arrayRange: String? {
        switch self {
        case .normal: return nil
        case .array(let range), .dynamicArray(let range): return range
        }
    }
}

/// One non-empty cell of a worksheet row.
public struct Cell: Equatable, Sendable {
    /// 1-based column.
    public var column: Int
    /// The cached value.
    public var value: CellValue
    /// The formula text without the leading `=`, shared formulas already moved to this cell.
    public var formula: String?
    /// How the formula is stored, when there is one.
    public var formulaKind: FormulaKind
    /// Index into the workbook's cell formats (`cellXfs`), 0 when absent.
    public var styleIndex: Int

    /// Creates a cell.
    public init(column: Int, value: CellValue, formula: String? = nil,
                formulaKind: FormulaKind = .normal, styleIndex: Int = 0) {
        self.column = column
        self.value = value
        self.formula = formula
        self.formulaKind = formulaKind
        self.styleIndex = styleIndex
    }

    /// Whether the cell holds only an empty text (a `""` shared string or `t="str"` value and no
    /// formula): a text cell to a formula (ISTEXT, COUNTA, `MATCH("",...)`), nothing to write out.
    package var isEmptyText: Bool {
        if case .string(let text) = value { return text.isEmpty && formula == nil }
        return false
    }
}

/// One worksheet row with its non-empty cells, left to right.
public struct Row: Equatable, Sendable {
    /// 1-based row number.
    public var index: Int
    /// Height in points when the row sets one (`ht`).
    public var height: Double?
    /// Whether the row is hidden.
    public var isHidden: Bool
    /// The cells that have a value or a formula, ordered by column.
    public var cells: [Cell]

    /// Creates a row.
    public init(index: Int, height: Double? = nil, isHidden: Bool = false, cells: [Cell] = []) {
        self.index = index
        self.height = height
        self.isHidden = isHidden
        self.cells = cells
    }
}
