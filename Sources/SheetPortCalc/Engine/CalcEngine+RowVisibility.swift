import SheetPortCore
extension CalcEngine {
    /// Marks a row hidden or shown (the worksheet's row `hidden` attribute).
    ///
    /// SUBTOTAL 101-111 and AGGREGATE with options 1, 3, 5 and 7 skip every hidden row; SUBTOTAL
    /// 1-11 skips only rows hidden by a filter (`filtered`), as Excel does.
    /// - Parameters:
    ///   - hidden: true to hide the row.
    ///   - row: the row, 1-based as `CellReference.row` (a row outside the grid is ignored).
    ///   - sheet: the sheet index.
    ///   - filtered: the row is hidden by an autofilter (a table's or the sheet's), not by hand.
    public func setRowHidden(_ hidden: Bool, row: Int, sheet: Int, filtered: Bool = false) {
        guard sheet >= 0, sheet < sheets.count, row >= 1, row <= CellReference.maxRow else { return }
        let s = Int32(sheet), row = Int32(row - 1)
        if hidden {
            hiddenRows[s, default: [:]][row] = filtered
        } else {
            hiddenRows[s]?[row] = nil
        }
        // SUBTOTAL reads visibility, not values: recompute everything on the next recalculation.
        needsFullRecalc = true
    }

    /// True when the row (1-based) is hidden (by a filter only, when `filteredOnly`).
    public func isRowHidden(row: Int, sheet: Int, filteredOnly: Bool = false) -> Bool {
        guard (1...CellReference.maxRow).contains(row), let s = Int32(exactly: sheet), let filtered = hiddenRows[s]?[Int32(row - 1)] else { return false }
        return filteredOnly ? filtered : true
    }
}

extension Evaluator {
    /// The arguments with hidden rows cut out of their ranges (as several ranges), for SUBTOTAL and
    /// AGGREGATE; arrays and values are kept as they are.
    func visibleRows(_ args: [Operand], filteredOnly: Bool) -> [Operand] {
        guard !engine.hiddenRows.isEmpty else { return args }
        func split(_ r: SheetRange) -> [SheetRange] {
            guard let hidden = engine.hiddenRows[r.sheet], !hidden.isEmpty else { return [r] }
            let rows = hidden.compactMap { (row, filtered) -> Int32? in
                (!filteredOnly || filtered) && row >= r.r1 && row <= r.r2 ? row : nil
            }.sorted()
            guard !rows.isEmpty else { return [r] }
            var parts: [SheetRange] = []
            var start = r.r1
            for h in rows {
                if h > start { parts.append(SheetRange(sheet: r.sheet, r1: start, c1: r.c1, r2: h - 1, c2: r.c2)) }
                start = h + 1
            }
            if start <= r.r2 { parts.append(SheetRange(sheet: r.sheet, r1: start, c1: r.c1, r2: r.r2, c2: r.c2)) }
            return parts
        }
        return args.map { op in
            switch op {
            case .ref(let r):
                let parts = split(r)
                return parts == [r] ? op : .refs(parts)
            case .refs(let rs): return .refs(rs.flatMap(split))
            default: return op
            }
        }
    }
}

extension Evaluator {
    /// Whether the cell holds a formula calling SUBTOTAL or AGGREGATE: SUBTOTAL, and AGGREGATE
    /// with options 0-3, pass over such cells so a total is not counted twice (Microsoft's
    /// SUBTOTAL and AGGREGATE articles).
    func holdsSubtotal(_ sheet: Int32, _ row: Int32, _ column: Int32) -> Bool {
        guard engine.hasSubtotalFormulas, sheet >= 0, Int(sheet) < engine.sheets.count, var id = engine.sheets[Int(sheet)].find(row: row, column: column) else { return false }
        if engine.cellKind[Int(id)] == .arrayMember {
            guard let anchor = engine.arrayAnchorOf[id] else { return false }
            id = anchor
        }
        guard engine.cellKind[Int(id)] == .formula, engine.cellFormula[Int(id)] >= 0 else { return false }
        return engine.formulas[Int(engine.cellFormula[Int(id)])].callsSubtotal
    }

    /// `forEachValue` for SUBTOTAL and AGGREGATE: with `skipNested`, the cells of ranges holding
    /// SUBTOTAL or AGGREGATE formulas are passed over.
    func forEachAggregatedValue(_ args: [Operand], skipNested: Bool, _ body: (CalcValue, Bool) throws -> Void) throws {
        for a in args {
            switch a {
            case .ref(let r) where skipNested:
                try forEachCell(r) { row, column, v in if !holdsSubtotal(r.sheet, row, column) { try body(v, false) } }
            case .refs(let rs) where skipNested:
                for r in rs { try forEachCell(r) { row, column, v in if !holdsSubtotal(r.sheet, row, column) { try body(v, false) } } }
            default:
                try forEachValue([a], body)
            }
        }
    }
}
