extension Functions {
    static let aggregates: [FunctionSpec] = [
        raw("SUM", 1, 255) { ev, a in
            var s = 0.0
            try ev.forEachNumber(a) { s += $0 }
            return number(s)
        },
        raw("AVERAGE", 1, 255) { ev, a in
            var s = 0.0, n = 0.0
            try ev.forEachNumber(a) { s += $0; n += 1 }
            guard n > 0 else { return .value(.error(.divisionByZero)) }
            return number(s / n)
        },
        raw("AVERAGEA", 1, 255) { ev, a in
            var s = 0.0, n = 0.0
            try ev.forEachNumber(a, .textAsZero) { s += $0; n += 1 }
            guard n > 0 else { return .value(.error(.divisionByZero)) }
            return number(s / n)
        },
        raw("COUNT", 1, 255) { ev, a in
            var n = 0
            try ev.forEachValue(a) { v, direct in
                switch v {
                case .number: n += 1
                case .boolean: if direct { n += 1 }
                case .text(let t): if direct, Coercion.number(fromText: t, system: ev.dateSystem) != nil { n += 1 }
                default: break
                }
            }
            return .value(.number(Double(n)))
        },
        raw("COUNTA", 1, 255) { ev, a in
            var n = 0
            try ev.forEachValue(a) { v, direct in
                if case .empty = v { if direct { n += 1 } } else { n += 1 }
            }
            // An omitted argument counts (COUNTA(1,) is 2); an empty stored cell does not.
            return .value(.number(Double(n)))
        },
        raw("COUNTBLANK", 1, 1) { ev, a in
            var filled = 0
            if case .value(.error(let e)) = a[0] { return .value(.error(e)) }
            guard case .ref(let r) = a[0] else { return .value(.error(.value)) }
            try ev.forEachCell(r) { _, _, v in
                switch v {
                case .empty: break
                case .text(let t) where t.isEmpty: break
                default: filled += 1
                }
            }
            return .value(.number(Double(r.rows * r.columns - filled)))
        },
        raw("MAX", 1, 255) { ev, a in
            var m = -Double.infinity
            try ev.forEachNumber(a) { m = Swift.max(m, $0) }
            return .value(.number(m == -.infinity ? 0 : m))
        },
        raw("MIN", 1, 255) { ev, a in
            var m = Double.infinity
            try ev.forEachNumber(a) { m = Swift.min(m, $0) }
            return .value(.number(m == .infinity ? 0 : m))
        },
        raw("MAXA", 1, 255) { ev, a in
            var m = -Double.infinity
            try ev.forEachNumber(a, .textAsZero) { m = Swift.max(m, $0) }
            return .value(.number(m == -.infinity ? 0 : m))
        },
        raw("MINA", 1, 255) { ev, a in
            var m = Double.infinity
            try ev.forEachNumber(a, .textAsZero) { m = Swift.min(m, $0) }
            return .value(.number(m == .infinity ? 0 : m))
        },
        raw("PRODUCT", 1, 255) { ev, a in
            var p = 1.0, any = false
            try ev.forEachNumber(a) { p *= $0; any = true }
            return number(any ? p : 0)
        },
        raw("SUMSQ", 1, 255) { ev, a in
            var s = 0.0
            try ev.forEachNumber(a) { s += $0 * $0 }
            return number(s)
        },
        raw("SUMPRODUCT", 1, 255, arrays: true) { ev, a in
            let arrays = try a.map { try ev.array($0) }
            guard let first = arrays.first else { return .value(.error(.value)) }
            if arrays.contains(where: { $0.rows != first.rows || $0.columns != first.columns }) {
                // Arrays of other sizes are #VALUE!, but an error they hold comes first, in argument order
                // (SUMPRODUCT(P75:Q75,H75:I75,I75:K75) is #NUM!: calc-suite formulas__test 'MATH & TRIG'!AE75:AF75).
                for arr in arrays {
                    for case .error(let e) in arr.values { return .value(.error(e)) }
                }
                return .value(.error(.value))
            }
            var s = 0.0
            for k in 0..<first.values.count {
                var p = 1.0
                for arr in arrays {
                    switch arr.values[k] {
                    case .number(let x): p *= x
                    case .error(let e): throw EvalInterrupt.error(e)
                    default: p = 0
                    }
                }
                s += p
            }
            return number(s)
        },
        raw("SUBTOTAL", 2, 255) { ev, a in
            let code = try ev.int(a[0])
            guard (1...11).contains(code) || (101...111).contains(code) else { return .value(.error(.value)) }
            // 101-111 skip every hidden row, 1-11 the rows a filter hides.
            return try subtotal(ev, code % 100, ev.visibleRows(Array(a.dropFirst()), filteredOnly: code < 100))
        },
        raw("AGGREGATE", 3, 255, arrays: true) { ev, a in
            let code = try ev.int(a[0])
            let options = ev.isMissing(a, 1) ? 0 : try ev.int(a[1])
            guard (1...19).contains(code), (0...7).contains(options) else { return .value(.error(.value)) }
            // Options 1, 3, 5 and 7 skip hidden rows.
            var rest = Array(a.dropFirst(2))
            if options % 2 == 1, !rest.isEmpty {
                let data = code >= 14 ? 1 : rest.count  // the k of LARGE/SMALL/... stays as it is
                rest.replaceSubrange(0..<data, with: ev.visibleRows(Array(rest[0..<data]), filteredOnly: false))
            }
            var values: [Double] = []
            let ignoreErrors = [2, 3, 6, 7].contains(options)
            // Options 0-3 also pass over nested SUBTOTAL and AGGREGATE cells.
            for op in (code >= 14 ? [rest[0]] : rest) {
                try ev.forEachAggregatedValue([op], skipNested: options <= 3) { v, direct in
                    switch v {
                    case .number(let x): values.append(x)
                    case .error(let e): if !ignoreErrors { throw EvalInterrupt.error(e) }
                    case .text(let t): if direct, let x = Coercion.number(fromText: t, system: ev.dateSystem) { values.append(x) }
                    default: break
                    }
                }
            }
            if code >= 14 {
                guard rest.count >= 2 else { return .value(.error(.value)) }
                let k = try ev.num(rest[1])
                return try Statistics.kth(code, values, k)
            }
            return Statistics.byCode(code, values)
        },
    ]

