import SheetPortCore
extension Evaluator {
    /// The sheet index for a sheet name in a reference (nil: the formula's own sheet); -1 when unknown.
    func sheetIndex(_ name: String?) -> Int32 {
        guard let name else { return sheet }
        return engine.sheetByName[name.uppercased()] ?? -1
    }

    func resolveCell(_ r: CellRef, _ sheetName: String?) -> Operand {
        guard let span = engine.sheetSpan(sheetName, home: sheet) else { return .value(.error(.reference)) }
        let rr = r.row.resolve(row), cc = r.column.resolve(column)
        guard rr >= 0, rr <= maxRowIndex, cc >= 0, cc <= maxColumnIndex else { return .value(.error(.reference)) }
        return spanning(span) { SheetRange(sheet: $0, r1: rr, c1: cc, r2: rr, c2: cc) }
    }

    func resolveArea(_ a: AreaRef, _ sheetName: String?) -> Operand {
        guard let span = engine.sheetSpan(sheetName, home: sheet) else { return .value(.error(.reference)) }
        guard let r = Evaluator.range(a, sheet: span.lowerBound, row: row, column: column) else { return .value(.error(.reference)) }
        return spanning(span) { SheetRange(sheet: $0, r1: r.r1, c1: r.c1, r2: r.r2, c2: r.c2) }
    }

    /// The absolute rectangle of an area reference at a cell; nil off the grid.
    static func range(_ a: AreaRef, sheet s: Int32, row: Int32, column: Int32) -> SheetRange? {
        var r1 = a.start.row.resolve(row), r2 = a.end.row.resolve(row)
        var c1 = a.start.column.resolve(column), c2 = a.end.column.resolve(column)
        if a.kind == .columns { r1 = 0; r2 = maxRowIndex }
        if a.kind == .rows { c1 = 0; c2 = maxColumnIndex }
        guard r1 >= 0, r2 >= 0, c1 >= 0, c2 >= 0, r1 <= maxRowIndex, r2 <= maxRowIndex, c1 <= maxColumnIndex, c2 <= maxColumnIndex else { return nil }
        return SheetRange(sheet: s, r1: min(r1, r2), c1: min(c1, c2), r2: max(r1, r2), c2: max(c1, c2))
    }

    /// A cell's value; a formula cell not yet computed interrupts the evaluation.
    @inline(__always)
    func cellValue(_ s: Int32, _ r: Int32, _ c: Int32) throws -> CalcValue {
        guard s >= 0, Int(s) < engine.sheets.count, let id = engine.sheets[Int(s)].find(row: r, column: c) else { return .empty }
        return try valueOf(id)
    }

    @inline(__always)
    func valueOf(_ id: Int32) throws -> CalcValue {
        if engine.cellState[Int(id)] != .done {
            if engine.readsUncomputedAsZero, engine.cellState[Int(id)] == .uncomputed || engine.circular.contains(id) { return .number(0) }
            throw EvalInterrupt.needs(id)
        }
        return engine.cellValue[Int(id)]
    }

    /// Calls `body` with every stored cell of the range (row, column, value), column by column; empty cells are skipped.
    func forEachCell(_ r: SheetRange, _ body: (Int32, Int32, CalcValue) throws -> Void) throws {
        guard r.sheet >= 0, Int(r.sheet) < engine.sheets.count else { return }
        let store = engine.sheets[Int(r.sheet)]
        for c in store.storedColumns(r.c1, r.c2) {
            guard let col = store.columns[c] else { continue }
            // The stored cells read are steps, charged a column at a time.
            let span = col.positions(r.r1, r.r2)
            try charge(bytes: 0, steps: span.count)
            for k in span {
                try body(col.rows[k], c, try valueOf(col.ids[k]))
            }
        }
    }

    /// The same cells row by row (the order text functions join in).
    func forEachCellRowMajor(_ r: SheetRange, _ body: (Int32, Int32, CalcValue) throws -> Void) throws {
        if r.c1 == r.c2 { try forEachCell(r, body); return }
        var cells: [(Int32, Int32, CalcValue)] = []
        try forEachCell(r) { cells.append(($0, $1, $2)) }
        cells.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        for c in cells { try body(c.0, c.1, c.2) }
    }

    /// The range clipped to the sheet's stored extent (never empty: at least its first cell).
    func clipped(_ r: SheetRange) -> SheetRange {
        guard r.sheet >= 0, Int(r.sheet) < engine.sheets.count else { return r }
        let store = engine.sheets[Int(r.sheet)]
        var out = r
        out.r2 = max(r.r1, min(r.r2, store.maxRow))
        out.c2 = max(r.c1, min(r.c2, store.maxColumn))
        return out
    }

