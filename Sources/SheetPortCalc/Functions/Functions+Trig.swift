/// SIN, COS and TAN as Excel computes them.
///
/// Excel reduces the argument by the x87 extended-precision pi (64-bit mantissa), which is
/// 5.0e-20 above the true pi: its `SIN(PI())` is 1.22514845490862E-16 where a correctly rounded
/// sine gives 1.2246467991473532E-16. Near multiples of pi/2 the result is tiny and that
/// difference shows in the 4th digit, so the argument is reduced here by the same constant, in
/// double-double arithmetic (corpus poi__47813.xlsx, 1,440 SIN/COS of RADIANS cached by Excel,
/// all match; a correctly rounded sine misses 102).
enum ExcelTrig {
    /// Excel answers `#NUM!` for SIN, COS and TAN of |x| >= 2^27.
    static let limit = 134_217_728.0

    /// Half of the x87 pi as a double-double: `Double.pi / 2` plus the rest (exact in a double).
    static let halfPiHigh = Double.pi / 2
    static let halfPiLow = 0x1.1a8p-53 / 2

    /// The quadrant and the reduced argument `x - n * pi_x87 / 2` as a double-double (hi, lo).
    static func reduce(_ x: Double) -> (quadrant: Int, hi: Double, lo: Double) {
        let n = (x / halfPiHigh).rounded(.toNearestOrEven)
        guard n != 0 else { return (0, x, 0) }
        // n * halfPiHigh exactly as p + pe; x - p is exact when they are close (Sterbenz).
        let p = n * halfPiHigh
        let pe = (n).multipliedAdding(halfPiHigh, -p)
        let q = n * halfPiLow
        let qe = (n).multipliedAdding(halfPiLow, -q)
        var (s, e) = twoSum(x - p, -pe)
        var t: Double
        (s, t) = twoSum(s, -q)
        e += t - qe
        (s, t) = twoSum(s, e)
        let quadrant = Int(n.truncatingRemainder(dividingBy: 4))
        return ((quadrant + 4) % 4, s, t)
    }

    /// Knuth's exact sum: `a + b == s + e`.
    @inline(__always) static func twoSum(_ a: Double, _ b: Double) -> (Double, Double) {
        let s = a + b
        let bb = s - a
        return (s, (a - (s - bb)) + (b - bb))
    }

    /// sin and cos of the reduced argument (first order in the low part).
    static func sinCos(_ r: (quadrant: Int, hi: Double, lo: Double)) -> (sin: Double, cos: Double) {
        let s0 = cSin(r.hi), c0 = cCos(r.hi)
        let s = s0 + r.lo * c0, c = c0 - r.lo * s0
        switch r.quadrant {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }

    static func sin(_ x: Double) -> Double? {
        guard Swift.abs(x) < limit else { return nil }
        return sinCos(reduce(x)).sin
    }

    static func cos(_ x: Double) -> Double? {
        guard Swift.abs(x) < limit else { return nil }
        return sinCos(reduce(x)).cos
    }

    static func tan(_ x: Double) -> Double? {
        guard Swift.abs(x) < limit else { return nil }
        let r = reduce(x)
        let (s, c) = sinCos(r)
        guard c != 0 else { return nil }
        // The quotient of the two reduced values: near pi/2 the cosine carries Excel's offset.
        if r.quadrant % 2 == 0 {
            let t0 = cTan(r.hi)
            return t0 + r.lo * (1 + t0 * t0)
        }
        return s / c
    }
}

extension Double {
    /// `self * b + c` with one rounding (fused multiply-add).
    @inline(__always) func multipliedAdding(_ b: Double, _ c: Double) -> Double {
        c.addingProduct(self, b)
    }
}