    /// SUBTOTAL's functions by code (1-11; the caller has cut the hidden rows out of the ranges),
    /// passing over the cells of nested SUBTOTAL and AGGREGATE formulas.
    static func subtotal(_ ev: Evaluator, _ code: Int, _ args: [Operand]) throws -> Operand {
        if code == 2 || code == 3 {
            var n = 0
            try ev.forEachAggregatedValue(args, skipNested: true) { v, _ in
                if code == 2 { if case .number = v { n += 1 } } else if case .empty = v {} else { n += 1 }
            }
            return .value(.number(Double(n)))
        }
        // As SUM reads them: a direct argument coerced, a range's numbers only, errors thrown.
        var values: [Double] = []
        try ev.forEachAggregatedValue(args, skipNested: true) { v, direct in
            switch v {
            case .number(let x): values.append(x)
            case .error(let e): throw EvalInterrupt.error(e)
            case .empty: break
            default: if direct { values.append(try ev.number(v)) }
            }
        }
        return Statistics.byCode(code, values)
    }
}

/// Shared statistics over number lists.
enum Statistics {
    static func byCode(_ code: Int, _ v: [Double]) -> Operand {
        switch code {
        case 1: return v.isEmpty ? .value(.error(.divisionByZero)) : Functions.number(v.reduce(0, +) / Double(v.count))
        case 2: return .value(.number(Double(v.count)))
        case 3: return .value(.number(Double(v.count)))
        case 4: return .value(.number(v.max() ?? 0))
        case 5: return .value(.number(v.min() ?? 0))
        case 6: return Functions.number(v.isEmpty ? 0 : v.reduce(1, *))
        case 7: return variance(v, sample: true).map { Functions.number($0.squareRoot()) } ?? .value(.error(.divisionByZero))
        case 8: return variance(v, sample: false).map { Functions.number($0.squareRoot()) } ?? .value(.error(.divisionByZero))
        case 9: return Functions.number(v.reduce(0, +))
        case 10: return variance(v, sample: true).map { Functions.number($0) } ?? .value(.error(.divisionByZero))
        case 11: return variance(v, sample: false).map { Functions.number($0) } ?? .value(.error(.divisionByZero))
        case 12: return median(v).map { .value(.number($0)) } ?? .value(.error(.number))
        case 13: return mode(v).map { .value(.number($0)) } ?? .value(.error(.notAvailable))
        default: return .value(.error(.value))
        }
    }

