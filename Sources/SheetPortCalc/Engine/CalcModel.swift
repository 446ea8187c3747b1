import SheetPortCore
/// A cell of a workbook: a sheet index and the cell on it.
public struct CellLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The sheet's index (order of `CalcEngine.addSheet`).
    public var sheet: Int
    /// The cell on the sheet.
    public var cell: CellReference

    /// A cell on a sheet.
    public init(sheet: Int, cell: CellReference) {
        self.sheet = sheet
        self.cell = cell
    }

    /// By sheet, then row-major.
    public static func < (lhs: CellLocation, rhs: CellLocation) -> Bool {
        (lhs.sheet, lhs.cell) < (rhs.sheet, rhs.cell)
    }

    /// `sheet:A1` (the sheet's index).
    public var description: String { "\(sheet):\(cell)" }
}

/// An Excel table (ListObject), for structured references.
public struct CalcTable: Sendable, Hashable {
    /// The table's name (`Table1`), matched case-insensitively.
    public var name: String
    /// The sheet index the table lies on.
    public var sheet: Int
    /// The whole table: header row, data and totals row.
    public var range: CellRange
    /// The number of header rows (0 or 1).
    public var headerRowCount: Int
    /// The number of totals rows (0 or 1).
    public var totalsRowCount: Int
    /// The column names, left to right (as many as the range's columns).
    public var columnNames: [String]

    /// A table description.
    public init(name: String, sheet: Int, range: CellRange, headerRowCount: Int = 1, totalsRowCount: Int = 0, columnNames: [String]) {
        self.name = name
        self.sheet = sheet
        self.range = range
        self.headerRowCount = headerRowCount
        self.totalsRowCount = totalsRowCount
        self.columnNames = columnNames
    }
}

/// The clock NOW and TODAY read: the instant and the time zone's offset from UTC.
public struct CalcClock: Sendable {
    /// Seconds since 1970-01-01 UTC, read at each recalculation.
    public var unixTime: @Sendable () -> Double
    /// The local time zone's offset from UTC in seconds (UTC on the server, local in `convert`).
    public var utcOffsetSeconds: Int

    /// A clock from a time source and an offset.
    public init(utcOffsetSeconds: Int = 0, unixTime: @escaping @Sendable () -> Double) {
        self.unixTime = unixTime
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// A clock fixed at one instant (for tests and reproducible runs).
    public static func fixed(unixTime: Double, utcOffsetSeconds: Int = 0) -> CalcClock {
        CalcClock(utcOffsetSeconds: utcOffsetSeconds) { unixTime }
    }
}

/// What a cell is given in `CalcEngine.setInputs`.
public enum CellContent: Sendable, Hashable {
    /// A constant value.
    case value(CalcValue)
    /// A formula as stored in xlsx (no leading `=`; one is tolerated).
    case formula(String)
    /// Nothing: the cell is cleared.
    case empty
}

/// One input of an incremental edit.
public struct CellInput: Sendable, Hashable {
    /// Where.
    public var location: CellLocation
    /// What.
    public var content: CellContent

    /// An input for a cell.
    public init(location: CellLocation, content: CellContent) {
        self.location = location
        self.content = content
    }
}

/// A cell whose value changed in a recalculation.
public struct CellChange: Sendable, Hashable {
    /// Where.
    public var location: CellLocation
    /// The new value.
    public var value: CalcValue
}

/// What a recalculation could not do as Excel would, for the `check --recalc` and import findings.
public struct CalcReport: Sendable, Hashable {
    /// A function the engine does not implement (or a user-defined one), named once with its cells.
    public struct UnsupportedFunction: Sendable, Hashable {
        /// The function's name, upper-cased without storage prefixes.
        public var name: String
        /// The formula cells calling it (their cached value, if any, was kept).
        public var cells: [CellLocation]
    }

    /// A formula the engine could not parse or that refers to another workbook.
    public struct UnsupportedFormula: Sendable, Hashable {
        /// The cell.
        public var location: CellLocation
        /// The formula text.
        public var formula: String
        /// Why (with the position).
        public var reason: FormulaParseError
        /// True when a cached value was kept.
        public var keptCachedValue: Bool
    }

    /// Unsupported functions (`unsupported-function`), in order of first appearance.
    public var unsupportedFunctions: [UnsupportedFunction] = []
    /// Unparsable or external formulas (`unsupported-formula`, info).
    public var unsupportedFormulas: [UnsupportedFormula] = []
    /// Cells in circular references, evaluated to 0 (`circular-reference`), sorted.
    public var circularReferences: [CellLocation] = []
}
