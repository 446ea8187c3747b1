#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore

/// Descriptive statistics over number lists: deviations (AVEDEV, DEVSQ), means (GEOMEAN,
/// HARMEAN, TRIMMEAN), shape (KURT, SKEW, SKEW.P), the A-variants that count text and booleans
/// in ranges (STDEVA, STDEVPA, VARA, VARPA), ranks within a list (PERCENTRANK*, QUARTILE.EXC),
/// PROB, and the array results MODE.MULT and FREQUENCY. Arguments read as SUM reads them:
/// ranges give their numbers, direct arguments are coerced, errors propagate.
extension Functions {
    /// KURT's and SKEW's sum of ((x - mean) / sd)^`power` over `v`, the standard deviation the
    /// sample's or (`sample` false) the population's; nil (#DIV/0!) under `minimumCount` values
    /// or when they do not vary.
    static func standardizedPowerSum(_ v: [Double], _ power: Double, minimumCount: Int, sample: Bool) -> Double? {
        guard v.count >= minimumCount, let s2 = Statistics.variance(v, sample: sample), s2 > 0 else { return nil }
        let m = Statistics.mean(v), s = s2.squareRoot()
        return v.reduce(0) { $0 + pow(($1 - m) / s, power) }
    }

    static let descriptive: [FunctionSpec] = [
        raw("AVEDEV", 1, 255) { ev, a in
            let v = try ev.numbers(a)
            guard !v.isEmpty else { return .value(.error(.number)) }
            let m = Statistics.mean(v)
            return number(v.reduce(0) { $0 + Swift.abs($1 - m) } / Double(v.count))
        },
        raw("DEVSQ", 1, 255) { ev, a in
            let v = try ev.numbers(a)
            guard !v.isEmpty else { return .value(.error(.number)) }
            return number(Statistics.squaredDeviations(v))
        },
        raw("GEOMEAN", 1, 255) { ev, a in
            let v = try ev.numbers(a)
            guard !v.isEmpty, v.allSatisfy({ $0 > 0 }) else { return .value(.error(.number)) }
            return number(exp(v.reduce(0) { $0 + log($1) } / Double(v.count)))
        },
        raw("HARMEAN", 1, 255) { ev, a in
            let v = try ev.numbers(a)
            guard !v.isEmpty, v.allSatisfy({ $0 > 0 }) else { return .value(.error(.number)) }
            return number(Double(v.count) / v.reduce(0) { $0 + 1 / $1 })
        },
        raw("KURT", 1, 255) { ev, a in
            let v = try ev.numbers(a), n = Double(v.count)
            guard let sum4 = standardizedPowerSum(v, 4, minimumCount: 4, sample: true) else { return .value(.error(.divisionByZero)) }
            return number(n * (n + 1) / ((n - 1) * (n - 2) * (n - 3)) * sum4 - 3 * (n - 1) * (n - 1) / ((n - 2) * (n - 3)))
        },
        raw("SKEW", 1, 255) { ev, a in
            let v = try ev.numbers(a), n = Double(v.count)
            guard let sum3 = standardizedPowerSum(v, 3, minimumCount: 3, sample: true) else { return .value(.error(.divisionByZero)) }
            return number(n / ((n - 1) * (n - 2)) * sum3)
        },
        raw("SKEW.P", 1, 255) { ev, a in
            let v = try ev.numbers(a)
            // Microsoft's Remarks: fewer than three points is #DIV/0! here too.
            guard let sum3 = standardizedPowerSum(v, 3, minimumCount: 3, sample: false) else { return .value(.error(.divisionByZero)) }
            return number(sum3 / Double(v.count))
        },
        raw("STDEVA", 1, 255) { ev, a in Statistics.byCode(7, try ev.numbers(a, .textAsZero)) },
        raw("STDEVPA", 1, 255) { ev, a in Statistics.byCode(8, try ev.numbers(a, .textAsZero)) },
        raw("VARA", 1, 255) { ev, a in Statistics.byCode(10, try ev.numbers(a, .textAsZero)) },
        raw("VARPA", 1, 255) { ev, a in Statistics.byCode(11, try ev.numbers(a, .textAsZero)) },
        raw("TRIMMEAN", 2, 2) { ev, a in
            try ev.scalarsBeforeArrays(a[1])
            let v = try ev.numbers([a[0]])
            let percent = try ev.num(a[1])
            guard percent >= 0, percent < 1 else { return .value(.error(.number)) }
            guard !v.isEmpty else { return .value(.error(.number)) }
            // The points cut, rounded down to an even number, half from each end.
            let cut = Int((Double(v.count) * percent / 2).rounded(.down))
            let kept = v.sorted()[cut..<(v.count - cut)]
            return number(kept.reduce(0, +) / Double(kept.count))
        },
        raw("QUARTILE.EXC", 2, 2) { ev, a in
            try ev.scalarsBeforeArrays(a[1])
            let v = try ev.numbers([a[0]])
            let quart = (try ev.num(a[1])).rounded(.towardZero)
            guard quart > 0, quart < 4 else { return .value(.error(.number)) }
            return try Statistics.kth(19, v, quart)
        },
        raw("PERCENTRANK", 2, 3) { ev, a in try percentRank(ev, a, exclusive: false) },
        raw("PERCENTRANK.INC", 2, 3) { ev, a in try percentRank(ev, a, exclusive: false) },
        raw("PERCENTRANK.EXC", 2, 3) { ev, a in try percentRank(ev, a, exclusive: true) },
        raw("PROB", 3, 4, arrays: true) { ev, a in try probability(ev, a) },
        raw("MODE.MULT", 1, 255) { ev, a in
            // An argument left out is #VALUE!, where an empty text is passed over (calc-suite formulas__test
            // STATISTICAL!AG69 `MODE.MULT(H69:J69,...,F69:H69,)`, S69).
            if a.indices.contains(where: { ev.isMissing(a, $0) }) { return .value(.error(.value)) }
            let modes = Statistics.modes(try ev.numbers(withoutEmptyTexts(a)))
            guard !modes.isEmpty else { return .value(.error(.notAvailable)) }
            return .value(.array(CalcArray(rows: modes.count, columns: 1, values: modes.map { .number($0) })))
        },
        // Bins holding no number count against one bin at 0, not the whole data in one (calc-suite
        // formulas__test: FREQUENCY(C43:G43,H43), H43 empty, is {2;3}; EXTRA!J50:J51 {0;3}).
        raw("FREQUENCY", 2, 2, arrays: true) { ev, a in
            let data = try ev.numbers([a[0]])
            var bins = try ev.numbers([a[1]])
            if bins.isEmpty { bins = [0] }
            let counts = Statistics.frequency(data, bins: bins)
            return .value(.array(CalcArray(rows: counts.count, columns: 1, values: counts.map { .number(Double($0)) })))
        },
    ]

