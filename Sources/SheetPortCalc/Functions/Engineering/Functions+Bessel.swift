
/// The Bessel functions as Excel computes them: the polynomial and rational approximations of
/// Abramowitz and Stegun (9.8.1-9.8.8) and Hart for orders 0 and 1, then recurrence (upward for
/// K and Y, and for J when x > n; Miller's downward recurrence for I and for J when x <= n), as
/// Numerical Recipes presents them. Their error (about 1e-8 relative) is Excel's: BESSELK(2,0) is
/// 0.11389388, the sum of the coefficients (the calc suite's ENGINEERING__BESSEL: every I, K
/// and Y value there agrees to 1e-15).
enum Bessel {
    /// Miller's recurrence starts 2 (n + sqrt(40 n)) terms up; values past 1e10 are rescaled.
    static let accuracy = 40.0
    static let big = 1e10
    static let bigInverse = 1e-10

    @inline(__always) static func poly(_ y: Double, _ c: [Double]) -> Double {
        var r = 0.0
        for k in stride(from: c.count - 1, through: 0, by: -1) { r = r * y + c[k] }
        return r
    }

    static func i0(_ x: Double) -> Double {
        let ax = Swift.abs(x)
        if ax < 3.75 {
            let y = (x / 3.75) * (x / 3.75)
            return poly(y, [1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.360768e-1, 0.45813e-2])
        }
        let y = 3.75 / ax
        return (cExp(ax) / ax.squareRoot()) * poly(y, [0.39894228, 0.1328592e-1, 0.225319e-2, -0.157565e-2, 0.916281e-2,
                                                         -0.2057706e-1, 0.2635537e-1, -0.1647633e-1, 0.392377e-2])
    }

    static func i1(_ x: Double) -> Double {
        let ax = Swift.abs(x)
        var r: Double
        if ax < 3.75 {
            let y = (x / 3.75) * (x / 3.75)
            r = ax * poly(y, [0.5, 0.87890594, 0.51498869, 0.15084934, 0.2658733e-1, 0.301532e-2, 0.32411e-3])
        } else {
            let y = 3.75 / ax
            r = poly(y, [0.39894228, -0.3988024e-1, -0.362018e-2, 0.163801e-2, -0.1031555e-1, 0.2282967e-1, -0.2895312e-1,
                         0.1787654e-1, -0.420059e-2])
            r *= cExp(ax) / ax.squareRoot()
        }
        return x < 0 ? -r : r
    }

    static func i(_ n: Int, _ x: Double) -> Double {
        if n == 0 { return i0(x) }
        if n == 1 { return i1(x) }
        if x == 0 { return 0 }
        let tox = 2 / Swift.abs(x)
        var bip = 0.0, bi = 1.0, r = 0.0
        var j = 2 * (n + Int((accuracy * Double(n)).squareRoot()))
        while j > 0 {
            let bim = bip + Double(j) * tox * bi
            bip = bi
            bi = bim
            if Swift.abs(bi) > big { r *= bigInverse; bi *= bigInverse; bip *= bigInverse }
            if j == n { r = bip }
            j -= 1
        }
        r *= i0(x) / bi
        return x < 0 && n % 2 == 1 ? -r : r
    }

    static func k0(_ x: Double) -> Double {
        if x <= 2 {
            let y = x * x / 4
            return -cLog(x / 2) * i0(x) + poly(y, [-0.57721566, 0.42278420, 0.23069756, 0.3488590e-1, 0.262698e-2, 0.10750e-3, 0.74e-5])
        }
        let y = 2 / x
        return cExp(-x) / x.squareRoot() * poly(y, [1.25331414, -0.7832358e-1, 0.2189568e-1, -0.1062446e-1, 0.587872e-2, -0.251540e-2, 0.53208e-3])
    }

    static func k1(_ x: Double) -> Double {
        if x <= 2 {
            let y = x * x / 4
            return cLog(x / 2) * i1(x) + (1 / x) * poly(y, [1.0, 0.15443144, -0.67278579, -0.18156897, -0.1919402e-1, -0.110404e-2, -0.4686e-4])
        }
        let y = 2 / x
        return cExp(-x) / x.squareRoot() * poly(y, [1.25331414, 0.23498619, -0.3655620e-1, 0.1504268e-1, -0.780353e-2, 0.325614e-2, -0.68245e-3])
    }

    /// K_n(x) for x > 0, by upward recurrence.
    static func k(_ n: Int, _ x: Double) -> Double {
        if n == 0 { return k0(x) }
        if n == 1 { return k1(x) }
        let tox = 2 / x
        var bkm = k0(x), bk = k1(x)
        for j in 1..<n { (bkm, bk) = (bk, bkm + Double(j) * tox * bk) }
        return bk
    }

    /// The large-x form of J0/Y0 (`sinCos` false: J) and J1/Y1.
    static func asymptotic(_ ax: Double, order: Int, y0: Bool) -> Double {
        let z = 8 / ax, y = z * z
        let xx = ax - (order == 0 ? 0.785398164 : 2.356194491)
        let p: Double, q: Double
        if order == 0 {
            p = poly(y, [1.0, -0.1098628627e-2, 0.2734510407e-4, -0.2073370639e-5, 0.2093887211e-6])
            q = poly(y, [-0.1562499995e-1, 0.1430488765e-3, -0.6911147651e-5, 0.7621095161e-6, y0 ? -0.934945152e-7 : -0.934935152e-7])
        } else {
            p = poly(y, [1.0, 0.183105e-2, -0.3516396496e-4, 0.2457520174e-5, -0.240337019e-6])
            q = poly(y, [0.04687499995, -0.2002690873e-3, 0.8449199096e-5, -0.88228987e-6, 0.105787412e-6])
        }
        let s = (0.636619772 / ax).squareRoot()
        return y0 ? s * (cSin(xx) * p + z * cCos(xx) * q) : s * (cCos(xx) * p - z * cSin(xx) * q)
    }

