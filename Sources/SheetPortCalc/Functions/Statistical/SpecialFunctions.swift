#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The two tails of a distribution at a point, each computed without subtracting from 1 where it
/// is the small one: `lower` is P(X ≤ x), `upper` is P(X > x).
struct Tail: Equatable {
    var lower: Double
    var upper: Double

    /// The tails the other way round (a distribution mirrored, or a complement swapped in).
    var swapped: Tail { Tail(lower: upper, upper: lower) }
}

/// The special functions every distribution is built on, once each: log-gamma and the Stirling
/// error, Loader's saddle-point terms for binomial and Poisson probabilities, the normal
/// distribution and its inverse, the regularized incomplete gamma and beta functions and their
/// inverses, and the one root finder the inverses share. Accurate to a few units of the last
/// place of a double where the conditioning allows (tested against 40-digit values).
enum SpecialFunctions {
    static let lnSqrt2Pi = 0.918_938_533_204_672_741_780_329_736_406
    static let sqrt2Pi = 2.506_628_274_631_000_502_415_765_284_811
    static let sqrtPi = 1.772_453_850_905_516_027_298_167_483_341
    /// The most terms a series or continued fraction takes (they need about 10·√a for a parameter
    /// a: full precision up to a ≈ 10^8, a bounded time beyond).
    static let maxTerms = 200_000

    // MARK: gamma

    /// ln|Γ(x)| (reentrant: the C library's `lgamma` writes a global sign).
    static func logGamma(_ x: Double) -> Double {
        var sign: Int32 = 0
        return lgamma_r(x, &sign)
    }

    /// ζ(2) ... ζ(29), for ln Γ(1 + a)'s Taylor series.
    private static let zeta: [Double] = [
        1.6449340668482264, 1.2020569031595942, 1.0823232337111381, 1.03692775514337, 1.0173430619844492,
        1.008349277381923, 1.0040773561979444, 1.0020083928260821, 1.000994575127818, 1.0004941886041194,
        1.000246086553308, 1.0001227133475785, 1.0000612481350588, 1.000030588236307, 1.0000152822594086,
        1.0000076371976379, 1.000003817293265, 1.0000019082127165, 1.0000009539620338, 1.0000004769329869,
        1.0000002384505027, 1.000000119219926, 1.000000059608189, 1.0000000298035034, 1.0000000149015549,
        1.0000000074507118, 1.000000003725334, 1.0000000018626598,
    ]

    /// ln Γ(1 + a) with its relative accuracy near a = 0 (the C library's lgamma has only its
    /// absolute accuracy there): −γa + Σ (−a)^k ζ(k)/k for |a| ≤ 0.2.
    static func logGamma1p(_ a: Double) -> Double {
        guard Swift.abs(a) <= 0.2 else { return logGamma(1 + a) }
        var sum = 0.0
        var power = -a
        for k in 2...29 {
            power *= -a
            sum += power * zeta[k - 2] / Double(k)
        }
        return -0.5772156649015329 * a + sum
    }

    /// Γ(x) (infinite at 0 and the negative integers, where the caller answers an error).
    static func gamma(_ x: Double) -> Double { tgamma(x) }

    /// ln(n! / (√(2πn) (n/e)^n)) at the half-integers 0 ... 15 (40-digit values).
    private static let stirlingErrorHalves: [Double] = [
        0.0, 0.1534264097200273452914, 0.08106146679532725821967, 0.05481412105191765389614,
        0.04134069595540929409382, 0.03316287351993628748511, 0.02767792568499833914879,
        0.02374616365629749597133, 0.02079067210376509311152, 0.01848845053267318523078,
        0.01664469118982119216319, 0.01513497322191737887351, 0.01387612882307074799875,
        0.01281046524292022692425, 0.01189670994589177009506, 0.01110455975820691732663,
        0.01041126526197209649748, 0.00979941612615880329839, 0.009255462182712732917729,
        0.008768700134139385462955, 0.008330563433362871256469, 0.00793411456431402054725,
        0.007573675487951840794972, 0.007244554301320383179546, 0.006942840107209529865664,
        0.006665247032707682442356, 0.00640899418800420706844, 0.006171712263039457647535,
        0.005951370112758847735624, 0.005746216513010115682026, 0.005554733551962801371039,
    ]

