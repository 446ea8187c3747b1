import SheetPortCore

/// The cells of one sheet that some formula can read, from the formulas' static references: a
/// loader that holds a sheet elsewhere (the server's stored row blocks) gives the engine these
/// constants alone, not every value of the sheet.
package struct FormulaReadCells {
    /// True when some formula may read cells its references do not name (INDIRECT, OFFSET, CELL
    /// without a reference, GETPIVOTDATA), or array formulas whose spills constants may block:
    /// every cell is to be loaded.
    package fileprivate(set) var readsAnyCell = false
    /// Per column: ascending, disjoint row intervals (0-based, inclusive).
    fileprivate var columns: [Int32: [(first: Int32, last: Int32)]] = [:]
    /// Ranges wider than `narrowWidth` columns, kept whole.
    fileprivate var wide: [SheetRange] = []

    fileprivate static let narrowWidth: Int32 = 16
    /// More distinct wide ranges than this and every cell is loaded (each cell is tested against them).
    fileprivate static let wideLimit = 64

    /// True when no formula reads any cell of the sheet.
    package var isEmpty: Bool { !readsAnyCell && columns.isEmpty && wide.isEmpty }

    /// Whether a formula can read the cell at 1-based `row` and `column`.
    package func contains(row: Int, column: Int) -> Bool {
        if readsAnyCell { return true }
        guard let r = Int32(exactly: row &- 1), let c = Int32(exactly: column &- 1) else { return false }
        if let intervals = columns[c] {
            let lo = intervals.partitionPoint { $0.last >= r }
            if lo < intervals.count, intervals[lo].first <= r { return true }
        }
        return wide.contains { r >= $0.r1 && r <= $0.r2 && c >= $0.c1 && c <= $0.c2 }
    }

    fileprivate mutating func add(_ range: SheetRange) {
        if range.c2 - range.c1 >= Self.narrowWidth {
            if !wide.contains(range) { wide.append(range) }
            if wide.count > Self.wideLimit { readsAnyCell = true }
            return
        }
        for c in range.c1...range.c2 {
            // Filled-down formulas read neighbouring rows in turn: those join the last interval.
            if let last = columns[c]?.last, range.r1 <= last.last &+ 1, range.r1 >= last.first {
                columns[c]![columns[c]!.count - 1].last = max(last.last, range.r2)
            } else {
                columns[c, default: []].append((range.r1, range.r2))
            }
        }
    }

    /// Sorts and merges each column's intervals.
    fileprivate mutating func normalize() {
        for (c, intervals) in columns {
            let sorted = intervals.sorted { $0.first < $1.first }
            var merged: [(first: Int32, last: Int32)] = []
            merged.reserveCapacity(sorted.count)
            for interval in sorted {
                if let last = merged.last, interval.first <= last.last &+ 1 {
                    merged[merged.count - 1].last = max(last.last, interval.last)
                } else {
                    merged.append(interval)
                }
            }
            columns[c] = merged
        }
    }
}

extension CalcEngine {
    /// Functions that read cells no reference of theirs names.
    private static let indirectReaders: Set<Int32> = Set(["INDIRECT", "OFFSET", "CELL", "GETPIVOTDATA"].compactMap(FunctionRegistry.index(of:)))

    /// Whether a step reads cells that no reference of the formula names: a call of an indirect
    /// reader, or a range operator between computed references (`A1:INDEX(Z:Z,5)`).
    private static func readsUnnamedCells(_ step: Instruction) -> Bool {
        switch step {
        case .call(let g, _, _): return indirectReaders.contains(g)
        case .binary(.range): return true
        default: return false
        }
    }

