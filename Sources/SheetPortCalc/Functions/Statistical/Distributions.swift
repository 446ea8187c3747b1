#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The distributions behind Excel's statistical functions, on the special functions: both tails
/// of each (so that a right-tail function never loses digits to 1 − p), densities and quantiles.
enum Distribution {
    typealias S = SpecialFunctions

    // MARK: Student's t

    /// Both tails of Student's t with `df` degrees of freedom at t: ½ I_{df/(df+t²)}(df/2, ½).
    static func studentT(_ t: Double, _ df: Double) -> Tail {
        if t.isNaN { return Tail(lower: .nan, upper: .nan) }
        if t == 0 { return Tail(lower: 0.5, upper: 0.5) }
        let t2 = t * t
        let x: Double, y: Double
        if t2.isFinite, t2 < 1e300 {
            x = df / (df + t2)
            y = t2 / (df + t2)
        } else {
            x = (df / Swift.abs(t)) / Swift.abs(t)
            y = 1
        }
        let half = S.regularizedBeta(df / 2, 0.5, x: x, y: y).lower / 2
        return t > 0 ? Tail(lower: 1 - half, upper: half) : Tail(lower: half, upper: 1 - half)
    }

    /// P(T ≤ t) − ½, accurate near t = 0: ½ I_{t²/(df+t²)}(½, df/2) with t's sign.
    static func studentTCentered(_ t: Double, _ df: Double) -> Double {
        if t == 0 { return 0 }
        let t2 = t * t
        guard t2.isFinite, t2 < 1e300 else { return t > 0 ? 0.5 : -0.5 }
        let half = S.regularizedBeta(0.5, df / 2, x: t2 / (df + t2), y: df / (df + t2)).lower / 2
        return t > 0 ? half : -half
    }

    /// Student's t density. Its ratio Γ((ν+1)/2) / (Γ(ν/2) √(νπ)) is written with Stirling errors,
    /// a ln(1 + 1/2a) − ½ + st(a + ½) − st(a) − ln √(2π) for a = ν/2, so that a large ν keeps its digits.
    static func studentTDensity(_ t: Double, _ df: Double) -> Double {
        let a = df / 2, b = a + 0.5
        let ratio = a * log1p(0.5 / a) - 0.5 + S.stirlingError(b) - S.stirlingError(a) - S.lnSqrt2Pi
        let u = t * t / df
        let power = u.isFinite ? b * log1p(u) : b * (2 * log(Swift.abs(t)) - log(df))
        return exp(ratio - power)
    }

