
extension Functions {
    /// 2^48, the bound of the BIT functions' numbers.
    static let bitLimit = 281_474_976_710_656.0

    /// A number of the BIT functions: whole, 0 <= x < 2^48 (#NUM! otherwise); unlike the ToolPak's
    /// functions they read a boolean as 1 or 0 (calc-suite ENGINEERING__BITs rows 13-16).
    static func bitNumber(_ ev: Evaluator, _ op: Operand) throws -> UInt64 {
        let x = try ev.num(op)
        guard x >= 0, x < bitLimit, x == x.rounded(.towardZero) else { throw EvalInterrupt.error(.number) }
        return UInt64(x)
    }

    static func bitwise(_ name: String, _ f: @escaping @Sendable (UInt64, UInt64) -> UInt64) -> FunctionSpec {
        scalar(name, 2, 2) { ev, a in
            let x = try bitNumber(ev, a[0]), y = try bitNumber(ev, a[1])
            return .value(.number(Double(f(x, y))))
        }
    }

    /// BITLSHIFT and BITRSHIFT: a shift of at most 53 places either way (truncated); a left shift
    /// past 2^48 is #NUM!.
    static func shift(_ name: String, left: Bool) -> FunctionSpec {
        scalar(name, 2, 2) { ev, a in
            let x = try bitNumber(ev, a[0])
            let s0 = try ev.num(a[1]).rounded(.towardZero)
            guard Swift.abs(s0) <= 53 else { return .value(.error(.number)) }
            let s = left ? Int(s0) : -Int(s0)
            if s >= 0 {
                let r = Double(x) * Double(UInt64(1) << UInt64(s))
                guard r < bitLimit else { return .value(.error(.number)) }
                return .value(.number(r))
            }
            return .value(.number(Double(x >> UInt64(-s))))
        }
    }

    static let bits: [FunctionSpec] = [
        bitwise("BITAND") { $0 & $1 }, bitwise("BITOR") { $0 | $1 }, bitwise("BITXOR") { $0 ^ $1 },
        shift("BITLSHIFT", left: true), shift("BITRSHIFT", left: false),
        // DELTA(a, [b = 0]): 1 when equal; GESTEP(n, [step = 0]): 1 when n >= step.
        scalar("DELTA", 1, 2) { ev, a in
            let x = try analysisNumber(ev, a[0]), y = ev.isMissing(a, 1) ? 0 : try analysisNumber(ev, a[1])
            return .value(.number(x == y ? 1 : 0))
        },
        scalar("GESTEP", 1, 2) { ev, a in
            let x = try analysisNumber(ev, a[0]), y = ev.isMissing(a, 1) ? 0 : try analysisNumber(ev, a[1])
            return .value(.number(x >= y ? 1 : 0))
        },
        // ERF(lower, [upper]): erf(lower), or erf(upper) - erf(lower); ERFC(x) = 1 - erf(x).
        scalar("ERF", 1, 2) { ev, a in
            let x = try analysisNumber(ev, a[0])
            if ev.isMissing(a, 1) { return number(ErrorFunction.erf(x)) }
            let y = try analysisNumber(ev, a[1])
            return number(ErrorFunction.erf(y) - ErrorFunction.erf(x))
        },
        scalar("ERF.PRECISE", 1, 1) { ev, a in number(ErrorFunction.erf(try analysisNumber(ev, a[0]))) },
        scalar("ERFC", 1, 1) { ev, a in number(ErrorFunction.erfc(try analysisNumber(ev, a[0]))) },
        scalar("ERFC.PRECISE", 1, 1) { ev, a in number(ErrorFunction.erfc(try analysisNumber(ev, a[0]))) },
    ]
}