    /// MODE.SNGL's and MODE.MULT's arguments without the empty texts written among them, which
    /// Excel passes over (calc-suite formulas__test STATISTICAL!S69, S71: `MODE.SNGL(D71:E71,E71:F71,
    /// F71:G71,"")` is 0.2, not #VALUE!).
    static func withoutEmptyTexts(_ a: [Operand]) -> [Operand] {
        a.filter { if case .value(.text("")) = $0 { return false } else { return true } }
    }

    /// PERCENTRANK.INC and .EXC: the rank of x in the list as a fraction, interpolated between
    /// the neighbouring values, cut (not rounded) to `significance` digits (3 by default).
    static func percentRank(_ ev: Evaluator, _ a: [Operand], exclusive: Bool) throws -> Operand {
        try ev.scalarsBeforeArrays(a[1], ev.isMissing(a, 2) ? .missing : a[2])
        let v = try ev.numbers([a[0]]).sorted()
        let x = try ev.num(a[1])
        let digits = ev.isMissing(a, 2) ? 3 : (try ev.num(a[2])).rounded(.towardZero)
        guard digits >= 1 else { return .value(.error(.number)) }
        guard let first = v.first, let last = v.last else { return .value(.error(.number)) }
        guard x >= first, x <= last else { return .value(.error(.notAvailable)) }
        let n = Double(v.count)
        // The rank of a value of the list: how many are smaller, on (n − 1) or (n + 1).
        func rank(_ k: Int) -> Double { exclusive ? Double(k + 1) / (n + 1) : Double(k) / (n - 1) }
        var result: Double
        if v.count == 1 {
            result = exclusive ? 0.5 : 1
        } else if let k = v.firstIndex(of: x) {
            result = rank(k)
        } else {
            // Between two values: from the last of the lower one's copies toward the next value.
            let above = v.firstIndex { $0 > x }!
            let position = Double(above - 1) + (x - v[above - 1]) / (v[above] - v[above - 1])
            result = exclusive ? (position + 1) / (n + 1) : position / (n - 1)
        }
        guard digits < 16 else { return number(result) }
        let scale = pow(10, digits)
        return number((Coercion.round15(result * scale)).rounded(.down) / scale)
    }