    /// The t with P(T ≤ t) = p (q = 1 − p).
    static func studentTQuantile(lower p: Double, upper q: Double, _ df: Double) -> Double {
        if p > q { return -studentTQuantile(lower: q, upper: p, df) }
        if p <= 0 { return -.infinity }
        if p == 0.5 { return 0 }
        if df == 1 { return -1 / tan(Double.pi * p) }
        if df == 2 { return (p - q) / (2 * p * q).squareRoot() }
        // Cornish–Fisher from the normal quantile, then the root finder on t's own tails.
        let z = S.normalQuantile(lower: p, upper: q)
        let z3 = z * z * z, z5 = z3 * z * z
        var guess = z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df)
        if !(guess < 0) || !guess.isFinite { guess = z < 0 ? z : -1 }
        if p >= 0.25 {
            // Near the centre the distribution's distance from ½ carries the digits: solve on it
            // (p − ½ is exact here), not on a value next to ½.
            let d = p - 0.5
            return S.quantile(lower: d, upper: -d, guess: guess, in: -.infinity, 0, tail: { t in
                let c = studentTCentered(t, df)
                return Tail(lower: c, upper: -c)
            }, density: { studentTDensity($0, df) })
        }
        return S.quantile(lower: p, upper: q, guess: guess, in: -.infinity, 0, tail: { studentT($0, df) },
                          density: { studentTDensity($0, df) })
    }

    // MARK: chi-squared, F

    static func chiSquared(_ x: Double, _ df: Double) -> Tail { S.regularizedGamma(df / 2, x / 2) }

    static func chiSquaredDensity(_ x: Double, _ df: Double) -> Double { S.gammaDensity(df / 2, x / 2) / 2 }

    static func chiSquaredQuantile(lower p: Double, upper q: Double, _ df: Double) -> Double {
        2 * S.inverseRegularizedGamma(df / 2, lower: p, upper: q)
    }

    /// Both tails of Fisher's F(d1, d2) at x: I_{d1x/(d1x+d2)}(d1/2, d2/2).
    static func fisher(_ x: Double, _ d1: Double, _ d2: Double) -> Tail {
        if x <= 0 { return Tail(lower: 0, upper: 1) }
        if x.isInfinite { return Tail(lower: 1, upper: 0) }
        let u = d1 * x
        let y: Double, z: Double
        if u.isFinite, u < 1e300 { y = u / (u + d2); z = d2 / (u + d2) } else { y = 1; z = d2 / u }
        return S.regularizedBeta(d1 / 2, d2 / 2, x: y, y: z)
    }

    static func fisherDensity(_ x: Double, _ d1: Double, _ d2: Double) -> Double {
        if x < 0 { return 0 }
        let u = d1 * x
        let y = u / (u + d2), z = d2 / (u + d2)
        return S.betaDensity(d1 / 2, d2 / 2, y, z) * d1 * d2 / ((u + d2) * (u + d2))
    }

    static func fisherQuantile(lower p: Double, upper q: Double, _ d1: Double, _ d2: Double) -> Double {
        if p <= 0 { return 0 }
        if q <= 0 { return .infinity }
        let x = S.inverseRegularizedBeta(d1 / 2, d2 / 2, lower: p, upper: q)
        var guess = d2 * x / (d1 * (1 - x))
        if !(guess > 0) || !guess.isFinite { guess = 1 }
        return S.quantile(lower: p, upper: q, guess: guess, in: 0, .infinity, tail: { fisher($0, d1, d2) },
                          density: { fisherDensity($0, d1, d2) })
    }

    // MARK: discrete

    /// P(X ≤ k) and P(X > k) for the binomial distribution (n trials, success p): its terms
    /// summed, or the incomplete beta function I_(1−p)(n − k, k + 1) past `maxSummedTerms`.
    static func binomial(_ k: Double, _ n: Double, _ p: Double) -> Tail {
        if k < 0 { return Tail(lower: 0, upper: 1) }
        if k >= n || p <= 0 { return Tail(lower: 1, upper: 0) }
        if p >= 1 { return Tail(lower: 0, upper: 1) }
        let mode = ((n + 1) * p).rounded(.down)
        if let t = S.discreteTail(at: k, mode: mode, in: 0, n, { S.binomialProbability($0, n, p) }) { return t }
        return S.regularizedBeta(k + 1, n - k, x: p, y: 1 - p).swapped
    }

    /// P(X ≤ k) and P(X > k) for the Poisson distribution of mean λ.
    static func poisson(_ k: Double, _ lambda: Double) -> Tail {
        if k < 0 { return Tail(lower: 0, upper: 1) }
        if lambda <= 0 { return Tail(lower: 1, upper: 0) }
        if let t = S.discreteTail(at: k, mode: lambda.rounded(.down), in: 0, .infinity, { S.poissonTerm($0, lambda) }) { return t }
        return S.regularizedGamma(k + 1, lambda).swapped
    }

    /// P(X ≤ f) and P(X > f) for the negative binomial distribution (f failures before the s-th success).
    static func negativeBinomial(_ f: Double, _ s: Double, _ p: Double) -> Tail {
        if f < 0 { return Tail(lower: 0, upper: 1) }
        if p >= 1 { return Tail(lower: 1, upper: 0) }
        if p <= 0 { return Tail(lower: 0, upper: 1) }
        let mode = Swift.max(0, ((s - 1) * (1 - p) / p).rounded(.down))
        if mode.isFinite, let t = S.discreteTail(at: f, mode: mode, in: 0, .infinity, { negativeBinomialTerm($0, s, p) }) { return t }
        return S.regularizedBeta(s, f + 1, x: p, y: 1 - p)
    }

    /// P(X = f) for the negative binomial distribution: C(f+s−1, f) p^s (1−p)^f, as s/(f+s) times a binomial term.
    static func negativeBinomialTerm(_ f: Double, _ s: Double, _ p: Double) -> Double {
        if let c = S.binomialCoefficient(f + s - 1, f) {
            let v = c * pow(p, s) * S.complementPower(p, f)
            if v > 1e-290, v.isFinite { return v }
        }
        return s / (f + s) * S.binomialProbability(s, f + s, p)
    }

    /// P(X = k) for the hypergeometric distribution: k successes in a sample of n from N holding
    /// M successes (Loader's form: three binomial terms at p = n/N).
    static func hypergeometricTerm(_ k: Double, _ n: Double, _ m: Double, _ population: Double) -> Double {
        let p = n / population, q = (population - n) / population
        let p1 = S.binomialTerm(k, m, p, q)
        let p2 = S.binomialTerm(n - k, population - m, p, q)
        let p3 = S.binomialTerm(n, population, p, q)
        return p1 * p2 / p3
    }
}