    /// The values of a range as an array (clipped to the stored extent of the sheet).
    func matrix(_ r0: SheetRange) throws -> CalcArray {
        let r = clipped(r0)
        let rows = r.rows, cols = r.columns
        var values = [CalcValue](repeating: .empty, count: try arrayCells(rows, cols))
        try forEachCell(r) { rr, cc, v in values[Int(rr - r.r1) * cols + Int(cc - r.c1)] = v }
        return CalcArray(rows: rows, columns: cols, values: values)
    }

    /// An operand as an array: a range's values, an array, or a scalar as a 1×1 array.
    func array(_ op: Operand) throws -> CalcArray {
        switch op {
        case .ref(let r): return try matrix(r)
        case .value(.array(let a)): return a
        case .value(let v): return CalcArray(rows: 1, columns: 1, values: [v])
        case .missing: return CalcArray(rows: 1, columns: 1, values: [.empty])
        case .refs, .lambda: throw EvalInterrupt.error(.value)
        }
    }

    // MARK: names

    func evaluateName(_ name: String, _ sheetName: String?) throws -> Operand {
        let upper = name.uppercased()
        guard let def = engine.definedName(upper, sheet: sheetName.map { sheetIndex($0) } ?? sheet) else {
            // A table name alone is its data.
            if sheetName == nil, engine.tables[upper] != nil {
                return resolveStructured(StructuredRef(table: name, items: [], firstColumn: nil, lastColumn: nil))
            }
            return .value(.error(.name))
        }
        if let error = def.error {
            // A name pointing into another workbook: the link is not followed (Excel shows #REF! without it).
            return .value(.error(error.isExternalReference ? .reference : .name))
        }
        guard def.formula >= 0 else { return .value(.error(.name)) }
        guard nameDepth < 32 else { return .value(.error(.reference)) }
        nameDepth += 1
        defer { nameDepth -= 1 }
        return try run(engine.formulas[Int(def.formula)])
    }

    // MARK: structured references

    func resolveStructured(_ s: StructuredRef) -> Operand {
        guard let r = Evaluator.structuredRange(s, engine: engine, sheet: sheet, row: row, column: column) else {
            return .value(.error(.reference))
        }
        return .ref(r)
    }

    /// The rectangle a structured reference names at a cell; nil for `#REF!`.
    static func structuredRange(_ s: StructuredRef, engine: CalcEngine, sheet: Int32, row: Int32, column: Int32) -> SheetRange? {
        let table: CalcTable?
        if let name = s.table {
            table = engine.tables[name.uppercased()]
        } else {
            let cell = CellIndex(row: row, column: column).reference
            table = engine.tables.values.first { $0.sheet == Int(sheet) && $0.range.contains(cell) }
        }
        guard let t = table else { return nil }
        let range = CellIndexRange(t.range)
        let top = range.start.row, bottom = range.end.row
        let dataTop = top + Int32(t.headerRowCount), dataBottom = bottom - Int32(t.totalsRowCount)
        var r1: Int32, r2: Int32
        let items = s.items
        if items.contains(.all) {
            r1 = top; r2 = bottom
        } else if items.contains(.thisRow) {
            guard row >= dataTop, row <= dataBottom else { return nil }
            r1 = row; r2 = row
        } else {
            let wantsHeaders = items.contains(.headers)
            let wantsTotals = items.contains(.totals)
            let wantsData = items.contains(.data) || (!wantsHeaders && !wantsTotals)
            if wantsHeaders && t.headerRowCount == 0 { return nil }
            if wantsTotals && t.totalsRowCount == 0 { return nil }
            r1 = wantsHeaders ? top : (wantsData ? dataTop : bottom)
            r2 = wantsTotals ? bottom : (wantsData ? dataBottom : top)
            if wantsData && r2 < r1 { r2 = r1 }
        }
        var c1 = range.start.column, c2 = range.end.column
        if let first = s.firstColumn {
            guard let a = columnIndex(first, in: t) else { return nil }
            var b = a
            if let last = s.lastColumn {
                guard let l = columnIndex(last, in: t) else { return nil }
                b = l
            }
            c1 = range.start.column + Int32(min(a, b))
            c2 = range.start.column + Int32(max(a, b))
        }
        return SheetRange(sheet: Int32(t.sheet), r1: r1, c1: c1, r2: r2, c2: c2)
    }

    /// The index of the column `name` names in `table`: as written, case-insensitively (`[the two ]`
    /// is the column "the two "); else with spaces around it dropped and line breaks read alike
    /// (`[ Qty ]`, a name whose `\r\n` the formula writes as `\n`).
    static func columnIndex(_ name: String, in table: CalcTable) -> Int? {
        let upper = name.uppercased()
        if let k = table.columnNames.firstIndex(where: { $0.uppercased() == upper }) { return k }
        func loose(_ text: String) -> String {
            text.uppercased().replacing("\r\n", with: "\n").replacing("\r", with: "\n").trimmingFormulaSpaces()
        }
        let wanted = loose(name)
        return table.columnNames.firstIndex { loose($0) == wanted }
    }
}
