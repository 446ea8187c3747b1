extension Functions {
    /// ROUND's rounding: half away from zero on the decimal digits Excel shows (15 significant).
    static func round(_ x: Double, _ digits: Int, _ mode: FloatingPointRoundingRule) -> Double {
        guard x.isFinite, digits < 300 else { return x }
        if digits <= -309 { return 0 }
        let f = Coercion.pow10(Swift.abs(digits))
        var scaled = digits >= 0 ? x * f : x / f
        // Past the doubles' range the digits asked for are below x's own precision: x is the answer
        // (TRUNC(9.99999E+307,5), calc-suite MROUND_TRUNC_INT TRUNC!C57).
        guard scaled.isFinite else { return x }
        // Snap to 15 significant digits first so that 2.675 rounds as Excel does.
        scaled = Coercion.round15(scaled)
        var r = scaled.rounded(mode)
        r = digits >= 0 ? r / f : r * f
        return r == 0 ? 0 : r
    }

    /// A digits argument of ROUND and kin: truncated, and clamped (huge counts change nothing).
    static func digits(_ ev: Evaluator, _ op: Operand) throws -> Int {
        let d = (try ev.num(op)).rounded(.towardZero)
        return Int(Swift.max(-400, Swift.min(400, d)))
    }

    static func unary(_ name: String, _ f: @escaping @Sendable (Double) -> Double?) -> FunctionSpec {
        scalar(name, 1, 1) { ev, a in
            guard let r = f(try ev.num(a[0])) else { return .value(.error(.number)) }
            return number(r)
        }
    }

    /// CEILING.MATH, CEILING.PRECISE, ISO.CEILING (`rule` .up) and FLOOR.MATH, FLOOR.PRECISE
    /// (.down): x rounded by `rule` to a multiple of |significance| (default 1), 0 for a zero
    /// either; a non-zero mode (the .MATH ones' third argument) rounds a negative x the other way.
    static func multiple(_ ev: Evaluator, _ a: [Operand], _ rule: FloatingPointRoundingRule) throws -> Operand {
        let x = try ev.num(a[0]), s = Swift.abs(try ev.num(a, 1, default: 1)), mode = try ev.num(a, 2, default: 0)
        if s == 0 || x == 0 { return .value(.number(0)) }
        let q = Coercion.round15(x / s)
        return number((x < 0 && mode != 0 ? q.rounded(rule == .up ? .down : .up) : q.rounded(rule)) * s)
    }

    static let math: [FunctionSpec] = [
        scalar("ROUND", 2, 2) { ev, a in number(round(try ev.num(a[0]), try digits(ev, a[1]), .toNearestOrAwayFromZero)) },
        scalar("ROUNDUP", 2, 2) { ev, a in number(round(try ev.num(a[0]), try digits(ev, a[1]), .awayFromZero)) },
        scalar("ROUNDDOWN", 2, 2) { ev, a in number(round(try ev.num(a[0]), try digits(ev, a[1]), .towardZero)) },
        scalar("TRUNC", 1, 2) { ev, a in number(round(try ev.num(a[0]), ev.isMissing(a, 1) ? 0 : try digits(ev, a[1]), .towardZero)) },
        scalar("INT", 1, 1) { ev, a in number((try ev.num(a[0])).rounded(.down)) },
        // MROUND and QUOTIENT came from the Analysis ToolPak: a boolean is #VALUE!, an omitted
        // argument #N/A (calc-suite MATH_AND_TRIGONOMETRY__MROUND_TRUNC_INT, __MOD_QUOTIENT).
        scalar("MROUND", 2, 2) { ev, a in
            let x = try analysisArgument(ev, a, 0), m = try analysisArgument(ev, a, 1)
            if m == 0 { return .value(.number(0)) }
            guard (x >= 0) == (m >= 0) || x == 0 else { return .value(.error(.number)) }
            return number(Coercion.round15(x / m).rounded(.toNearestOrAwayFromZero) * m)
        },
        scalar("MOD", 2, 2) { ev, a in
            let x = try ev.num(a[0]), y = try ev.num(a[1])
            guard y != 0 else { return .value(.error(.divisionByZero)) }
            // The exact remainder (fmod) moved to y's sign, as Excel: MOD(5,1E-10) is
            // 9.999981783901343E-11, not the 0 of x - y*INT(x/y) (calc-suite MOD_QUOTIENT C20, C25, C26).
            var r = x.truncatingRemainder(dividingBy: y)
            if r != 0, (r < 0) != (y < 0) { r += y }
            return number(Swift.abs(r) < 1e-300 ? 0 : r)
        },
        scalar("QUOTIENT", 2, 2) { ev, a in
            let x = try analysisArgument(ev, a, 0), y = try analysisArgument(ev, a, 1)
            guard y != 0 else { return .value(.error(.divisionByZero)) }
            return number((x / y).rounded(.towardZero))
        },
        unary("ABS") { Swift.abs($0) },
        unary("SIGN") { $0 > 0 ? 1 : ($0 < 0 ? -1 : 0) },
        unary("SQRT") { $0 < 0 ? nil : $0.squareRoot() },
        unary("EXP") { cExp($0) },
        unary("LN") { $0 <= 0 ? nil : cLog($0) },
        unary("LOG10") { $0 <= 0 ? nil : Foundation_log10($0) },
        scalar("LOG", 1, 2) { ev, a in
            let x = try ev.num(a[0]), b = try ev.num(a, 1, default: 10)
            guard x > 0, b > 0 else { return .value(.error(.number)) }
            guard b != 1 else { return .value(.error(.divisionByZero)) }
            return number(b == 10 ? Foundation_log10(x) : cLog(x) / cLog(b))
        },
        scalar("POWER", 2, 2) { ev, a in .value(Arithmetic.power(try ev.num(a[0]), try ev.num(a[1]))) },
        unary("SIN") { ExcelTrig.sin($0) }, unary("COS") { ExcelTrig.cos($0) }, unary("TAN") { ExcelTrig.tan($0) },
        unary("ASIN") { Swift.abs($0) > 1 ? nil : cAsin($0) }, unary("ACOS") { Swift.abs($0) > 1 ? nil : cAcos($0) },
        unary("ATAN") { cAtan($0) },
        unary("SINH") { cSinh($0) }, unary("COSH") { cCosh($0) }, unary("TANH") { cTanh($0) },
        unary("DEGREES") { $0 * 180 / Double.pi }, unary("RADIANS") { $0 * (Double.pi / 180) },  // as Excel: x * (pi/180)
        scalar("ATAN2", 2, 2) { ev, a in
            let x = try ev.num(a[0]), y = try ev.num(a[1])
            guard x != 0 || y != 0 else { return .value(.error(.divisionByZero)) }
            return number(cAtan2(y, x))
        },
        scalar("PI", 0, 0) { _, _ in .value(.number(Double.pi)) },
        scalar("RAND", 0, 0, volatile: true) { ev, _ in
            .value(.number(Double(ev.engine.random.next() >> 11) / Double(1 << 53)))
        },
        // A boolean bound is #VALUE!, as in the Analysis ToolPak it came from (calc-suite
        // formulas__test 'MATH & TRIG'!X57: RANDBETWEEN(-3,TRUE)).
        scalar("RANDBETWEEN", 2, 2, volatile: true) { ev, a in
            let lo = (try analysisNumber(ev, a[0])).rounded(.up), hi = (try analysisNumber(ev, a[1])).rounded(.down)
            guard lo <= hi else { return .value(.error(.number)) }
            let span = UInt64(hi - lo) + 1
            return .value(.number(lo + Double(ev.engine.random.next() % span)))
        },
        scalar("CEILING", 1, 2) { ev, a in
            let x = try ev.num(a[0]), s = try ev.num(a, 1, default: 1)
            if s == 0 || x == 0 { return .value(.number(0)) }
            if x > 0 && s < 0 { return .value(.error(.number)) }
            if x < 0 && s > 0 { return number((Coercion.round15(x / s)).rounded(.up) * s) }
            return number((Coercion.round15(x / s)).rounded(.awayFromZero) * s)
        },
        scalar("FLOOR", 1, 2) { ev, a in
            let x = try ev.num(a[0]), s = try ev.num(a, 1, default: 1)
            if x == 0 { return .value(.number(0)) }
            if s == 0 { return .value(.error(.divisionByZero)) }
            if x > 0 && s < 0 { return .value(.error(.number)) }
            if x < 0 && s > 0 { return number((Coercion.round15(x / s)).rounded(.down) * s) }
            return number((Coercion.round15(x / s)).rounded(.towardZero) * s)
        },
        scalar("CEILING.MATH", 1, 3) { ev, a in try multiple(ev, a, .up) },
        scalar("CEILING.PRECISE", 1, 2) { ev, a in try multiple(ev, a, .up) },
        scalar("ISO.CEILING", 1, 2) { ev, a in try multiple(ev, a, .up) },
        scalar("FLOOR.MATH", 1, 3) { ev, a in try multiple(ev, a, .down) },
        scalar("FLOOR.PRECISE", 1, 2) { ev, a in try multiple(ev, a, .down) },
        scalar("EVEN", 1, 1) { ev, a in
            let x = try ev.num(a[0])
            let r = (Swift.abs(x) / 2).rounded(.up) * 2
            return number(x < 0 ? -r : r)
        },
        scalar("ODD", 1, 1) { ev, a in
            let x = try ev.num(a[0])
            var r = Swift.abs(x).rounded(.up)
            if r.truncatingRemainder(dividingBy: 2) == 0 { r += 1 }
            return number(x < 0 ? -r : r)
        },
        scalar("FACT", 1, 1) { ev, a in
            let x = (try ev.num(a[0])).rounded(.towardZero)
            guard x >= 0 else { return .value(.error(.number)) }
            guard x <= 170 else { return .value(.error(.number)) }
            var r = 1.0
            var k = 2.0
            while k <= x { r *= k; k += 1 }
            return number(r)
        },
        scalar("COMBIN", 2, 2) { ev, a in
            let n = (try ev.num(a[0])).rounded(.towardZero), k = (try ev.num(a[1])).rounded(.towardZero)
            guard n >= 0, k >= 0, k <= n else { return .value(.error(.number)) }
            return number(binomial(n, k).rounded())
        },
    ]
}
