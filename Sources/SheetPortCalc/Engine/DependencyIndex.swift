import SheetPortCore

/// Which formulas read which cells, for incremental recalculation: single-cell references in one
/// sorted table, ranges per column (narrow ones) or per sheet (wide ones): a range is one entry,
/// never one per cell.
struct DependencyIndex {
    /// Sorted (cell key, dependent formula) pairs.
    var cellKeys: [UInt64] = []
    var cellDependents: [Int32] = []
    /// Narrow ranges, per (sheet, column) key: (first row, last row, dependent).
    var columnRanges: [UInt64: [(Int32, Int32, Int32)]] = [:]
    /// Ranges wider than `narrowWidth` columns, per sheet.
    var wideRanges: [Int32: [(SheetRange, Int32)]] = [:]
    /// Volatile formulas: always recomputed.
    var volatile: [Int32] = []

    static let narrowWidth: Int32 = 16

    static func key(_ s: Int32, _ r: Int32, _ c: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: s)) << 40 | UInt64(UInt32(bitPattern: r)) << 14 | UInt64(UInt32(bitPattern: c))
    }

    init(engine: CalcEngine) {
        var pairs: [(UInt64, Int32)] = []
        for id in 0..<engine.cellKind.count where engine.cellKind[id] == .formula {
            let dep = Int32(id)
            if engine.formulas[Int(engine.cellFormula[id])].isVolatile { volatile.append(dep) }
            engine.forEachStaticRange(of: dep) { r in
                if r.isSingleCell {
                    pairs.append((DependencyIndex.key(r.sheet, r.r1, r.c1), dep))
                } else if r.c2 - r.c1 < DependencyIndex.narrowWidth {
                    for c in r.c1...r.c2 { columnRanges[UInt64(UInt32(bitPattern: r.sheet)) << 32 | UInt64(UInt32(c)), default: []].append((r.r1, r.r2, dep)) }
                } else {
                    wideRanges[r.sheet, default: []].append((r, dep))
                }
            }
        }
        pairs.sort { $0.0 < $1.0 }
        cellKeys = pairs.map(\.0)
        cellDependents = pairs.map(\.1)
    }

    /// Calls `body` with each formula reading the cell.
    func forEachDependent(sheet s: Int32, row r: Int32, column c: Int32, _ body: (Int32) -> Void) {
        var hint = 0
        forEachDependent(sheet: s, row: r, column: c, hint: &hint, body)
    }

    /// `forEachDependent` for cells looked up mostly in increasing order (a walk down a column
    /// of dependents): the search gallops from `hint`, the previous lookup's place, so each step
    /// of the walk reads a few neighbouring keys instead of a binary search's 19 scattered ones.
    func forEachDependent(sheet s: Int32, row r: Int32, column c: Int32, hint: inout Int, _ body: (Int32) -> Void) {
        let k = DependencyIndex.key(s, r, c)
        let n = cellKeys.count
        // The first index whose key is at least `k` lies in lo...hi.
        var lo: Int, hi: Int
        if hint < n, cellKeys[hint] < k {
            lo = hint + 1
            hi = lo
            var step = 1
            while hi < n, cellKeys[hi] < k {
                lo = hi + 1
                hi += step
                step <<= 1
            }
            hi = min(hi, n)
        } else if hint > 0, cellKeys[min(hint, n) - 1] >= k {
            lo = 0
            hi = min(hint, n) - 1
        } else {
            lo = min(hint, n)
            hi = lo
        }
        lo = cellKeys[lo..<hi].partitionPoint { $0 >= k }
        while lo < n, cellKeys[lo] == k { body(cellDependents[lo]); lo += 1 }
        hint = lo
        // Most sheets have few ranges or none: an empty table is not hashed into.
        if !columnRanges.isEmpty, let list = columnRanges[UInt64(UInt32(bitPattern: s)) << 32 | UInt64(UInt32(c))] {
            for (r1, r2, dep) in list where r >= r1 && r <= r2 { body(dep) }
        }
        if !wideRanges.isEmpty, let list = wideRanges[s] {
            for (range, dep) in list where range.contains(sheet: s, row: r, column: c) { body(dep) }
        }
    }
}