    /// PROB(x_range, prob_range, lower, [upper]): the probabilities of the values in [lower, upper]
    /// (or equal to lower); the probabilities must lie in [0, 1] and add up to 1.
    static func probability(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let xs = try flatValues(ev, a[0]), ps = try flatValues(ev, a[1])
        guard ev.cellCount(a[0]) == ev.cellCount(a[1]) else { return .value(.error(.notAvailable)) }
        var total = 0.0
        var pairs: [(Double, Double)] = []
        for k in 0..<Swift.max(xs.count, ps.count) {
            let x = k < xs.count ? xs[k] : .empty, p = k < ps.count ? ps[k] : .empty
            if case .error(let e) = x { throw fail(e) }
            if case .error(let e) = p { throw fail(e) }
            guard case .number(let pv) = p else { continue }
            guard pv >= 0, pv <= 1 else { return .value(.error(.number)) }
            total += pv
            if case .number(let xv) = x { pairs.append((xv, pv)) }
        }
        let lower = try ev.num(a[2])
        let upper = ev.isMissing(a, 3) ? lower : try ev.num(a[3])
        guard total != 0 else { return .value(.error(.divisionByZero)) }
        guard Swift.abs(total - 1) < 1e-12 else { return .value(.error(.number)) }
        var sum = 0.0
        for (x, p) in pairs where x >= lower && x <= upper { sum += p }
        return number(sum)
    }

    /// The cells of an array argument row by row, at the argument's own width (a range clipped
    /// at the stored rows only), so two arguments pair up cell by cell.
    static func flatValues(_ ev: Evaluator, _ op: Operand) throws -> [CalcValue] {
        switch op {
        case .ref(let r):
            let m = try ev.matrix(r)
            if m.columns == r.columns { return m.values }
            var out = [CalcValue](repeating: .empty, count: m.rows * r.columns)
            for i in 0..<m.rows { for j in 0..<m.columns { out[i * r.columns + j] = m[i, j] } }
            return out
        case .refs: throw fail(.value)
        default: return try ev.array(op).values
        }
    }
}

extension Statistics {
    /// Σ (x − mean)².
    static func squaredDeviations(_ v: [Double]) -> Double {
        let m = mean(v)
        return v.reduce(0) { $0 + ($1 - m) * ($1 - m) }
    }

    /// Every value reaching the highest count (at least 2), in the order each first appears.
    static func modes(_ v: [Double]) -> [Double] {
        var counts: [Double: Int] = [:]
        for x in v { counts[x, default: 0] += 1 }
        let best = counts.values.max() ?? 0
        guard best > 1 else { return [] }
        var seen = Set<Double>()
        var out: [Double] = []
        for x in v where counts[x] == best && !seen.contains(x) {
            seen.insert(x)
            out.append(x)
        }
        return out
    }

    /// FREQUENCY's counts: for each bin (in its given order) the values above the next smaller
    /// bin and up to it, then the values above the largest bin.
    static func frequency(_ data: [Double], bins: [Double]) -> [Int] {
        let order = bins.indices.sorted { bins[$0] < bins[$1] || (bins[$0] == bins[$1] && $0 < $1) }
        let sortedBins = order.map { bins[$0] }
        var counts = [Int](repeating: 0, count: bins.count + 1)
        for x in data {
            // The first sorted bin at or above x takes it.
            let lo = sortedBins.partitionPoint { $0 >= x }
            counts[lo == sortedBins.count ? bins.count : order[lo]] += 1
        }
        return counts
    }
}
