
/// Hypothesis tests: CHISQ.TEST, F.TEST, T.TEST, Z.TEST and their compatibility names, each
/// answering the probability from the distributions of `Distribution`.
extension Functions {
    static let hypothesisTests: [FunctionSpec] = [
        raw("CHISQ.TEST", 2, 2, arrays: true) { ev, a in try chiSquaredTest(ev, a) },
        raw("CHITEST", 2, 2, arrays: true) { ev, a in try chiSquaredTest(ev, a) },
        raw("F.TEST", 2, 2, arrays: true) { ev, a in try fisherTest(ev, a) },
        raw("FTEST", 2, 2, arrays: true) { ev, a in try fisherTest(ev, a) },
        raw("T.TEST", 4, 4, arrays: true) { ev, a in try studentTest(ev, a) },
        raw("TTEST", 4, 4, arrays: true) { ev, a in try studentTest(ev, a) },
        raw("Z.TEST", 2, 3, arrays: true) { ev, a in try zTest(ev, a) },
        raw("ZTEST", 2, 3, arrays: true) { ev, a in try zTest(ev, a) },
    ]

    /// CHISQ.TEST(actual, expected): χ² = Σ (A − E)²/E, with (r − 1)(c − 1) degrees of freedom
    /// (n − 1 for a single row or column); the two ranges must have one shape.
    static func chiSquaredTest(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let actual = try ev.array(a[0]), expected = try ev.array(a[1])
        // As many cells in each, whatever their shapes; the degrees of freedom follow the actual
        // range's shape (CHISQ.TEST(C16:D17,E14:E17) is 9.66E-58, df 1: calc-suite formulas__test STATISTICAL!R17).
        guard actual.values.count == expected.values.count else { return .value(.error(.notAvailable)) }
        let (rows, columns) = shape(ev, a[0])
        // The actual range's errors come before the expected one's (Y17: TRUE,#VALUE! against
        // #N/A,#DIV/0! is #VALUE!); a pair whose actual cell is #NULL! is passed over whole.
        for x in actual.values { if let err = sampleError(x) { throw fail(err) } }
        for (x, e) in zip(actual.values, expected.values) where x != .error(.null) {
            if let err = sampleError(e) { throw fail(err) }
        }
        var chi = 0.0, pairs = 0
        for (x, e) in zip(actual.values, expected.values) {
            guard case .number(let xv) = x, case .number(let ev) = e else { continue }
            guard ev > 0 else { return .value(.error(ev == 0 ? .divisionByZero : .number)) }
            chi += (xv - ev) * (xv - ev) / ev
            pairs += 1
        }
        // No pair of numbers is #DIV/0! (V17: 4, empty, text against empty, text, TRUE).
        guard pairs > 0 else { return .value(.error(.divisionByZero)) }
        let df = rows > 1 && columns > 1 ? Double((rows - 1) * (columns - 1)) : Double(rows * columns - 1)
        guard df >= 1 else { return .value(.error(.notAvailable)) }
        return number(Distribution.chiSquared(chi, df).upper)
    }

    /// An argument's rows and columns (a range's own, not clipped).
    static func shape(_ ev: Evaluator, _ op: Operand) -> (Int, Int) {
        switch op {
        case .ref(let r): return (r.rows, r.columns)
        case .value(.array(let arr)): return (arr.rows, arr.columns)
        default: return (1, 1)
        }
    }

    /// The numbers of an array argument (text, booleans and empty cells skipped, errors thrown).
    static func sample(_ ev: Evaluator, _ op: Operand) throws -> [Double] {
        var out: [Double] = []
        for v in try flatValues(ev, op) {
            switch v {
            case .number(let x): out.append(x)
            case .error: if let e = sampleError(v) { throw fail(e) }
            default: break
            }
        }
        return out
    }

    /// F.TEST: the two-tailed probability that the variances differ (F = s₁²/s₂²).
    static func fisherTest(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let x = try sample(ev, a[0]), y = try sample(ev, a[1])
        guard let vx = Statistics.variance(x, sample: true), let vy = Statistics.variance(y, sample: true), vx > 0, vy > 0 else {
            return .value(.error(.divisionByZero))
        }
        let t = Distribution.fisher(vx / vy, Double(x.count - 1), Double(y.count - 1))
        return number(2 * Swift.min(t.lower, t.upper))
    }

    /// T.TEST(array1, array2, tails, type): paired (1), equal variances (2), unequal (3, Welch's
    /// degrees of freedom, not rounded).
    static func studentTest(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let tails = (try ev.num(a[2])).rounded(.towardZero), type = (try ev.num(a[3])).rounded(.towardZero)
        guard tails == 1 || tails == 2, type >= 1, type <= 3 else { return .value(.error(.number)) }
        let t: Double, df: Double
        if type == 1 {
            let (x, y) = try numberPairs(ev, a[0], a[1])
            let d = zip(x, y).map { $0 - $1 }
            guard d.count >= 2, let v = Statistics.variance(d, sample: true), v > 0 else { return .value(.error(.divisionByZero)) }
            t = Statistics.mean(d) / (v / Double(d.count)).squareRoot()
            df = Double(d.count - 1)
        } else {
            let x = try sample(ev, a[0]), y = try sample(ev, a[1])
            let n1 = Double(x.count), n2 = Double(y.count)
            guard n1 >= 2, n2 >= 2, let v1 = Statistics.variance(x, sample: true), let v2 = Statistics.variance(y, sample: true) else {
                return .value(.error(.divisionByZero))
            }
            let difference = Statistics.mean(x) - Statistics.mean(y)
            if type == 2 {
                let pooled = ((n1 - 1) * v1 + (n2 - 1) * v2) / (n1 + n2 - 2)
                guard pooled > 0 else { return .value(.error(.divisionByZero)) }
                t = difference / (pooled * (1 / n1 + 1 / n2)).squareRoot()
                df = n1 + n2 - 2
            } else {
                let s1 = v1 / n1, s2 = v2 / n2
                guard s1 + s2 > 0 else { return .value(.error(.divisionByZero)) }
                t = difference / (s1 + s2).squareRoot()
                df = (s1 + s2) * (s1 + s2) / (s1 * s1 / (n1 - 1) + s2 * s2 / (n2 - 1))
            }
        }
        return number(tails * Distribution.studentT(Swift.abs(t), df).upper)
    }

    /// Z.TEST(array, x, [sigma]): 1 − Φ((mean − x) / (σ/√n)), σ the sample's when omitted.
    static func zTest(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        try ev.scalarsBeforeArrays(a[1], ev.isMissing(a, 2) ? .missing : a[2])
        let v = try sample(ev, a[0])
        let x = try ev.num(a[1])
        guard !v.isEmpty else { return .value(.error(.notAvailable)) }
        // One value has no spread to test, even with sigma given (calc-suite formulas__test STATISTICAL!V121).
        guard v.count > 1 else { return .value(.error(.divisionByZero)) }
        let sigma: Double
        if ev.isMissing(a, 2) {
            guard let s = Statistics.variance(v, sample: true), s > 0 else { return .value(.error(.divisionByZero)) }
            sigma = s.squareRoot()
        } else {
            sigma = try ev.num(a[2])
            // Excel: sigma <= 0 is #NUM! (calc-suite formulas__test STATISTICAL!U121, Z.TEST(...,0)).
            guard sigma > 0 else { return .value(.error(.number)) }
        }
        let z = (Statistics.mean(v) - x) / (sigma / Double(v.count).squareRoot())
        return number(SpecialFunctions.normalTail(z).upper)
    }
}
