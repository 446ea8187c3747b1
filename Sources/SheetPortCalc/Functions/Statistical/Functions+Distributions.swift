#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The probability distributions (NORM.*, T.*, CHISQ.*, F.*, BETA.*, GAMMA.*, BINOM.*, ...), their
/// compatibility names (NORMDIST, TDIST, CHIDIST, ...) and the small functions around them
/// (GAMMA, GAMMALN, FISHER, PHI, GAUSS, STANDARDIZE, CONFIDENCE*, PERMUT*). Every argument is read
/// as arithmetic reads it (text numbers count, other text is `#VALUE!`), errors come first in
/// argument order, then Excel's domain checks give `#NUM!`; counts are truncated toward zero.
extension Functions {
    typealias SF = SpecialFunctions
    typealias D = Distribution

    /// Argument k as a number.
    @inline(__always) static func arg(_ ev: Evaluator, _ a: [Operand], _ k: Int) throws -> Double { try ev.num(a[k]) }

    /// Argument k truncated toward zero (Excel's integer arguments).
    @inline(__always) static func count(_ ev: Evaluator, _ a: [Operand], _ k: Int) throws -> Double {
        (try ev.num(a[k])).rounded(.towardZero)
    }

    /// `#NUM!` unless the condition holds.
    @inline(__always) static func require(_ ok: Bool) throws { if !ok { throw fail(.number) } }

    /// A probability argument: 0 < p < 1 (or with the closed ends allowed).
    static func probability(_ p: Double, open: Bool = true, closedHigh: Bool = false) throws {
        try require(open ? (p > 0 && (closedHigh ? p <= 1 : p < 1)) : (p >= 0 && p <= 1))
    }

    /// Excel's bound on degrees of freedom (1 ≤ df < 10^10, after truncation), checked once
    /// every argument is read (an error argument wins over a bad one).
    static func requireDegrees(_ dfs: Double...) throws {
        for df in dfs { try require(df >= 1 && df < 1e10) }
    }

    static let distributions: [FunctionSpec] = {
        let current = normal + continuous + sampling + discrete + smallStatistical
        return current + renamed(compatibilityNames, in: current)
    }()

    /// Second names of functions above, taking the same arguments: mostly those Excel keeps for
    /// workbooks from before 2010 (NORMDIST is NORM.DIST), the second name first. The old ones
    /// whose arguments differ (LOGNORMDIST has no `cumulative`) have entries of their own.
    static let compatibilityNames: KeyValuePairs<String, String> = [
        "NORMDIST": "NORM.DIST",
        "NORMINV": "NORM.INV",
        "NORMSINV": "NORM.S.INV",
        "LOGINV": "LOGNORM.INV",
        "CONFIDENCE": "CONFIDENCE.NORM",
        "EXPONDIST": "EXPON.DIST",
        "WEIBULL": "WEIBULL.DIST",
        "GAMMADIST": "GAMMA.DIST",
        "GAMMAINV": "GAMMA.INV",
        "GAMMALN.PRECISE": "GAMMALN",
        "BETAINV": "BETA.INV",
        "TINV": "T.INV.2T",
        "CHIDIST": "CHISQ.DIST.RT",
        "CHIINV": "CHISQ.INV.RT",
        "FDIST": "F.DIST.RT",
        "FINV": "F.INV.RT",
        "BINOMDIST": "BINOM.DIST",
        "CRITBINOM": "BINOM.INV",
        "POISSON": "POISSON.DIST",
    ]

    // MARK: normal and lognormal

