/// A sum range's numbers in a criteria range's sorted order (`SortedNumbers`) as running totals,
/// built once per pass and per (criteria range, sum range): SUMIF and AVERAGEIF with one numeric
/// comparison criterion are then two binary searches and a subtraction, not an addition per
/// matching cell (`SUMIF(A:A,">"&A2)` down a column was n squared additions, now n log n in all).
///
/// A difference of running sums equals the scan's row-order sum only when no addition rounds,
/// so the sums are kept only then: every number a multiple of one power of two, 2^e, and their
/// magnitudes adding up to less than 2^(53+e) (integers below 2^53 in all, quarters, ...).
/// Every partial sum in any order is then exact, the same double bit for bit. Otherwise
/// (`0.1`, `1e308`) `exact` is false and the sum is the scan's, adding in row order as Excel
/// does, over two dense arrays (`bounds`, `addends`) instead of a cell look-up per match.
struct SortedSums {
    /// `sums[i]`: the sum range's numbers at the first `i` sorted offsets, added (when `exact`).
    var sums: [Double] = [0]
    /// `numbers[i]`: how many of those cells hold numbers (AVERAGEIF's divisor).
    var numbers: [Int] = [0]
    /// `errors[i]`: how many hold errors. A slice holding one goes to the scan, which makes the
    /// result the first error in row order.
    var errors: [Int] = [0]
    /// Whether `sums` holds: no addition rounds.
    var exact = true
    /// When not `exact`, by row-major offset: the criteria range's numbers (NaN for any other
    /// cell, which meets no numeric comparison) and the sum range's numbers (0 for any other
    /// cell: adding it changes no sum). Empty when the range is too sparse to walk a formula.
    var bounds: [Double] = []
    var addends: [Double] = []
    /// False when the sum range holds a formula not computed yet (reading it all could make a
    /// cycle the scan, reading only matching cells, does not make): the scan decides.
    var available = true
}

/// A criteria range (clipped) and the top-left cell of its sum range.
struct SortedSumsKey: Hashable {
    var criteria: SheetRange
    var sheet: Int32
    var row: Int32
    var column: Int32
}

extension Evaluator {
    /// SUMIF/AVERAGEIF with one numeric comparison criterion over `r`, summing `target` (only its
    /// top-left cell counts: the sum range takes the criteria range's shape): the sum and the
    /// count of numbers of the matching cells, as the scan finds them. Nil when the scan must
    /// decide: another criterion, an error among the matching cells, a pending sum range, or
    /// sums that could round over a sparse range.
    func comparisonSum(_ r: SheetRange, _ criterion: Criterion, over target: SheetRange) throws -> (sum: Double, numbers: Int)? {
        guard criterion.comparesNumbers else { return nil }
        let criteria = clipped(r)
        let sorted = try sortedNumbers(criteria)
        let totals = try sortedSums(criteria, sorted, target: target)
        guard totals.available else { return nil }
        let s = sorted.slice(meeting: criterion)
        guard totals.errors[s.upperBound] == totals.errors[s.lowerBound] else { return nil }
        let numbers = totals.numbers[s.upperBound] - totals.numbers[s.lowerBound]
        if totals.exact { return (totals.sums[s.upperBound] - totals.sums[s.lowerBound], numbers) }
        guard !totals.bounds.isEmpty else { return nil }
        if s.isEmpty { return (0, 0) }
        try charge(bytes: 0, steps: totals.bounds.count)
        // The criterion's answer is monotone in the number: a cell meets it exactly when its
        // number is on the slice's side of the slice's last number (ties answer alike).
        var sum = 0.0
        if s.upperBound == sorted.values.count {
            let bound = sorted.values[s.lowerBound]
            for k in totals.bounds.indices where totals.bounds[k] >= bound { sum += totals.addends[k] }
        } else {
            let bound = sorted.values[s.upperBound - 1]
            for k in totals.bounds.indices where totals.bounds[k] <= bound { sum += totals.addends[k] }
        }
        return (sum, numbers)
    }

    /// The running totals of `target`'s cells in the order of `sorted` (the sorted numbers of
    /// `criteria`), built once per pass.
    func sortedSums(_ criteria: SheetRange, _ sorted: SortedNumbers, target: SheetRange) throws -> SortedSums {
        let key = SortedSumsKey(criteria: criteria, sheet: target.sheet, row: target.r1, column: target.c1)
        if let totals = engine.lookupCache.sortedSums[key] { return totals }
        // One cell read a number: charged before the walk.
        try charge(bytes: 0, steps: sorted.offsets.count)
        // Summing the criteria range itself: its numbers are the sorted values.
        let itself = target.sheet == criteria.sheet && target.r1 == criteria.r1 && target.c1 == criteria.c1
        let cols = criteria.columns
        var totals = SortedSums()
        totals.sums.reserveCapacity(sorted.offsets.count + 1)
        totals.numbers.reserveCapacity(sorted.offsets.count + 1)
        totals.errors.reserveCapacity(sorted.offsets.count + 1)
        // The sum range's numbers by offset, kept for the row-order walk should a sum round.
        var addends: [(Int, Double)] = []
        var sum = 0.0, numbers = 0, errors = 0
        // The exponent of the lowest set bit over all numbers, and their magnitudes added: exact
        // while below 2^(53+lowest) (by induction each addition so far was exact).
        var lowest = Int.max, magnitude = 0.0
        do {
            for (k, offset) in sorted.offsets.enumerated() {
                let v = itself ? .number(sorted.values[k]) : try cellValue(target.sheet, target.r1 + Int32(offset / cols), target.c1 + Int32(offset % cols))
                switch v {
                case .number(let x):
                    if x != 0 { lowest = min(lowest, x.exponent - x.significandWidth) }
                    magnitude += Swift.abs(x)
                    if totals.exact, lowest != .max, !(magnitude < Self.exactBelow(lowest)) { totals.exact = false }
                    sum += x
                    numbers += 1
                    addends.append((offset, x))
                case .error: errors += 1
                default: break
                }
                totals.sums.append(sum)
                totals.numbers.append(numbers)
                totals.errors.append(errors)
            }
        } catch EvalInterrupt.needs(_) {
            totals = SortedSums(sums: [], numbers: [], errors: [], exact: false, available: false)
        }
        let cells = criteria.rows * cols
        if totals.available && !totals.exact {
            totals.sums = []
            // Dense arrays only when the range is mostly numbers: each formula walks them whole.
            if cells <= 2 * sorted.offsets.count + 4_096 {
                try charge(bytes: cells * 2 * MemoryLayout<Double>.stride)
                totals.bounds = [Double](repeating: .nan, count: cells)
                totals.addends = [Double](repeating: 0, count: cells)
                for (k, offset) in sorted.offsets.enumerated() { totals.bounds[offset] = sorted.values[k] }
                for (offset, x) in addends { totals.addends[offset] = x }
            }
        }
        engine.lookupCache.builds += 1
        engine.lookupCache.sortedSums[key] = totals
        return totals
    }

    /// 2^(53+e): the magnitudes of multiples of 2^e added below it add exactly.
    static func exactBelow(_ e: Int) -> Double {
        53 + e > Double.greatestFiniteMagnitude.exponent ? .infinity : Double(sign: .plus, exponent: 53 + e, significand: 1)
    }
}