    /// The cells of `sheet` that the formulas loaded (on any sheet) can read.
    package func readCells(sheet: Int) -> FormulaReadCells {
        var read = FormulaReadCells()
        guard sheet >= 0, sheet < sheets.count else { return read }
        if !arrays.isEmpty || !dynamicFormulas.isEmpty || !singleCellArrays.isEmpty || !pivotTables.isEmpty
            || formulas.contains(where: { $0.instructions.contains(where: Self.readsUnnamedCells) }) {
            read.readsAnyCell = true
            return read
        }
        for id in 0..<cellKind.count where cellKind[id] == .formula {
            forEachStaticRange(of: Int32(id)) { range in
                if range.sheet == Int32(sheet), !read.readsAnyCell { read.add(range) }
            }
            if read.readsAnyCell { return read }
        }
        read.normalize()
        return read
    }

    /// Loads constants of one column of `sheet` at once: `rows` (1-based, ascending) with their
    /// `values`, merged into the column in one pass, so that values loaded after the formulas
    /// below them do not shift the column once per cell. A row already holding a cell (an array
    /// formula's member) and an empty value are passed over. Recalculation is then whole.
    package func loadValues(_ values: [CalcValue], rows: [Int], column: Int, sheet: Int) {
        guard sheet >= 0, sheet < sheets.count, let columnIndex = Int32(exactly: column &- 1),
              columnIndex >= 0, columnIndex <= maxColumnIndex else { return }
        var added = ColumnIndex()
        added.rows.reserveCapacity(rows.count)
        added.ids.reserveCapacity(rows.count)
        for (row, value) in zip(rows, values) {
            guard let r = Int32(exactly: row &- 1), r >= 0, r <= maxRowIndex, added.rows.last.map({ $0 < r }) ?? true else { continue }
            if case .empty = value { continue }
            if sheets[sheet].find(row: r, column: columnIndex) != nil { continue }
            let id = Int32(cellSheet.count)
            cellSheet.append(Int32(sheet)); cellRow.append(r); cellColumn.append(columnIndex)
            cellKind.append(.constant); cellFormula.append(-1); cellValue.append(value); cellState.append(.done)
            added.rows.append(r)
            added.ids.append(id)
        }
        guard let lastRow = added.rows.last else { return }
        let existing = sheets[sheet].columns[columnIndex] ?? ColumnIndex()
        var merged = ColumnIndex()
        merged.rows.reserveCapacity(existing.rows.count + added.rows.count)
        merged.ids.reserveCapacity(existing.rows.count + added.rows.count)
        var i = 0, j = 0
        while i < existing.rows.count || j < added.rows.count {
            if j == added.rows.count || (i < existing.rows.count && existing.rows[i] < added.rows[j]) {
                merged.rows.append(existing.rows[i]); merged.ids.append(existing.ids[i]); i += 1
            } else {
                merged.rows.append(added.rows[j]); merged.ids.append(added.ids[j]); j += 1
            }
        }
        sheets[sheet].columns[columnIndex] = merged
        sheets[sheet].maxRow = max(sheets[sheet].maxRow, lastRow)
        sheets[sheet].maxColumn = max(sheets[sheet].maxColumn, columnIndex)
        dependencyIndex = nil
        needsFullRecalc = true
    }

    /// The last 1-based row of `column` of `sheet` holding a cell, or nil when it holds none.
    package func lastRow(ofColumn column: Int, sheet: Int) -> Int? {
        guard sheet >= 0, sheet < sheets.count, let c = Int32(exactly: column &- 1), let last = sheets[sheet].columns[c]?.rows.last else { return nil }
        return Int(last) + 1
    }

    /// Widens `sheet`'s used range (which whole-column and whole-row references are cut to) to
    /// 1-based `row` and `column`: a sheet loaded in part keeps the used range of all its cells.
    package func extendUsedRange(toRow row: Int, column: Int, sheet: Int) {
        guard sheet >= 0, sheet < sheets.count, let r = Int32(exactly: row &- 1), let c = Int32(exactly: column &- 1),
              r >= 0, r <= maxRowIndex, c >= 0, c <= maxColumnIndex else { return }
        sheets[sheet].maxRow = max(sheets[sheet].maxRow, r)
        sheets[sheet].maxColumn = max(sheets[sheet].maxColumn, c)
    }
}