    static let normal: [FunctionSpec] = [
        scalar("NORM.DIST", 4, 4) { ev, a in try normalDistribution(ev, a) },
        scalar("NORM.S.DIST", 2, 2) { ev, a in
            let z = try arg(ev, a, 0)
            return number(try ev.flag(a[1]) ? SF.normalTail(z).lower : SF.normalDensity(z))
        },
        scalar("NORMSDIST", 1, 1) { ev, a in number(SF.normalTail(try arg(ev, a, 0)).lower) },
        scalar("NORM.INV", 3, 3) { ev, a in try normalInverse(ev, a) },
        scalar("NORM.S.INV", 1, 1) { ev, a in
            let p = try arg(ev, a, 0)
            try probability(p)
            return number(SF.normalQuantile(lower: p, upper: 1 - p))
        },
        scalar("LOGNORM.DIST", 4, 4) { ev, a in try lognormalDistribution(ev, a, cumulativeAt: 3) },
        scalar("LOGNORMDIST", 3, 3) { ev, a in try lognormalDistribution(ev, a, cumulativeAt: nil) },
        scalar("LOGNORM.INV", 3, 3) { ev, a in try lognormalInverse(ev, a) },
        scalar("STANDARDIZE", 3, 3) { ev, a in
            let x = try arg(ev, a, 0), mean = try arg(ev, a, 1), sd = try arg(ev, a, 2)
            try require(sd > 0)
            return number((x - mean) / sd)
        },
        scalar("PHI", 1, 1) { ev, a in number(SF.normalDensity(try arg(ev, a, 0))) },
        scalar("GAUSS", 1, 1) { ev, a in
            // Φ(z) − ½ as Excel subtracts it: GAUSS(0.001) is 0.00039894221391101325.
            number(SF.normalTail(try arg(ev, a, 0)).lower - 0.5)
        },
        scalar("CONFIDENCE.NORM", 3, 3) { ev, a in try confidence(ev, a, t: false) },
        scalar("CONFIDENCE.T", 3, 3) { ev, a in try confidence(ev, a, t: true) },
    ]

    static func normalDistribution(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let x = try arg(ev, a, 0), mean = try arg(ev, a, 1), sd = try arg(ev, a, 2)
        let cumulative = try ev.flag(a[3])
        try require(sd > 0)
        let z = (x - mean) / sd
        return number(cumulative ? SF.normalTail(z).lower : SF.normalDensity(z) / sd)
    }

    static func normalInverse(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let p = try arg(ev, a, 0), mean = try arg(ev, a, 1), sd = try arg(ev, a, 2)
        try probability(p)
        try require(sd > 0)
        return number(mean + sd * SF.normalQuantile(lower: p, upper: 1 - p))
    }

    static func lognormalDistribution(_ ev: Evaluator, _ a: [Operand], cumulativeAt: Int?) throws -> Operand {
        let x = try arg(ev, a, 0), mean = try arg(ev, a, 1), sd = try arg(ev, a, 2)
        let cumulative = try cumulativeAt.map { try ev.flag(a[$0]) } ?? true
        try require(x > 0 && sd > 0)
        let z = (log(x) - mean) / sd
        return number(cumulative ? SF.normalTail(z).lower : SF.normalDensity(z) / (x * sd))
    }

    static func lognormalInverse(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let p = try arg(ev, a, 0), mean = try arg(ev, a, 1), sd = try arg(ev, a, 2)
        try probability(p)
        try require(sd > 0)
        return number(exp(mean + sd * SF.normalQuantile(lower: p, upper: 1 - p)))
    }

    /// CONFIDENCE.NORM (Φ⁻¹(1 − α/2) σ/√n) and CONFIDENCE.T (t's two-tailed quantile with n − 1 degrees).
    static func confidence(_ ev: Evaluator, _ a: [Operand], t: Bool) throws -> Operand {
        let alpha = try arg(ev, a, 0), sd = try arg(ev, a, 1), n = try count(ev, a, 2)
        try probability(alpha)
        try require(sd > 0 && n >= 1)
        if t {
            if n == 1 { throw fail(.divisionByZero) }
            return number(-D.studentTQuantile(lower: alpha / 2, upper: 1 - alpha / 2, n - 1) * sd / n.squareRoot())
        }
        // The quantile of 1 − α/2 as Excel rounds it (CONFIDENCE.NORM(1E-06,1,50) is 0.6917821474581894).
        let p = 1 - alpha / 2
        return number(SF.normalQuantile(lower: p, upper: 1 - p) * sd / n.squareRoot())
    }

    // MARK: exponential, Weibull, gamma, beta

    static let continuous: [FunctionSpec] = [
        scalar("EXPON.DIST", 3, 3) { ev, a in try exponential(ev, a) },
        scalar("WEIBULL.DIST", 4, 4) { ev, a in try weibull(ev, a) },
        scalar("GAMMA.DIST", 4, 4) { ev, a in try gammaDistribution(ev, a) },
        scalar("GAMMA.INV", 3, 3) { ev, a in try gammaInverse(ev, a) },
        scalar("GAMMA", 1, 1) { ev, a in
            let x = try arg(ev, a, 0)
            try require(!(x <= 0 && x == x.rounded()))
            return number(SF.gamma(x))
        },
        scalar("GAMMALN", 1, 1) { ev, a in try logGamma(ev, a) },
        scalar("BETA.DIST", 4, 6) { ev, a in try betaDistribution(ev, a, cumulativeAt: 3) },
        scalar("BETADIST", 3, 5) { ev, a in try betaDistribution(ev, a, cumulativeAt: nil) },
        scalar("BETA.INV", 3, 5) { ev, a in try betaInverse(ev, a) },
    ]

