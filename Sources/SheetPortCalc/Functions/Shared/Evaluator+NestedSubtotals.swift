extension Evaluator {
    /// The references of `args` without the cells whose formula calls SUBTOTAL or AGGREGATE:
    /// SUBTOTAL leaves those out, so that a total over subtotals does not count them twice
    /// (Microsoft's SUBTOTAL reference). A range holding none is passed as it is.
    func skippingSubtotalCells(_ args: [Operand]) -> [Operand] {
        guard engine.hasSubtotalFormulas else { return args }
        return Evaluator.splitting(args, by: withoutSubtotalCells)
    }

    /// `r` cut into rectangles around its SUBTOTAL and AGGREGATE cells: runs of columns without
    /// any stay whole, a column with some is split around them.
    func withoutSubtotalCells(_ r: SheetRange) -> [SheetRange] {
        guard r.sheet >= 0, Int(r.sheet) < engine.sheets.count else { return [r] }
        let store = engine.sheets[Int(r.sheet)]
        var skipped: [(column: Int32, rows: [Int32])] = []
        for c in store.storedColumns(r.c1, r.c2, formulasOnly: true) {
            guard let col = store.columns[c] else { continue }
            let rows = col.positions(r.r1, r.r2).compactMap { k -> Int32? in
                let id = Int(col.ids[k])
                let f = engine.cellFormula[id]
                return engine.cellKind[id] == .formula && f >= 0 && engine.formulas[Int(f)].callsSubtotal ? col.rows[k] : nil
            }
            if !rows.isEmpty { skipped.append((c, rows.sorted())) }
        }
        guard !skipped.isEmpty else { return [r] }
        var parts: [SheetRange] = []
        var nextColumn = r.c1
        for (c, rows) in skipped.sorted(by: { $0.column < $1.column }) {
            if c > nextColumn { parts.append(SheetRange(sheet: r.sheet, r1: r.r1, c1: nextColumn, r2: r.r2, c2: c - 1)) }
            var start = r.r1
            for row in rows {
                if row > start { parts.append(SheetRange(sheet: r.sheet, r1: start, c1: c, r2: row - 1, c2: c)) }
                start = row + 1
            }
            if start <= r.r2 { parts.append(SheetRange(sheet: r.sheet, r1: start, c1: c, r2: r.r2, c2: c)) }
            nextColumn = c + 1
        }
        if nextColumn <= r.c2 { parts.append(SheetRange(sheet: r.sheet, r1: r.r1, c1: nextColumn, r2: r.r2, c2: r.c2)) }
        return parts
    }
}