    /// The error of Stirling's formula, ln Γ(n+1) − (n + ½) ln n + n − ln √(2π), for n ≥ 0
    /// (Loader 2000): a table at the half-integers up to 15, the asymptotic series above.
    static func stirlingError(_ n: Double) -> Double {
        if n <= 15 {
            let twice = n + n
            if twice == twice.rounded() { return stirlingErrorHalves[Int(twice)] }
            return logGamma(n + 1) - (n + 0.5) * log(n) + n - lnSqrt2Pi
        }
        let s0 = 1.0 / 12, s1 = 1.0 / 360, s2 = 1.0 / 1260, s3 = 1.0 / 1680, s4 = 1.0 / 1188
        let nn = n * n
        if n > 500 { return (s0 - s1 / nn) / n }
        if n > 80 { return (s0 - (s1 - s2 / nn) / nn) / n }
        if n > 35 { return (s0 - (s1 - (s2 - s3 / nn) / nn) / nn) / n }
        return (s0 - (s1 - (s2 - (s3 - s4 / nn) / nn) / nn) / nn) / n
    }

    /// ln B(a, b), without the cancellation of three large log-gammas (Stirling errors for the
    /// large arguments, as TOMS 708 does).
    static func logBeta(_ a: Double, _ b: Double) -> Double {
        let p = Swift.min(a, b), q = Swift.max(a, b)
        if p >= 10 {
            let correction = stirlingError(p) + stirlingError(q) - stirlingError(p + q)
            return -0.5 * log(q) + lnSqrt2Pi + correction + (p - 0.5) * log(p / (p + q)) + q * log1p(-p / (p + q))
        }
        if q >= 10 {
            let correction = stirlingError(q) - stirlingError(p + q)
            return logGamma(p) + correction + p - p * log(p + q) + (q - 0.5) * log1p(-p / (p + q))
        }
        return logGamma(p) + logGamma(q) - logGamma(p + q)
    }

    // MARK: Loader's saddle-point terms

    /// x ln(x/m) + m − x, the deviance term, without cancellation when x is near m.
    static func deviance(_ x: Double, _ m: Double) -> Double {
        if Swift.abs(x - m) < 0.1 * (x + m) {
            var v = (x - m) / (x + m)
            var s = (x - m) * v
            var ej = 2 * x * v
            v *= v
            var j = 1.0
            while j < 1000 {
                ej *= v
                let next = s + ej / (2 * j + 1)
                if next == s { return next }
                s = next
                j += 1
            }
            return s
        }
        return x * log(x / m) + m - x
    }

    /// λ^x e^(−λ) / Γ(x+1) for real x ≥ 0: the Poisson probability, and the prefix of the
    /// incomplete gamma function.
    static func poissonTerm(_ x: Double, _ lambda: Double) -> Double {
        if lambda == 0 { return x == 0 ? 1 : 0 }
        if x < 0 || !lambda.isFinite { return 0 }
        if x == 0 { return exp(-lambda) }
        // Far from the mode the powers carry the digits (pow and Γ round once each); near it, and
        // past Γ's range, Loader's deviance form does.
        if x < 170, lambda < 700 {
            let power = pow(lambda, x)
            if power > 1e-290, power < 1e290 {
                let direct = power * exp(-lambda) / gamma(x + 1)
                if direct > 1e-290 { return direct }
            }
        }
        if x < 1 { return exp(x * log(lambda) - lambda - logGamma(x + 1)) }
        return exp(-stirlingError(x) - deviance(x, lambda)) / (sqrt2Pi * x.squareRoot())
    }