    static func exponential(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let x = try arg(ev, a, 0), lambda = try arg(ev, a, 1)
        let cumulative = try ev.flag(a[2])
        try require(x >= 0 && lambda > 0)
        return number(cumulative ? -expm1(-lambda * x) : lambda * exp(-lambda * x))
    }

    static func weibull(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let x = try arg(ev, a, 0), alpha = try arg(ev, a, 1), beta = try arg(ev, a, 2)
        let cumulative = try ev.flag(a[3])
        try require(x >= 0 && alpha > 0 && beta > 0)
        let power = pow(x / beta, alpha)
        return number(cumulative ? -expm1(-power) : alpha / beta * pow(x / beta, alpha - 1) * exp(-power))
    }

    static func gammaDistribution(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let x = try arg(ev, a, 0), alpha = try arg(ev, a, 1), beta = try arg(ev, a, 2)
        let cumulative = try ev.flag(a[3])
        try require(x >= 0 && alpha > 0 && beta > 0)
        return number(cumulative ? SF.regularizedGamma(alpha, x / beta).lower : SF.gammaDensity(alpha, x / beta) / beta)
    }

    static func gammaInverse(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let p = try arg(ev, a, 0), alpha = try arg(ev, a, 1), beta = try arg(ev, a, 2)
        try require(p >= 0 && p < 1 && alpha > 0 && beta > 0)
        return number(beta * SF.inverseRegularizedGamma(alpha, lower: p, upper: 1 - p))
    }

    static func logGamma(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let x = try arg(ev, a, 0)
        try require(x > 0)
        return number(SF.logGamma(x))
    }

    /// BETA.DIST(x, α, β, cumulative, [A], [B]) and BETADIST(x, α, β, [A], [B]) (always cumulative).
    static func betaDistribution(_ ev: Evaluator, _ a: [Operand], cumulativeAt: Int?) throws -> Operand {
        let x = try arg(ev, a, 0), alpha = try arg(ev, a, 1), beta = try arg(ev, a, 2)
        var cumulative = true
        if let k = cumulativeAt { cumulative = try ev.flag(a[k]) }
        let bounds = (cumulativeAt ?? 2) + 1
        let low = try ev.num(a, bounds, default: 0), high = try ev.num(a, bounds + 1, default: 1)
        try require(alpha > 0 && beta > 0 && low < high && x >= low && x <= high)
        let width = high - low
        let u = (x - low) / width, v = 1 - u
        guard cumulative else { return number(SF.betaDensity(alpha, beta, u, v) / width) }
        // Excel's closed forms for a parameter of 1, by logarithms as it computes them
        // (BETA.DIST(0.555,100,1,TRUE,0.1,1) is exp(100 ln u) = 2.3817091316180232E-30).
        if u > 0 && u < 1 {
            if beta == 1 { return number(exp(alpha * log(u))) }
            if alpha == 1 { return number(-expm1(beta * log1p(-u))) }
        }
        return number(SF.regularizedBeta(alpha, beta, x: u, y: v).lower)
    }

    static func betaInverse(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let p = try arg(ev, a, 0), alpha = try arg(ev, a, 1), beta = try arg(ev, a, 2)
        let low = try ev.num(a, 3, default: 0), high = try ev.num(a, 4, default: 1)
        try require(p > 0 && p < 1 && alpha > 0 && beta > 0 && low < high)
        return number(low + (high - low) * SF.inverseRegularizedBeta(alpha, beta, lower: p, upper: 1 - p))
    }

    // MARK: t, chi-squared, F

