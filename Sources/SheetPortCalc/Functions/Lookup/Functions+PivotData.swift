import SheetPortCore

/// GETPIVOTDATA(data_field, pivot_table, [field1, item1], ...): the value a pivot table shows for
/// a data field at the items named, read from the pivot table's own cells (`CalcPivotTable`).
/// No pair answers the grand total; pairs name the row and column items, outermost fields first,
/// a subtotal when inner fields are left out. `#REF!` when pivot_table is in no pivot table or a
/// field or item is not in it (Microsoft's GETPIVOTDATA reference).
extension Functions {
    static let pivotData: [FunctionSpec] = [
        raw("GETPIVOTDATA", 2, 254) { ev, a in
            // An error among the values passes on before the pivot table is looked for, in the
            // arguments' order (a pivot_table that is an error value included); then a field
            // without its item is #REF!.
            if case .error(let e) = try ev.scalar(a[0]) { return .value(.error(e)) }
            if case .value(.error(let e)) = a[1] { return .value(.error(e)) }
            var values: [CalcValue] = []
            for k in 2..<a.count {
                let value = try ev.scalar(a[k])
                if case .error(let e) = value { return .value(.error(e)) }
                values.append(value)
            }
            guard values.count % 2 == 0 else { return .value(.error(.reference)) }
            var pairs: [CalcPivotTable.Item] = []
            for k in stride(from: 0, to: values.count, by: 2) {
                pairs.append(CalcPivotTable.Item(field: try ev.str(.value(values[k])), value: values[k + 1]))
            }
            let name = CalcPivotTable.key(try ev.str(a[0]))
            guard case .ref(let anchor) = a[1],
                  let pivot = ev.engine.pivotTables.first(where: { $0.contains(sheet: Int(anchor.sheet), row: Int(anchor.r1) + 1, column: Int(anchor.c1) + 1) }),
                  let field = pivot.dataFields.firstIndex(where: { CalcPivotTable.key($0.name) == name || CalcPivotTable.key($0.sourceName) == name })
            else { return .value(.error(.reference)) }
            guard let row = pivot.rows.line(for: pairs, dataField: field),
                  let column = pivot.columns.line(for: pairs, dataField: field),
                  row.used + column.used == pairs.count else { return .value(.error(.reference)) }
            let r = pivot.range.start.row + pivot.firstDataRow + row.index
            let c = pivot.range.start.column + pivot.firstDataColumn + column.index
            guard r <= CellReference.maxRow, c <= CellReference.maxColumn else { return .value(.error(.reference)) }
            return .value(try ev.cellValue(Int32(pivot.sheet), Int32(r - 1), Int32(c - 1)))
        },
    ]
}

extension CalcPivotTable {
    /// A name or item as GETPIVOTDATA compares it: without surrounding spaces, in any case.
    static func key(_ text: String) -> String {
        let trimmed = text.drop { $0 == " " }
        return String(trimmed.reversed().drop { $0 == " " }.reversed()).lowercased()
    }

    func contains(sheet: Int, row: Int, column: Int) -> Bool {
        sheet == self.sheet && range.contains(CellReference(row: row, column: column))
    }
}

extension CalcPivotTable.Item {
    /// Whether the pair names this item: its field's name and its value, text without regard to
    /// case, a number as a number or its text.
    func names(_ item: CalcPivotTable.Item) -> Bool {
        guard CalcPivotTable.key(field) == CalcPivotTable.key(item.field) else { return false }
        switch (value, item.value) {
        case (.number(let a), .number(let b)): return a == b
        case (.text(let a), .number(let b)), (.number(let b), .text(let a)): return Double(CalcPivotTable.key(a)) == b
        case (.text(let a), .text(let b)): return a.lowercased() == b.lowercased()
        case (.boolean(let a), .boolean(let b)): return a == b
        default: return false
        }
    }
}

extension [CalcPivotTable.Line] {
    /// The line along one axis standing for the pairs whose fields lie on it, with how many
    /// pairs it used: the grand total when none does (or the one line of an axis without
    /// fields), else the line whose items are exactly those pairs, a subtotal before a data
    /// line; on an axis laying out the data fields, the line of `dataField`.
    func line(for pairs: [CalcPivotTable.Item], dataField: Int) -> (index: Int, used: Int)? {
        // An axis with no line at all (no column fields, one data field) is one column.
        if isEmpty { return (0, 0) }
        let fields = Set(flatMap { $0.items.map { CalcPivotTable.key($0.field) } })
        let mine = pairs.filter { fields.contains(CalcPivotTable.key($0.field)) }
        let laysOutData = contains { $0.dataField != nil }
        var found: (index: Int, kind: CalcPivotTable.LineKind)?
        for (index, line) in enumerated() where line.kind != .blank {
            if laysOutData, line.dataField != dataField { continue }
            guard line.items.count == mine.count,
                  line.items.allSatisfy({ item in mine.contains { item.names($0) } }) else { continue }
            if mine.isEmpty, line.kind == .subtotal { continue }
            if found == nil || (found?.kind == .data && line.kind == .subtotal) { found = (index, line.kind) }
        }
        return found.map { ($0.index, mine.count) }
    }
}