    static func kth(_ code: Int, _ v: [Double], _ k: Double) throws -> Operand {
        switch code {
        case 14: return try large(v, k)
        case 15: return try small(v, k)
        case 16, 18: return percentile(v, k, exclusive: code == 18).map { .value(.number($0)) } ?? .value(.error(.number))
        case 17, 19: return percentile(v, k / 4, exclusive: code == 19).map { .value(.number($0)) } ?? .value(.error(.number))
        default: return .value(.error(.value))
        }
    }

    static func mean(_ v: [Double]) -> Double { v.reduce(0, +) / Double(v.count) }

    static func variance(_ v: [Double], sample: Bool) -> Double? {
        let n = Double(v.count)
        guard n > (sample ? 1 : 0) else { return nil }
        let m = mean(v)
        var s = 0.0
        for x in v { s += (x - m) * (x - m) }
        return s / (sample ? n - 1 : n)
    }

    static func median(_ v: [Double]) -> Double? {
        guard !v.isEmpty else { return nil }
        let s = v.sorted()
        let n = s.count
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
    }

    /// The most frequent number (first to reach the highest count), nil when none repeats.
    static func mode(_ v: [Double]) -> Double? {
        var counts: [Double: Int] = [:]
        var best: Double?
        var bestCount = 1
        for x in v {
            let c = (counts[x] ?? 0) + 1
            counts[x] = c
        }
        for x in v {
            let c = counts[x] ?? 0
            if c > bestCount { best = x; bestCount = c }
        }
        return best
    }

    static func large(_ v: [Double], _ k: Double) throws -> Operand {
        // k past the values (1E+300 included) is #NUM!, never an Int conversion that traps; so is
        // k below 1 (0.9: calc-suite formulas__test STATISTICAL!AG57, AG95).
        guard k >= 1, k <= Double(v.count) else { return .value(.error(.number)) }
        let kk = Int(k.rounded(.up))
        return .value(.number(v.sorted(by: >)[kk - 1]))
    }

    static func small(_ v: [Double], _ k: Double) throws -> Operand {
        // k past the values (1E+300 included) is #NUM!, never an Int conversion that traps; so is
        // k below 1 (0.9: calc-suite formulas__test STATISTICAL!AG57, AG95).
        guard k >= 1, k <= Double(v.count) else { return .value(.error(.number)) }
        let kk = Int(k.rounded(.up))
        return .value(.number(v.sorted()[kk - 1]))
    }

    static func percentile(_ v: [Double], _ p: Double, exclusive: Bool) -> Double? {
        guard !v.isEmpty, p >= 0, p <= 1 else { return nil }
        let s = v.sorted()
        let n = Double(s.count)
        var h: Double
        if exclusive {
            h = (n + 1) * p - 1
            guard h >= 0, h <= n - 1 else { return nil }
        } else {
            h = (n - 1) * p
        }
        let lo = Int(h.rounded(.down))
        let frac = h - Double(lo)
        if lo + 1 >= s.count { return s[s.count - 1] }
        return s[lo] + frac * (s[lo + 1] - s[lo])
    }
}