    static let sampling: [FunctionSpec] = [
        scalar("T.DIST", 3, 3) { ev, a in
            let x = try arg(ev, a, 0), df = try count(ev, a, 1)
            let cumulative = try ev.flag(a[2])
            // The density divides by the square root of 0 degrees: T.DIST(0,,) is #DIV/0! where the
            // cumulative form is #NUM! (calc-suite formulas__test STATISTICAL!R102, W102).
            if !cumulative, df == 0 { throw fail(.divisionByZero) }
            try requireDegrees(df)
            return number(cumulative ? D.studentT(x, df).lower : D.studentTDensity(x, df))
        },
        scalar("T.DIST.RT", 2, 2) { ev, a in
            let x = try arg(ev, a, 0), df = try count(ev, a, 1)
            try requireDegrees(df)
            return number(D.studentT(x, df).upper)
        },
        scalar("T.DIST.2T", 2, 2) { ev, a in
            let x = try arg(ev, a, 0), df = try count(ev, a, 1)
            try requireDegrees(df)
            try require(x >= 0)
            return number(2 * D.studentT(x, df).upper)
        },
        scalar("TDIST", 3, 3) { ev, a in
            let x = try arg(ev, a, 0), df = try count(ev, a, 1), tails = try count(ev, a, 2)
            try requireDegrees(df)
            try require(x >= 0 && (tails == 1 || tails == 2))
            return number(tails * D.studentT(x, df).upper)
        },
        scalar("T.INV", 2, 2) { ev, a in
            let p = try arg(ev, a, 0), df = try count(ev, a, 1)
            try probability(p)
            try requireDegrees(df)
            return number(D.studentTQuantile(lower: p, upper: 1 - p, df))
        },
        scalar("T.INV.2T", 2, 2) { ev, a in try studentTwoTailedInverse(ev, a) },
        scalar("CHISQ.DIST", 3, 3) { ev, a in
            let x = try arg(ev, a, 0), df = try count(ev, a, 1)
            let cumulative = try ev.flag(a[2])
            try requireDegrees(df)
            try require(x >= 0)
            return number(cumulative ? D.chiSquared(x, df).lower : D.chiSquaredDensity(x, df))
        },
        scalar("CHISQ.DIST.RT", 2, 2) { ev, a in try chiSquaredRight(ev, a) },
        scalar("CHISQ.INV", 2, 2) { ev, a in
            let p = try arg(ev, a, 0), df = try count(ev, a, 1)
            try requireDegrees(df)
            try probability(p, open: false)
            try require(p < 1)
            return number(D.chiSquaredQuantile(lower: p, upper: 1 - p, df))
        },
        scalar("CHISQ.INV.RT", 2, 2) { ev, a in try chiSquaredRightInverse(ev, a) },
        scalar("F.DIST", 4, 4) { ev, a in
            let x = try arg(ev, a, 0), d1 = try count(ev, a, 1), d2 = try count(ev, a, 2)
            let cumulative = try ev.flag(a[3])
            try requireDegrees(d1, d2)
            try require(x >= 0)
            return number(cumulative ? D.fisher(x, d1, d2).lower : D.fisherDensity(x, d1, d2))
        },
        scalar("F.DIST.RT", 3, 3) { ev, a in try fisherRight(ev, a) },
        scalar("F.INV", 3, 3) { ev, a in
            let p = try arg(ev, a, 0), d1 = try count(ev, a, 1), d2 = try count(ev, a, 2)
            try requireDegrees(d1, d2)
            try require(p >= 0 && p < 1)
            return number(D.fisherQuantile(lower: p, upper: 1 - p, d1, d2))
        },
        scalar("F.INV.RT", 3, 3) { ev, a in try fisherRightInverse(ev, a) },
    ]

    static func studentTwoTailedInverse(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let p = try arg(ev, a, 0), df = try count(ev, a, 1)
        try requireDegrees(df)
        try probability(p, closedHigh: true)
        return number(-D.studentTQuantile(lower: p / 2, upper: 1 - p / 2, df))
    }

    static func chiSquaredRight(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let x = try arg(ev, a, 0), df = try count(ev, a, 1)
        try requireDegrees(df)
        try require(x >= 0)
        return number(D.chiSquared(x, df).upper)
    }

    static func chiSquaredRightInverse(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let p = try arg(ev, a, 0), df = try count(ev, a, 1)
        try requireDegrees(df)
        try require(p > 0 && p <= 1)
        return number(D.chiSquaredQuantile(lower: 1 - p, upper: p, df))
    }

    static func fisherRight(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let x = try arg(ev, a, 0), d1 = try count(ev, a, 1), d2 = try count(ev, a, 2)
        try requireDegrees(d1, d2)
        try require(x >= 0)
        return number(D.fisher(x, d1, d2).upper)
    }

