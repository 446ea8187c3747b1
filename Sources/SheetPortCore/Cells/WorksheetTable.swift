/// A table of a worksheet (`xl/tables/tableN.xml`): its name, its range (header row, data and
/// totals row), its columns with their totals-row functions and calculated-column formulas.
/// The reader's table parts produce it, the server stores it and the writer writes it back.
public struct WorksheetTable: Sendable, Equatable {
    /// One column of a table.
    public struct Column: Sendable, Equatable {
        /// The column's name (its header cell's text).
        public var name: String
        /// The totals row's function (`sum`, `average`, `count`, `countNums`, `max`, `min`,
        /// `stdDev`, `var`, `custom`), nil for none.
        public var totalsRowFunction: String?
        /// The totals row's text in this column (`Total`), nil for none.
        public var totalsRowLabel: String?
        /// The totals row's formula when `totalsRowFunction` is `custom` (without `=`).
        public var totalsRowFormula: String?
        /// The formula every data row of this column holds (without `=`), nil for a plain column.
        public var calculatedColumnFormula: String?

        /// A column named `name`.
        public init(name: String, totalsRowFunction: String? = nil, totalsRowLabel: String? = nil,
                    totalsRowFormula: String? = nil, calculatedColumnFormula: String? = nil) {
            self.name = name
            self.totalsRowFunction = totalsRowFunction
            self.totalsRowLabel = totalsRowLabel
            self.totalsRowFormula = totalsRowFormula
            self.calculatedColumnFormula = calculatedColumnFormula
        }
    }

    /// The table's name, as formulas name it (`displayName`).
    public var name: String
    /// The whole table: header row, data and totals row.
    public var range: CellRange
    /// Whether the first row is a header row.
    public var hasHeaderRow: Bool
    /// Whether the last row is a totals row.
    public var hasTotalsRow: Bool
    /// The columns, left to right (as many as the range's columns).
    public var columns: [Column]
    /// The table style's name (`TableStyleMedium2`), nil for none.
    public var styleName: String?

    /// A table named `name` over `range`.
    public init(name: String, range: CellRange, hasHeaderRow: Bool = true, hasTotalsRow: Bool = false,
                columns: [Column], styleName: String? = nil) {
        self.name = name
        self.range = range
        self.hasHeaderRow = hasHeaderRow
        self.hasTotalsRow = hasTotalsRow
        self.columns = columns
        self.styleName = styleName
    }

    /// The data rows (without the header and totals rows); nil when there are none.
    public var dataRows: ClosedRange<Int>? {
        let first = range.start.row + (hasHeaderRow ? 1 : 0)
        let last = range.end.row - (hasTotalsRow ? 1 : 0)
        return first <= last ? first...last : nil
    }

    /// The totals-row functions of the schema (`ST_TotalsRowFunction`).
    package static let totalsRowFunctions: Set<String> = ["none", "sum", "min", "max", "average", "count", "countNums", "stdDev", "var", "custom"]

    /// Why Excel would not take this table on a sheet beside `others` (the sheet's other
    /// tables), or nil: a valid name, one column per column of the range with distinct names
    /// (a line break in one is fine), a data row, totals-row functions of the schema, no control
    /// character in a formula or label, no overlap.
    package func violation(beside others: [WorksheetTable]) -> String? {
        let table = self
        guard WorkbookName.isValid(table.name), !table.name.hasPrefix("_xlnm.") else {
            return "\"\(table.name.visibleControlCharacters)\" is not a table name Excel accepts"
        }
        guard table.columns.count == table.range.columnCount else {
            return "table \(table.name) has \(table.columns.count) columns for a range of \(table.range.columnCount)"
        }
        guard table.dataRows != nil else { return "table \(table.name) has no data row" }
        var names: Set<String> = []
        for column in table.columns {
            guard !column.name.isEmpty, column.name.utf16.count <= 255, !column.name.containsUnsafeControlBesideLineBreaks,
                  names.insert(column.name.lowercased()).inserted else {
                return "table \(table.name) needs column names that are distinct, 1 to 255 characters and free of control characters (\"\(column.name.visibleControlCharacters)\")"
            }
            if let function = column.totalsRowFunction, !Self.totalsRowFunctions.contains(function) {
                return "table \(table.name): \"\(function.visibleControlCharacters)\" is not a totals-row function"
            }
            for formula in [column.calculatedColumnFormula, column.totalsRowFormula, column.totalsRowLabel].compactMap({ $0 })
            where formula.containsUnsafeControlBesideLineBreaks || formula.utf16.count > 8_192 {
                return "table \(table.name): a formula or label of column \"\(column.name)\" holds a control character or is too long"
            }
        }
        for other in others where other.name.uppercased() == table.name.uppercased() {
            return "a table named \(table.name) already exists"
        }
        for other in others where other.range.rows.overlaps(table.range.rows) && other.range.columns.overlaps(table.range.columns) {
            return "table \(table.name) overlaps table \(other.name)"
        }
        return nil
    }
}

extension StringProtocol {
    /// Whether the text holds a control character other than a line break or a tab (which a
    /// table's column name, a formula or a label may hold).
    package var containsUnsafeControlBesideLineBreaks: Bool {
        unicodeScalars.contains { $0.isUnsafeControl && $0 != "\n" && $0 != "\r" && $0 != "\t" }
    }
}