    static func j0(_ x: Double) -> Double {
        let ax = Swift.abs(x)
        if ax < 8 {
            let y = x * x
            return poly(y, [57568490574.0, -13362590354.0, 651619640.7, -11214424.18, 77392.33017, -184.9052456])
                / poly(y, [57568490411.0, 1029532985.0, 9494680.718, 59272.64853, 267.8532712, 1.0])
        }
        return asymptotic(ax, order: 0, y0: false)
    }

    static func j1(_ x: Double) -> Double {
        let ax = Swift.abs(x)
        if ax < 8 {
            let y = x * x
            return x * poly(y, [72362614232.0, -7895059235.0, 242396853.1, -2972611.439, 15704.48260, -30.16036606])
                / poly(y, [144725228442.0, 2300535178.0, 18583304.74, 99447.43394, 376.9991397, 1.0])
        }
        let r = asymptotic(ax, order: 1, y0: false)
        return x < 0 ? -r : r
    }

    static func j(_ n: Int, _ x: Double) -> Double {
        if n == 0 { return j0(x) }
        if n == 1 { return j1(x) }
        let ax = Swift.abs(x)
        if ax == 0 { return 0 }
        let tox = 2 / ax
        var r: Double
        if ax > Double(n) {
            var bjm = j0(ax), bj = j1(ax)
            for k in 1..<n { (bjm, bj) = (bj, Double(k) * tox * bj - bjm) }
            r = bj
        } else {
            let m = 2 * ((n + Int((accuracy * Double(n)).squareRoot())) / 2)
            var even = false
            var bjp = 0.0, bj = 1.0, sum = 0.0
            r = 0
            var k = m
            while k > 0 {
                let bjm = Double(k) * tox * bj - bjp
                bjp = bj
                bj = bjm
                if Swift.abs(bj) > big { bj *= bigInverse; bjp *= bigInverse; r *= bigInverse; sum *= bigInverse }
                if even { sum += bj }
                even.toggle()
                if k == n { r = bjp }
                k -= 1
            }
            sum = 2 * sum - bj
            r /= sum
        }
        return x < 0 && n % 2 == 1 ? -r : r
    }

    static func y0(_ x: Double) -> Double {
        if x < 8 {
            let y = x * x
            return poly(y, [-2957821389.0, 7062834065.0, -512359803.6, 10879881.29, -86327.92757, 228.4622733])
                / poly(y, [40076544269.0, 745249964.8, 7189466.438, 47447.26470, 226.1030244, 1.0]) + 0.636619772 * j0(x) * cLog(x)
        }
        return asymptotic(x, order: 0, y0: true)
    }

    static func y1(_ x: Double) -> Double {
        if x < 8 {
            let y = x * x
            return x * poly(y, [-0.4900604943e13, 0.1275274390e13, -0.5153438139e11, 0.7349264551e9, -0.4237922726e7, 0.8511937935e4])
                / poly(y, [0.2499580570e14, 0.4244419664e12, 0.3733650367e10, 0.2245904002e8, 0.1020426050e6, 0.3549632885e3, 1.0])
                + 0.636619772 * (j1(x) * cLog(x) - 1 / x)
        }
        return asymptotic(x, order: 1, y0: true)
    }

    /// Y_n(x) for x > 0, by upward recurrence.
    static func y(_ n: Int, _ x: Double) -> Double {
        if n == 0 { return y0(x) }
        if n == 1 { return y1(x) }
        let tox = 2 / x
        var bym = y0(x), by = y1(x)
        for j in 1..<n { (bym, by) = (by, Double(j) * tox * by - bym) }
        return by
    }
}

extension Functions {
    /// BESSELI/J/K/Y(x, n): n truncated, #NUM! when negative (or past 100,000, which no recurrence
    /// here survives, but at x = 0); K and Y need x > 0; booleans are #VALUE!.
    static func bessel(_ name: String, positive: Bool, _ f: @escaping @Sendable (Int, Double) -> Double) -> FunctionSpec {
        scalar(name, 2, 2) { ev, a in
            let x = try analysisNumber(ev, a[0])
            let n = try analysisNumber(ev, a[1]).rounded(.towardZero)
            // I and J of every order past 0 vanish at 0, however large the order: BESSELI(0,1E7) is 0
            // (calc-suite formulas__test ENGINEERING!R3:R4).
            if !positive, x == 0, n >= 1 { return number(0) }
            guard n >= 0, n <= 100_000, !positive || x > 0 else { return .value(.error(.number)) }
            return number(f(Int(n), x))
        }
    }

    static let besselFunctions: [FunctionSpec] = [
        bessel("BESSELI", positive: false) { Bessel.i($0, $1) },
        bessel("BESSELJ", positive: false) { Bessel.j($0, $1) },
        bessel("BESSELK", positive: true) { Bessel.k($0, $1) },
        bessel("BESSELY", positive: true) { Bessel.y($0, $1) },
    ]
}