    static func fisherRightInverse(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let p = try arg(ev, a, 0), d1 = try count(ev, a, 1), d2 = try count(ev, a, 2)
        try requireDegrees(d1, d2)
        try require(p > 0 && p <= 1)
        return number(D.fisherQuantile(lower: 1 - p, upper: p, d1, d2))
    }

    // MARK: discrete

    /// Trials past 2^53 are not whole numbers a double can count: `#NUM!` (Excel's answer for 1E+30).
    static let maxTrials = 9_007_199_254_740_992.0

    static let discrete: [FunctionSpec] = [
        scalar("BINOM.DIST", 4, 4) { ev, a in try binomialDistribution(ev, a) },
        scalar("BINOM.DIST.RANGE", 3, 4) { ev, a in
            let n = try count(ev, a, 0), p = try arg(ev, a, 1), s = try count(ev, a, 2)
            let s2 = ev.isMissing(a, 3) ? s : try count(ev, a, 3)
            try require(n >= 0 && p >= 0 && p <= 1 && s >= 0 && s <= n && s2 >= s && s2 <= n)
            if s2 - s < 10_000 {
                var sum = 0.0
                var j = s
                while j <= s2 { sum += SF.binomialProbability(j, n, p); j += 1 }
                return number(Swift.min(sum, 1))
            }
            let below = D.binomial(s - 1, n, p), upTo = D.binomial(s2, n, p)
            // The difference of the two distribution values, from the tail that keeps the digits.
            return number(below.lower < 0.5 ? upTo.lower - below.lower : below.upper - upTo.upper)
        },
        scalar("BINOM.INV", 3, 3) { ev, a in try binomialInverse(ev, a) },
        scalar("NEGBINOM.DIST", 4, 4) { ev, a in try negativeBinomial(ev, a, cumulativeAt: 3) },
        scalar("NEGBINOMDIST", 3, 3) { ev, a in try negativeBinomial(ev, a, cumulativeAt: nil) },
        scalar("POISSON.DIST", 3, 3) { ev, a in try poisson(ev, a) },
        scalar("HYPGEOM.DIST", 5, 5) { ev, a in try hypergeometric(ev, a, cumulativeAt: 4) },
        scalar("HYPGEOMDIST", 4, 4) { ev, a in try hypergeometric(ev, a, cumulativeAt: nil) },
    ]

    static func binomialDistribution(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let k = try count(ev, a, 0), n = try count(ev, a, 1), p = try arg(ev, a, 2)
        let cumulative = try ev.flag(a[3])
        try require(k >= 0 && k <= n && n < maxTrials && p >= 0 && p <= 1)
        return number(cumulative ? D.binomial(k, n, p).lower : SF.binomialProbability(k, n, p))
    }

    /// The smallest k whose binomial distribution value reaches α.
    static func binomialInverse(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let n = try count(ev, a, 0), p = try arg(ev, a, 1), alpha = try arg(ev, a, 2)
        try require(n >= 0 && n < maxTrials && p >= 0 && p < 1 && alpha > 0 && alpha < 1)
        // Bisection on k (the distribution is monotone), from a bracket a few standard deviations
        // around the normal approximation when that holds: O(log σ) evaluations.
        var lo = -1.0, hi = n  // value(lo) < α ≤ value(hi)
        let sigma = (n * p * (1 - p)).squareRoot()
        let guess = n * p + sigma * SF.normalQuantile(lower: alpha, upper: 1 - alpha)
        if sigma > 10, guess.isFinite {
            let low = Swift.max(-1, (guess - 4 * sigma).rounded(.down)), high = Swift.min(n, (guess + 4 * sigma).rounded(.up))
            if low >= 0, D.binomial(low, n, p).lower < alpha { lo = low }
            if D.binomial(high, n, p).lower >= alpha { hi = high }
        }
        while hi - lo > 1 {
            let mid = (lo + (hi - lo) / 2).rounded(.down)
            if D.binomial(mid, n, p).lower >= alpha { hi = mid } else { lo = mid }
        }
        return number(hi)
    }