    /// C(n, k) p^k q^(n−k) for real 0 ≤ k ≤ n, q = 1 − p given apart (exact when it is the
    /// complement the caller computed from its own data).
    static func binomialTerm(_ k: Double, _ n: Double, _ p: Double, _ q: Double) -> Double {
        if p == 0 { return k == 0 ? 1 : 0 }
        if q == 0 { return k == n ? 1 : 0 }
        if k == 0 {
            if n == 0 { return 1 }
            return exp(p < 0.1 ? -deviance(n, n * q) - n * p : n * log(q))
        }
        if k == n { return exp(q < 0.1 ? -deviance(n, n * p) - n * q : n * log(p)) }
        if k < 0 || k > n { return 0 }
        let lc = stirlingError(n) - stirlingError(k) - stirlingError(n - k) - deviance(k, n * p) - deviance(n - k, n * q)
        let lf = 2 * lnSqrt2Pi + log(k) + log1p(-k / n)
        return exp(lc - 0.5 * lf)
    }

    /// C(n, k): exact while it stays below 2^53, else the product of the ratios (n − i)/(i + 1),
    /// a rounding or two per factor, for k or n − k up to 1,000; nil beyond (or past a double).
    static func binomialCoefficient(_ n: Double, _ k: Double) -> Double? {
        guard k >= 0, k <= n, n < 1e15 else { return nil }
        let j = Swift.min(k, n - k)
        guard j <= 1000 else { return nil }
        var c: UInt64 = 1
        var i: UInt64 = 0
        let top = UInt64(n)
        while i < UInt64(j) {
            // c · (n − i) / (i + 1) stays whole: divide by the common factor first.
            let numerator = top - i, denominator = i + 1
            let g = gcd(c, denominator)
            let (product, overflow) = (c / g).multipliedReportingOverflow(by: numerator / (denominator / g))
            guard !overflow, product < 1 << 53 else { break }
            c = product
            i += 1
        }
        var value = Double(c)
        while i < UInt64(j) {
            value = value * Double(top - i) / Double(i + 1)
            i += 1
        }
        return value.isFinite ? value : nil
    }

