import SheetPortCore

/// The numbers of a range in ascending order with their offsets, built once per pass and
/// shared by every comparison criterion (`">"&A2`, `"<=10"`) over that range, as the equality
/// criteria share `criteriaIndex`: a criterion's matches are one slice, found by binary search,
/// instead of a test of every cell (`SUMIF(A:A,">"&A2)` down a column was n squared tests).
struct SortedNumbers {
    /// The numeric cells' values, ascending (ties in offset order).
    var values: [Double] = []
    /// The row-major offset (in the clipped range) of each value.
    var offsets: [Int] = []

    /// The positions, in sorted order, of the numbers meeting a numeric comparison criterion
    /// (`Criterion.comparesNumbers`). The criterion's own test decides the bound, so the slice is
    /// the scan's answer, cell for cell (numbers equal to 15 digits count as equal as
    /// `Compare.values` says).
    func slice(meeting criterion: Criterion) -> Range<Int> {
        // Greater: false ... false, true ... true; less: true ... true, false ... false.
        let ascending = criterion.op == .greater || criterion.op == .greaterEqual
        // The first index where the criterion's answer turns.
        let low = values.partitionPoint { criterion.matches(.number($0)) == ascending }
        return ascending ? low..<values.count : 0..<low
    }
}

extension Criterion {
    /// A comparison with a number (`<`, `<=`, `>`, `>=`): only number cells meet it, so the
    /// sorted numbers answer it.
    var comparesNumbers: Bool { number != nil && op != .equal && op != .notEqual }
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

    /// The offsets, ascending, of the cells of `r` that meet a numeric comparison criterion;
    /// nil for any other criterion.
    func comparisonMatches(_ r: SheetRange, _ criterion: Criterion, cells: Int) throws -> [Int]? {
        guard criterion.comparesNumbers else { return nil }
        let sorted = try sortedNumbers(r)
        let slice = sorted.offsets[sorted.slice(meeting: criterion)]
        // Back in row-major order: a sort when the slice is small, else a pass over a bitmap.
        let count = slice.count
        if count == 0 { return [] }
        if count * max(1, Int.bitWidth - count.leadingZeroBitCount) < cells { return slice.sorted() }
        // The bitmap is the formula's memory (a whole column of a tall sheet is a million bytes a formula).
        try charge(bytes: cells)
        var marked = [Bool](repeating: false, count: cells)
        for offset in slice where offset < cells { marked[offset] = true }
        var offsets: [Int] = []
        offsets.reserveCapacity(count)
        for offset in 0..<cells where marked[offset] { offsets.append(offset) }
        return offsets
    }

    /// COUNTIF with one numeric comparison criterion: the length of its slice of the sorted
    /// numbers, two binary searches a formula; nil for any other criterion.
    func comparisonCount(_ r: SheetRange, _ criterion: Criterion) throws -> Int? {
        guard criterion.comparesNumbers else { return nil }
        return try sortedNumbers(clipped(r)).slice(meeting: criterion).count
    }
}