    static func negativeBinomial(_ ev: Evaluator, _ a: [Operand], cumulativeAt: Int?) throws -> Operand {
        let f = try count(ev, a, 0), s = try count(ev, a, 1), p = try arg(ev, a, 2)
        let cumulative = try cumulativeAt.map { try ev.flag(a[$0]) } ?? false
        try require(f >= 0 && s >= 1 && p > 0 && p < 1)
        return number(cumulative ? D.negativeBinomial(f, s, p).lower : D.negativeBinomialTerm(f, s, p))
    }

    static func poisson(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let x = try arg(ev, a, 0), mean = try arg(ev, a, 1)
        let cumulative = try ev.flag(a[2])
        // A negative x is #NUM! before truncation (POISSON.DIST(-1E-06,5,TRUE) is #NUM!, not P(0)).
        try require(x >= 0 && mean >= 0)
        let k = x.rounded(.towardZero)
        return number(cumulative ? D.poisson(k, mean).lower : SF.poissonTerm(k, mean))
    }

    static func hypergeometric(_ ev: Evaluator, _ a: [Operand], cumulativeAt: Int?) throws -> Operand {
        let k = try count(ev, a, 0), n = try count(ev, a, 1), m = try count(ev, a, 2), population = try count(ev, a, 3)
        let cumulative = try cumulativeAt.map { try ev.flag(a[$0]) } ?? false
        let low = Swift.max(0, n - population + m), high = Swift.min(n, m)
        guard cumulativeAt != nil else {
            // HYPGEOMDIST as Microsoft documents it: every count positive, k within the possible values.
            try require(k >= 0 && n > 0 && m > 0 && population > 0 && n <= population && m <= population)
            try require(k <= high && k >= low)
            return number(D.hypergeometricTerm(k, n, m, population))
        }
        // HYPGEOM.DIST takes counts of 0 (HYPGEOM.DIST(0,,,,) and (0,0,4,4,TRUE) are 1), and its
        // cumulative form is 0 below the smallest possible value (HYPGEOM.DIST(0,2,3,3,TRUE) is 0,
        // as every draw is a success): calc-suite formulas__test STATISTICAL!R54, W54, AG54.
        try require(k >= 0 && n >= 0 && m >= 0 && n <= population && m <= population && k <= high)
        if cumulative, k < low { return number(0) }
        try require(k >= low)
        // One possible value (no draw, no success, or every one a success) is certain.
        if low == high { return number(1) }
        guard cumulative else { return number(D.hypergeometricTerm(k, n, m, population)) }
        // Summed from k away from the mode, on the side that is the smaller tail, until the terms
        // no longer count: a few standard deviations of terms, not up to min(n, M) of them.
        let mode = ((n + 1) * (m + 1) / (population + 2)).rounded(.down)
        var sum = 0.0
        if k < mode {
            var j = k
            while j >= low {
                let term = D.hypergeometricTerm(j, n, m, population)
                sum += term
                if term <= sum * 1e-17 { break }
                j -= 1
            }
            return number(Swift.min(sum, 1))
        }
        var j = k + 1
        while j <= high {
            let term = D.hypergeometricTerm(j, n, m, population)
            sum += term
            if term <= sum * 1e-17 { break }
            j += 1
        }
        return number(Swift.max(0, 1 - sum))
    }

    // MARK: FISHER, PERMUT

    static let smallStatistical: [FunctionSpec] = [
        scalar("FISHER", 1, 1) { ev, a in
            let x = try arg(ev, a, 0)
            try require(x > -1 && x < 1)
            // Excel's own formula, rounding and all: FISHER(1E-10) is 1.000000082640371E-10.
            return number(0.5 * log((1 + x) / (1 - x)))
        },
        scalar("FISHERINV", 1, 1) { ev, a in
            // Excel's (e^2y − 1)/(e^2y + 1): FISHERINV(1E-07) is 1.0000000005039292E-07.
            let e = exp(2 * (try arg(ev, a, 0)))
            return e.isInfinite ? number(1) : number((e - 1) / (e + 1))
        },
        scalar("PERMUT", 2, 2) { ev, a in
            let n = try count(ev, a, 0), k = try count(ev, a, 1)
            try require(n > 0 && k >= 0 && n >= k)
            var product = 1.0
            var j = n - k + 1
            while j <= n && product.isFinite {
                product *= j
                j += 1
            }
            return number(product)
        },
        scalar("PERMUTATIONA", 2, 2) { ev, a in
            let n = try count(ev, a, 0), k = try count(ev, a, 1)
            try require(n >= 0 && k >= 0)
            return number(pow(n, k))
        },
    ]
}
