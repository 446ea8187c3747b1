import SheetPortCore

/// A pivot table as its sheet shows it, for GETPIVOTDATA (built by the workbook's reader of
/// pivot table parts, so package plumbing, not API): where its data area is and which
/// field items each of its data rows and columns stands for (the pivot table part's `rowItems`
/// and `colItems`, decoded by whoever reads the file).
package struct CalcPivotTable: Sendable, Hashable {
    /// One field's item a data row or column stands for.
    package struct Item: Sendable, Hashable {
        /// The field's name (the pivot cache's field name).
        package var field: String
        /// The item: text, a number, a boolean, or empty for a missing value.
        package var value: CalcValue

        /// An item of `field`.
        package init(field: String, value: CalcValue) { (self.field, self.value) = (field, value) }
    }

    /// What a data row or column holds.
    package enum LineKind: Sendable, Hashable {
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
    package struct Line: Sendable, Hashable {
        /// The items it stands for, outermost field first (none for a grand total).
        package var items: [Item]
        /// The data field it shows, when the data fields are laid out along this axis.
        package var dataField: Int?
        /// Whether it shows its items' values, a subtotal, the grand total or nothing.
        package var kind: LineKind

        /// A line standing for `items`.
        package init(items: [Item], dataField: Int? = nil, kind: LineKind = .data) {
            (self.items, self.dataField, self.kind) = (items, dataField, kind)
        }
    }

    /// One data field: its name (`Sum of Score`) and its source field's (`Score`).
    package struct DataField: Sendable, Hashable {
        /// The name the pivot table shows (`dataField name`).
        package var name: String
        /// The name of the cache field it summarizes.
        package var sourceName: String

        /// A data field.
        package init(name: String, sourceName: String) { (self.name, self.sourceName) = (name, sourceName) }
    }

    /// The sheet index the pivot table lies on.
    package var sheet: Int
    /// The whole pivot table (`location ref`), page fields apart.
    package var range: CellRange
    /// The first data row's offset from the range's first row (`firstDataRow`).
    package var firstDataRow: Int
    /// The first data column's offset from the range's first column (`firstDataCol`).
    package var firstDataColumn: Int
    /// The data fields, in the pivot table's order (a line's `dataField` indexes them).
    package var dataFields: [DataField]
    /// The data rows, top to bottom.
    package var rows: [Line]
    /// The data columns, left to right.
    package var columns: [Line]

    /// A pivot table on `sheet` over `range`.
    package init(sheet: Int, range: CellRange, firstDataRow: Int, firstDataColumn: Int, dataFields: [DataField],
                 rows: [Line], columns: [Line]) {
        (self.sheet, self.range, self.dataFields, self.rows, self.columns) = (sheet, range, dataFields, rows, columns)
        (self.firstDataRow, self.firstDataColumn) = (firstDataRow, firstDataColumn)
    }
}

extension CalcEngine {
    /// Adds a pivot table GETPIVOTDATA can read. Its cells are the sheet's own: the engine
    /// reads the shown values, it does not pivot.
    package func addPivotTable(_ pivot: CalcPivotTable) {
        guard pivot.sheet >= 0, pivot.sheet < sheets.count else { return }
        pivotTables.append(pivot)
        needsFullRecalc = true
    }
}
