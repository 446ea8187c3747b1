import SheetPortCore

/// A pivot table as its sheet shows it, for GETPIVOTDATA: where its data area is and which
/// field items each of its data rows and columns stands for (the pivot table part's `rowItems`
/// and `colItems`, decoded by whoever reads the file).
public struct CalcPivotTable: Sendable, Hashable {
    /// One field's item a data row or column stands for.
    public struct Item: Sendable, Hashable {
        /// The field's name (the pivot cache's field name).
        public var field: String
        /// The item: text, a number, a boolean, or empty for a missing value.
        public var value: CalcValue

        /// An item of `field`.
        public init(field: String, value: CalcValue) {
            self.field = field
            self.value = value
        }
    }

    /// What a data row or column holds.
    public enum LineKind: Sendable, Hashable {
        /// The values of its items.
        case data
        /// A subtotal of its items.
        case subtotal
        /// The grand total.
        case grandTotal
        /// A blank line between items, never an answer.
        case blank
    }

    /// One data row (or column), in sheet order.
    public struct Line: Sendable, Hashable {
        /// The items it stands for, outermost field first (none for a grand total).
        public var items: [Item]
        /// The data field it shows, when the data fields are laid out along this axis.
        public var dataField: Int?
        /// Whether it shows its items' values, a subtotal, the grand total or nothing.
        public var kind: LineKind

        /// A line standing for `items`.
        public init(items: [Item], dataField: Int? = nil, kind: LineKind = .data) {
            self.items = items
            self.dataField = dataField
            self.kind = kind
        }
    }

    /// One data field: its name (`Sum of Score`) and its source field's (`Score`).
    public struct DataField: Sendable, Hashable {
        /// The name the pivot table shows (`dataField name`).
        public var name: String
        /// The name of the cache field it summarizes.
        public var sourceName: String

        /// A data field.
        public init(name: String, sourceName: String) {
            self.name = name
            self.sourceName = sourceName
        }
    }

    /// The sheet index the pivot table lies on.
    public var sheet: Int
    /// The whole pivot table (`location ref`), page fields apart.
    public var range: CellRange
    /// The first data row's offset from the range's first row (`firstDataRow`).
    public var firstDataRow: Int
    /// The first data column's offset from the range's first column (`firstDataCol`).
    public var firstDataColumn: Int
    /// The data fields, in the pivot table's order (a line's `dataField` indexes them).
    public var dataFields: [DataField]
    /// The data rows, top to bottom.
    public var rows: [Line]
    /// The data columns, left to right.
    public var columns: [Line]

    /// A pivot table on `sheet` over `range`.
    public init(sheet: Int, range: CellRange, firstDataRow: Int, firstDataColumn: Int, dataFields: [DataField],
                rows: [Line], columns: [Line]) {
        self.sheet = sheet
        self.range = range
        self.firstDataRow = firstDataRow
        self.firstDataColumn = firstDataColumn
        self.dataFields = dataFields
        self.rows = rows
        self.columns = columns
    }
}

extension CalcEngine {
    /// Adds a pivot table GETPIVOTDATA can read. Its cells are the sheet's own: the engine
    /// reads the shown values, it does not pivot.
    public func addPivotTable(_ pivot: CalcPivotTable) {
        guard pivot.sheet >= 0, pivot.sheet < sheets.count else { return }
        pivotTables.append(pivot)
        needsFullRecalc = true
    }
}
