/// The numbers of a range in ascending order with their offsets, built once per pass and
/// shared by every comparison criterion (`">"&A2`, `"<=10"`) over that range, as the equality
/// criteria share `criteriaIndex`: a criterion's matches are one slice, found by binary search,
/// instead of a test of every cell (`SUMIF(A:A,">"&A2)` down a column was n squared tests).
struct SortedNumbers {
    /// The numeric cells' values, ascending (ties in offset order).
    var values: [Double] = []
    /// The row-major offset (in the clipped range) of each value.
    var offsets: [Int] = []
}

extension Evaluator {
    /// The sorted numbers of `r` (clipped), built once per pass.
    func sortedNumbers(_ r: SheetRange) throws -> SortedNumbers {
        if let sorted = engine.lookupCache.sortedNumbers[r] { return sorted }
        let c = clipped(r)
        let cols = c.columns
        var pairs: [(Double, Int)] = []
        try forEachCell(c) { rr, cc, v in
            // Only number cells meet a numeric comparison: text, booleans, errors and blanks never do.
            guard case .number(let x) = v else { return }
            pairs.append((x, Int(rr - c.r1) * cols + Int(cc - c.c1)))
        }
        pairs.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
        let sorted = SortedNumbers(values: pairs.map(\.0), offsets: pairs.map(\.1))
        engine.lookupCache.builds += 1
        engine.lookupCache.sortedNumbers[r] = sorted
        return sorted
    }

    /// The offsets, ascending, of the cells of `r` that meet a numeric comparison criterion
    /// (`<`, `<=`, `>`, `>=` against a number); nil for any other criterion. The criterion's own
    /// test decides the slice's bound, so the answer is the scan's, cell for cell (numbers equal
    /// to 15 digits count as equal as `Compare.values` says).
    func comparisonMatches(_ r: SheetRange, _ criterion: Criterion, cells: Int) throws -> [Int]? {
        guard criterion.number != nil else { return nil }
        let ascending: Bool
        switch criterion.op {
        case .greater, .greaterEqual: ascending = true   // false ... false, true ... true
        case .less, .lessEqual: ascending = false        // true ... true, false ... false
        case .equal, .notEqual: return nil
        }
        let sorted = try sortedNumbers(r)
        // The first index where the criterion's answer turns.
        var low = 0, high = sorted.values.count
        while low < high {
            let middle = (low + high) / 2
            if criterion.matches(.number(sorted.values[middle])) == ascending { high = middle } else { low = middle + 1 }
        }
        let slice = ascending ? sorted.offsets[low...] : sorted.offsets[..<low]
        // Back in row-major order: a sort when the slice is small, else a pass over a bitmap.
        let count = slice.count
        if count == 0 { return [] }
        if count * max(1, Int.bitWidth - count.leadingZeroBitCount) < cells { return slice.sorted() }
        var marked = [Bool](repeating: false, count: cells)
        for offset in slice where offset < cells { marked[offset] = true }
        var offsets: [Int] = []
        offsets.reserveCapacity(count)
        for offset in 0..<cells where marked[offset] { offsets.append(offset) }
        return offsets
    }
}