    private static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }

    /// (1 − p)^m for the p given: the power of the rounded complement q = 1 − p, corrected by the
    /// rounding e = (1 − q) − p (exact, by Sterbenz) so that a large m does not multiply it.
    static func complementPower(_ p: Double, _ m: Double) -> Double {
        let q = 1 - p
        let e = (1 - q) - p
        return pow(q, m) * exp(m * log1p(e / q))
    }

    /// P(X = k) for the binomial distribution with the complement 1 − p taken exactly: the
    /// exact coefficient times the powers when it is small, else Loader's term corrected for the
    /// rounding of 1 − p (Loader's form at an inconsistent pair carries a factor e^(ne)).
    static func binomialProbability(_ k: Double, _ n: Double, _ p: Double) -> Double {
        if k < 0 || k > n { return 0 }
        if p <= 0 { return k == 0 ? 1 : 0 }
        if p >= 1 { return k == n ? 1 : 0 }
        if k == 0 { return complementPower(p, n) }
        if k == n { return pow(p, n) }
        if let c = binomialCoefficient(n, k) {
            let v = c * pow(p, k) * complementPower(p, n - k)
            if v > 1e-290, v.isFinite { return v }
        }
        let q = 1 - p
        let e = (1 - q) - p
        return binomialTerm(k, n, p, q) * exp(-n * e + (n - k) * log1p(e / q))
    }

    /// The most terms `discreteTail` sums before the caller falls back to a special function.
    static let maxSummedTerms = 20_000.0

    /// Both tails of a unimodal discrete distribution at k, by summing its probabilities from k
    /// away from the mode (the smaller side: each term accurate, so the sum is), until they no
    /// longer count; nil when that would take more than `maxSummedTerms` terms.
    static func discreteTail(at k: Double, mode: Double, in low: Double, _ high: Double, _ term: (Double) -> Double) -> Tail? {
        if k < low { return Tail(lower: 0, upper: 1) }
        if k >= high { return Tail(lower: 1, upper: 0) }
        var sum = 0.0
        if k < mode {
            var j = k
            while j >= low {
                let t = term(j)
                sum += t
                if t <= sum * 1e-17 { break }
                if k - j > maxSummedTerms { return nil }
                j -= 1
            }
            let lower = Swift.min(sum, 1)
            return Tail(lower: lower, upper: 1 - lower)
        }
        var j = k + 1
        while j <= high {
            let t = term(j)
            sum += t
            if t <= sum * 1e-17 { break }
            if j - k > maxSummedTerms { return nil }
            j += 1
        }
        let upper = Swift.min(sum, 1)
        return Tail(lower: 1 - upper, upper: upper)
    }

    // MARK: normal distribution

    private static let invSqrt2High = 0.70710678118654757    // 1/√2 rounded
    private static let invSqrt2Low = -4.8336466567264567e-17 // 1/√2 − invSqrt2High

    /// Φ(x), the standard normal distribution function, with both tails accurate: erfc of x/√2,
    /// the rounding of that quotient corrected to first order.
    static func normalTail(_ x: Double) -> Tail {
        if x.isNaN { return Tail(lower: .nan, upper: .nan) }
        if Swift.abs(x) > 40 { return x > 0 ? Tail(lower: 1, upper: 0) : Tail(lower: 0, upper: 1) }
        func upper(_ z: Double) -> Double {  // P(X > z) = erfc(z/√2)/2
            let high = z * invSqrt2High
            let low = fma(z, invSqrt2High, -high) + z * invSqrt2Low
            let e = ErrorFunction.erfc(high)
            return 0.5 * (e - low * 2 / sqrtPi * exp(-high * high))
        }
        let u = upper(x), l = upper(-x)
        return Tail(lower: l, upper: u)
    }

    /// φ(x) = e^(−x²/2)/√(2π), x² split so that its rounding does not reach the result.
    static func normalDensity(_ x: Double) -> Double {
        let a = Swift.abs(x)
        if a > 40 { return 0 }
        let high = (a * 65536).rounded(.towardZero) / 65536
        let low = a - high
        return exp(-0.5 * high * high) * exp(-0.5 * low * (a + high)) / sqrt2Pi
    }

    /// Φ⁻¹(p) by Wichura's algorithm AS 241 (PPND16, relative accuracy about 1e-16, Excel's
    /// values to the last digit in the tails and near ½), given both p and q = 1 − p so that the
    /// upper tail keeps its digits.
    static func normalQuantile(lower p: Double, upper q: Double) -> Double {
        if p <= 0 { return -.infinity }
        if q <= 0 { return .infinity }
        let d = p - 0.5
        var x: Double
        if Swift.abs(d) <= 0.425 {
            let r = 0.180625 - d * d
            x = d * (((((((2509.0809287301226727 * r + 33430.575583588128105) * r + 67265.770927008700853) * r
                + 45921.953931549871457) * r + 13731.693765509461125) * r + 1971.5909503065514427) * r
                + 133.14166789178437745) * r + 3.387132872796366608)
                / (((((((5226.495278852854561 * r + 28729.085735721942674) * r + 39307.89580009271061) * r
                    + 21213.794301586595867) * r + 5394.1960214247511077) * r + 687.1870074920579083) * r
                    + 42.313330701600911252) * r + 1)
        } else {
            var r = (-log(Swift.min(p, q))).squareRoot()
            if r <= 5 {
                r -= 1.6
                x = (((((((7.7454501427834140764e-4 * r + 0.0227238449892691845833) * r + 0.24178072517745061177) * r
                    + 1.27045825245236838258) * r + 3.64784832476320460504) * r + 5.7694972214606914055) * r
                    + 4.6303378461565452959) * r + 1.42343711074968357734)
                    / (((((((1.05075007164441684324e-9 * r + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r
                        + 0.14810397642748007459) * r + 0.68976733498510000455) * r + 1.6763848301838038494) * r
                        + 2.05319162663775882187) * r + 1)
            } else {
                r -= 5
                x = (((((((2.01033439929228813265e-7 * r + 2.71155556874348757815e-5) * r + 0.0012426609473880784386) * r
                    + 0.026532189526576123093) * r + 0.29656057182850489123) * r + 1.7848265399172913358) * r
                    + 5.4637849111641143699) * r + 6.6579046435011037772)
                    / (((((((2.04426310338993978564e-15 * r + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r
                        + 7.868691311456132591e-4) * r + 0.0148753612908506148525) * r + 0.13692988092273580531) * r
                        + 0.59983220655588793769) * r + 1)
            }
            if d < 0 { x = -x }
        }
        return x
    }

    // MARK: incomplete gamma

    /// The regularized incomplete gamma functions P(a, x) (lower) and Q(a, x) (upper), a > 0:
    /// the power series below a + 1, Lentz's continued fraction above, each scaled by Loader's
    /// accurate x^a e^(−x)/Γ(a+1).
    static func regularizedGamma(_ a: Double, _ x: Double) -> Tail {
        if x <= 0 { return Tail(lower: 0, upper: 1) }
        if x.isInfinite { return Tail(lower: 1, upper: 0) }
        let prefix = poissonTerm(a, x)
        if prefix == 0 { return x < a ? Tail(lower: 0, upper: 1) : Tail(lower: 1, upper: 0) }
        if x < a + 1 {
            var term = 1.0, sum = 1.0, n = 1.0
            while n < Double(maxTerms) {
                term *= x / (a + n)
                sum += term
                if term < sum * 1e-17 { break }
                n += 1
            }
            let p = Swift.min(prefix * sum, 1)
            if a < 1 {
                // P may be near 1 here: Q as 1 − x^a/Γ(a+1) (by expm1) plus x^a/Γ(a+1) times the
                // alternating tail of γ(a, x)'s series, Σ (−1)^(n+1) a xⁿ / ((a+n) n!), keeps its digits.
                let exponent = a * log(x) - logGamma1p(a)
                let u = exp(exponent)
                var term = 1.0, tail = 0.0, n = 1.0
                while n < 200 {
                    term *= -x / n
                    let next = tail - a * term / (a + n)
                    if next == tail { break }
                    tail = next
                    n += 1
                }
                let q = -expm1(exponent) + u * tail
                return Tail(lower: p, upper: Swift.max(0, Swift.min(q, 1)))
            }
            return Tail(lower: p, upper: 1 - p)
        }
        // 1/(x + 1 − a − 1(1 − a)/(x + 3 − a − 2(2 − a)/(x + 5 − a − ...))) (Numerical Recipes' gcf).
        var fraction = ContinuedFraction(denominator: x + 1 - a, c: 1 / ContinuedFraction.tiny)
        var i = 1.0
        while i < Double(maxTerms) {
            let delta = fraction.add(-i * (i - a), x + 1 - a + 2 * i)
            if Swift.abs(delta - 1) <= 1e-16 { break }
            i += 1
        }
        let h = fraction.value
        let q = Swift.min(prefix * a * h, 1)
        return Tail(lower: 1 - q, upper: q)
    }

    /// The gamma density x^(a−1) e^(−x)/Γ(a) (scale 1), x ≥ 0.
    static func gammaDensity(_ a: Double, _ x: Double) -> Double {
        if x < 0 { return 0 }
        if x == 0 { return a < 1 ? .infinity : (a == 1 ? 1 : 0) }
        if a < 1 { return poissonTerm(a, x) * a / x }
        return poissonTerm(a - 1, x)
    }

    /// The x with P(a, x) = p (equivalently Q(a, x) = q), a > 0.
    static func inverseRegularizedGamma(_ a: Double, lower p: Double, upper q: Double) -> Double {
        if p <= 0 { return 0 }
        if q <= 0 { return .infinity }
        // Starting point (Numerical Recipes' invgammp): Wilson–Hilferty above 1, the small-x power law below.
        var guess: Double
        if a > 1 {
            let t = (-2 * log(Swift.min(p, q))).squareRoot()
            var z = (2.30753 + t * 0.27061) / (1 + t * (0.99229 + t * 0.04481)) - t
            if p < q { z = -z }
            guess = Swift.max(1e-3, a * pow(1 - 1 / (9 * a) - z / (3 * a.squareRoot()), 3))
        } else {
            let t = 1 - a * (0.253 + a * 0.12)
            guess = p < t ? pow(p / t, 1 / a) : 1 - log1p(-(p - t) / (1 - t))
        }
        if !(guess > 0) || !guess.isFinite { guess = a }
        return quantile(lower: p, upper: q, guess: guess, in: 0, .infinity, tail: { regularizedGamma(a, $0) },
                        density: { gammaDensity(a, $0) })
    }

    // MARK: incomplete beta

    /// x^a y^b / B(a, b), y = 1 − x: by Loader's binomial term when both parameters are at least 1
    /// (no cancellation for large ones), by logarithms otherwise.
    static func betaPrefix(_ a: Double, _ b: Double, _ x: Double, _ y: Double) -> Double {
        if a + b < 170 {
            // Small parameters: the powers and the gammas, each rounded once.
            let power = pow(x, a) * pow(y, b)
            if power > 1e-290, power.isFinite {
                let direct = power * (gamma(a + b) / (gamma(a) * gamma(b)))
                if direct > 1e-290, direct.isFinite { return direct }
            }
        }
        if a >= 1 && b >= 1 {
            return x * y * (a + b - 1) * binomialTerm(a - 1, a + b - 2, x, y)
        }
        let lx = x < 0.5 ? log(x) : log1p(-y)
        let ly = y < 0.5 ? log(y) : log1p(-x)
        return exp(a * lx + b * ly - logBeta(a, b))
    }

    /// The regularized incomplete beta function I_x(a, b) (lower) and 1 − I_x(a, b) (upper),
    /// a, b > 0, y = 1 − x given apart: Lentz's continued fraction on the side where it converges.
    static func regularizedBeta(_ a: Double, _ b: Double, x: Double, y: Double) -> Tail {
        if x <= 0 { return Tail(lower: 0, upper: 1) }
        if y <= 0 { return Tail(lower: 1, upper: 0) }
        if x > (a + 1) / (a + b + 2) { return regularizedBeta(b, a, x: y, y: x).swapped }
        let front = betaPrefix(a, b, x, y) / a
        if front == 0 { return Tail(lower: 0, upper: 1) }
        let qab = a + b, qap = a + 1, qam = a - 1
        // 1/(1 + d₁/(1 + d₂/(1 + ...))) (Numerical Recipes' betacf), its first level already taken.
        var fraction = ContinuedFraction(denominator: 1 - qab * x / qap, c: 1)
        var m = 1.0
        while m < Double(maxTerms) {
            let m2 = 2 * m
            _ = fraction.add(m * (b - m) * x / ((qam + m2) * (a + m2)), 1)
            let delta = fraction.add(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)), 1)
            if Swift.abs(delta - 1) <= 1e-16 { break }
            m += 1
        }
        let h = fraction.value
        let p = Swift.min(front * h, 1)
        return Tail(lower: p, upper: 1 - p)
    }

    /// The beta density x^(a−1) y^(b−1)/B(a, b), y = 1 − x.
    static func betaDensity(_ a: Double, _ b: Double, _ x: Double, _ y: Double) -> Double {
        if x < 0 || y < 0 { return 0 }
        if x == 0 { return a < 1 ? .infinity : (a == 1 ? b : 0) }
        if y == 0 { return b < 1 ? .infinity : (b == 1 ? a : 0) }
        if a >= 1 && b >= 1 { return (a + b - 1) * binomialTerm(a - 1, a + b - 2, x, y) }
        return betaPrefix(a, b, x, y) / (x * y)
    }

    /// The x in [0, 1] with I_x(a, b) = p (equivalently 1 − I_x(a, b) = q).
    static func inverseRegularizedBeta(_ a: Double, _ b: Double, lower p: Double, upper q: Double) -> Double {
        if p <= 0 { return 0 }
        if q <= 0 { return 1 }
        // Starting point (Numerical Recipes' invbetai).
        var guess: Double
        if a >= 1 && b >= 1 {
            let t = (-2 * log(Swift.min(p, q))).squareRoot()
            var z = (2.30753 + t * 0.27061) / (1 + t * (0.99229 + t * 0.04481)) - t
            if p < q { z = -z }
            let al = (z * z - 3) / 6
            let h = 2 / (1 / (2 * a - 1) + 1 / (2 * b - 1))
            let w = z * (al + h).squareRoot() / h - (1 / (2 * b - 1) - 1 / (2 * a - 1)) * (al + 5.0 / 6 - 2 / (3 * h))
            guess = a / (a + b * exp(2 * w))
        } else {
            let t = exp(a * log(a / (a + b))) / a, u = exp(b * log(b / (a + b))) / b
            let w = t + u
            guess = p < t / w ? pow(a * w * p, 1 / a) : 1 - pow(b * w * q, 1 / b)
        }
        if !(guess > 0 && guess < 1) { guess = 0.5 }
        return quantile(lower: p, upper: q, guess: guess, in: 0, 1, tail: { regularizedBeta(a, b, x: $0, y: 1 - $0) },
                        density: { betaDensity(a, b, $0, 1 - $0) })
    }

    /// A continued fraction 1/(b₁ + a₂/(b₂ + a₃/(b₃ + ...))) by Lentz's method, a term at a
    /// time, tiny values standing in for zeros so that no division fails.
    struct ContinuedFraction {
        static let tiny = 1e-300
        private(set) var value: Double
        private var c: Double, d: Double

        /// Starts at 1/b₁, with Lentz's running ratio c (1/tiny from the start, or the value the
        /// first level already gave it).
        init(denominator b: Double, c: Double) {
            d = 1 / (Swift.abs(b) < Self.tiny ? Self.tiny : b)
            self.c = c
            value = d
        }

        /// Adds the term a/(b + ...); answers the factor the value changed by (1 when converged).
        mutating func add(_ a: Double, _ b: Double) -> Double {
            d = b + a * d
            if Swift.abs(d) < Self.tiny { d = Self.tiny }
            c = b + a / c
            if Swift.abs(c) < Self.tiny { c = Self.tiny }
            d = 1 / d
            let delta = c * d
            value *= delta
            return delta
        }
    }

    // MARK: the root finder

    /// The point where an increasing distribution reaches probability p (upper tail q = 1 − p),
    /// inside (low, high): Newton steps from `guess`, solving on the smaller tail so the target
    /// keeps its digits, each step kept inside a shrinking bracket (a bisection, or a doubling
    /// toward an open end, when it would leave it), until the step is below the double's
    /// resolution. Used by every inverse distribution function.
    static func quantile(lower p: Double, upper q: Double, guess: Double, in low: Double, _ high: Double,
                         tail: (Double) -> Tail, density: (Double) -> Double) -> Double {
        let onLower = p <= q
        var lo = low, hi = high
        var x = guess
        if !(x > lo && x < hi) { x = lo.isFinite && hi.isFinite ? lo + (hi - lo) / 2 : (lo.isFinite ? lo + 1 : (hi.isFinite ? hi - 1 : 0)) }
        var best = x, bestError = Double.infinity
        for _ in 0..<1000 {
            let t = tail(x)
            let f = onLower ? t.lower - p : q - t.upper
            if f == 0 { return x }
            let error = Swift.abs(f)
            if error < bestError { best = x; bestError = error }
            if f < 0 { lo = x } else { hi = x }
            let slope = density(x)
            var next = slope > 0 && slope.isFinite ? x - f / slope : .nan
            if !(next > lo && next < hi) {
                if hi == .infinity {
                    next = x > 0 ? x * 2 : (x == 0 ? 1 : x / 2)
                } else if lo == -.infinity {
                    next = x < 0 ? x * 2 : (x == 0 ? -1 : x / 2)
                } else if lo > 0 && hi / lo > 16 {
                    next = (lo * hi).squareRoot()  // bisect on a logarithmic scale: tails span decades
                } else {
                    next = lo + (hi - lo) / 2
                }
                if !(next > lo && next < hi) { break }
            }
            if Swift.abs(next - x) <= 2e-16 * Swift.abs(x) || next == x {
                x = next
                break
            }
            x = next
        }
        let t = tail(x)
        let f = Swift.abs(onLower ? t.lower - p : q - t.upper)
        return f <= bestError ? x : best
    }
}
