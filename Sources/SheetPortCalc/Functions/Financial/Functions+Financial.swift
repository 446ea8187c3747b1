extension Functions {
    /// Every financial function: annuities, cash flows, depreciation, securities and bonds.
    static let financial: [FunctionSpec] = annuities + cashFlows + depreciation + securities + bonds

    /// The most periods a financial function steps through one by one (CUMIPMT, DB, VDB, the
    /// amortizations): past it the answer is #NUM! rather than a calculation holding its thread.
    static let maxSteppedPeriods = 1_000_000.0

    /// `base` to the power `exponent` as Excel's financial functions raise growth factors: an
    /// integral exponent by repeated squaring (its last digit is Excel's, where `pow` differs by an ulp).
    static func growth(_ base: Double, _ exponent: Double) -> Double {
        guard exponent == exponent.rounded(), Swift.abs(exponent) < 4_294_967_296 else { return cPow(base, exponent) }
        var n = UInt64(Swift.abs(exponent)), b = base, result = 1.0
        while n > 0 {
            if n & 1 == 1 { result *= b }
            b *= b
            n >>= 1
        }
        return exponent < 0 ? 1 / result : result
    }

    /// Future value of an annuity (Excel's sign convention: money paid out is negative).
    static func fv(_ rate: Double, _ nper: Double, _ pmt: Double, _ pv: Double, _ type: Double) -> Double {
        if rate == 0 { return -(pv + pmt * nper) }
        let g = growth(1 + rate, nper)
        return -(pv * g + pmt * (1 + rate * type) * ((g - 1) / rate))
    }

    static func pv(_ rate: Double, _ nper: Double, _ pmt: Double, _ fv: Double, _ type: Double) -> Double {
        if rate == 0 { return -(fv + pmt * nper) }
        let g = growth(1 + rate, nper)
        return (-fv - pmt * (1 + rate * type) * ((g - 1) / rate)) / g
    }

    static func pmt(_ rate: Double, _ nper: Double, _ pv: Double, _ fv: Double, _ type: Double) -> Double {
        if rate == 0 { return -(pv + fv) / nper }
        let g = growth(1 + rate, nper)
        return -(rate * (fv + pv * g)) / ((1 + rate * type) * (g - 1))
    }

    /// The interest part of payment `per`: the rate times the balance before it (payments at the
    /// start of a period owe none in the first).
    static func ipmt(_ rate: Double, _ per: Double, _ nper: Double, _ pv: Double, _ fv: Double, _ type: Double) -> Double {
        let payment = pmt(rate, nper, pv, fv, type)
        if per == 1 { return type == 1 ? 0 : -pv * rate }
        if type == 1 { return (Functions.fv(rate, per - 2, payment, pv, 1) - payment) * rate }
        return Functions.fv(rate, per - 1, payment, pv, 0) * rate
    }

    /// The principal part of payment `per`, in closed form: `-rate (fv + pv) / (g - 1)` grown by
    /// `(1 + rate)^(per - 1)` (one period less for payments at the start, whose first is all
    /// principal), as Excel computes it. The difference `pmt - ipmt` cancels to rounding noise where
    /// the principal part is tiny (PPMT at a rate of 500 % over 33 periods is -3.77e-20, not 0).
    static func ppmt(_ rate: Double, _ per: Double, _ nper: Double, _ pv: Double, _ fv: Double, _ type: Double) -> Double {
        if rate == 0 || (type == 1 && per == 1) { return pmt(rate, nper, pv, fv, type) }
        let principal = -rate * (fv + pv) / (growth(1 + rate, nper) - 1) * growth(1 + rate, per - 1)
        return type == 1 ? principal / (1 + rate) : principal
    }

    /// The payment type argument: 0 (end of period) unless non-zero.
    static func paymentType(_ ev: Evaluator, _ a: [Operand], _ k: Int) throws -> Double {
        try ev.num(a, k, default: 0) != 0 ? 1 : 0
    }

    /// The optional fv/pv argument of the annuity functions (0 when omitted).
    static func optional(_ ev: Evaluator, _ a: [Operand], _ k: Int) throws -> Double { try ev.num(a, k, default: 0) }

    /// A period number for IPMT/PPMT: at least 1 and before nper + 1, else #NUM!.
    static func checkPeriod(_ per: Double, _ nper: Double) throws {
        guard per >= 1, per < nper + 1 else { throw EvalInterrupt.error(.number) }
    }

    /// A result that needed a division by a zero growth factor (a rate of -100%) is #DIV/0!.
    static func annuity(_ x: Double, rate: Double) -> Operand {
        if !x.isFinite && rate == -1 { return .value(.error(.divisionByZero)) }
        return number(x)
    }

    static let annuities: [FunctionSpec] = [
        scalar("PMT", 3, 5) { ev, a in
            let rate = try ev.num(a[0]), nper = try ev.num(a[1]), pv = try ev.num(a[2])
            let f = try optional(ev, a, 3), type = try paymentType(ev, a, 4)
            guard nper != 0, rate > -1 else { return .value(.error(.number)) }
            return number(pmt(rate, nper, pv, f, type))
        },
        scalar("IPMT", 4, 6) { ev, a in
            let rate = try ev.num(a[0]), per = try ev.num(a[1]), nper = try ev.num(a[2]), pv = try ev.num(a[3])
            let f = try optional(ev, a, 4), type = try paymentType(ev, a, 5)
            try checkPeriod(per, nper)
            return annuity(ipmt(rate, per, nper, pv, f, type), rate: rate)
        },
        scalar("PPMT", 4, 6) { ev, a in
            let rate = try ev.num(a[0]), per = try ev.num(a[1]), nper = try ev.num(a[2]), pv = try ev.num(a[3])
            let f = try optional(ev, a, 4), type = try paymentType(ev, a, 5)
            try checkPeriod(per, nper)
            return annuity(ppmt(rate, per, nper, pv, f, type), rate: rate)
        },
        scalar("FV", 3, 5) { ev, a in
            let rate = try ev.num(a[0])
            return annuity(fv(rate, try ev.num(a[1]), try ev.num(a[2]), try optional(ev, a, 3), try paymentType(ev, a, 4)), rate: rate)
        },
        scalar("PV", 3, 5) { ev, a in
            let rate = try ev.num(a[0])
            return annuity(pv(rate, try ev.num(a[1]), try ev.num(a[2]), try optional(ev, a, 3), try paymentType(ev, a, 4)), rate: rate)
        },
        scalar("NPER", 3, 5) { ev, a in
            let rate = try ev.num(a[0]), p = try ev.num(a[1]), pv = try ev.num(a[2])
            let f = try optional(ev, a, 3), type = try paymentType(ev, a, 4)
            if rate == 0 {
                guard p != 0 else { return .value(.error(.number)) }
                return number(-(pv + f) / p)
            }
            let num = p * (1 + rate * type) - f * rate, den = pv * rate + p * (1 + rate * type)
            guard num / den > 0 else { return .value(.error(.number)) }
            return number(cLog(num / den) / cLog(1 + rate))
        },
        scalar("RATE", 3, 6) { ev, a in
            let nper = try ev.num(a[0]), p = try ev.num(a[1]), pv = try ev.num(a[2])
            let f = try optional(ev, a, 3), type = try paymentType(ev, a, 4)
            let guess = try ev.num(a, 5, default: 0.1)
            guard let r = rate(nper, p, pv, f, type, guess: guess), r > -1 else { return .value(.error(.number)) }
            return number(r)
        },
        scalar("CUMIPMT", 6, 6) { ev, a in
            let (rate, nper, pv, first, last, type) = try cumulativeArguments(ev, a)
            var s = 0.0
            for per in first...last { s += ipmt(rate, Double(per), nper, pv, 0, type) }
            return number(s)
        },
        scalar("CUMPRINC", 6, 6) { ev, a in
            let (rate, nper, pv, first, last, type) = try cumulativeArguments(ev, a)
            var s = 0.0
            for per in first...last { s += ppmt(rate, Double(per), nper, pv, 0, type) }
            return number(s)
        },
        scalar("ISPMT", 4, 4) { ev, a in
            let rate = try ev.num(a[0]), per = try ev.num(a[1]), nper = try ev.num(a[2]), pv = try ev.num(a[3])
            guard nper != 0 else { return .value(.error(.divisionByZero)) }
            return number(pv * rate * (per / nper - 1))
        },
        scalar("PDURATION", 3, 3) { ev, a in
            let rate = try ev.num(a[0]), pv = try ev.num(a[1]), f = try ev.num(a[2])
            guard rate > 0, pv > 0, f > 0 else { return .value(.error(.number)) }
            return number((cLog(f) - cLog(pv)) / cLog(1 + rate))
        },
        scalar("RRI", 3, 3) { ev, a in
            let nper = try ev.num(a[0]), pv = try ev.num(a[1]), f = try ev.num(a[2])
            guard nper > 0, pv != 0 else { return .value(.error(.number)) }
            return number(cPow(f / pv, 1 / nper) - 1)
        },
        scalar("EFFECT", 2, 2) { ev, a in
            let x = try AnalysisArguments(ev, a, defaults: [nil, nil])
            let rate = x[0], n = x[1].rounded(.towardZero)
            guard rate > 0, n >= 1 else { return .value(.error(.number)) }
            return number(cPow(1 + rate / n, n) - 1)
        },
        scalar("NOMINAL", 2, 2) { ev, a in
            let x = try AnalysisArguments(ev, a, defaults: [nil, nil])
            let rate = x[0], n = x[1].rounded(.towardZero)
            guard rate > 0, n >= 1 else { return .value(.error(.number)) }
            return number((cPow(1 + rate, 1 / n) - 1) * n)
        },
        raw("FVSCHEDULE", 2, 2) { ev, a in
            var value = try analysisNumber(ev, a[0])
            for r in try scheduleRates(ev, a[1]) { value *= 1 + r }
            return number(value)
        },
        scalar("DOLLARDE", 2, 2) { ev, a in
            let (whole, part, fraction, digits) = try dollarParts(ev, a)
            return number(whole + part * digits / fraction)
        },
        scalar("DOLLARFR", 2, 2) { ev, a in
            let (whole, part, fraction, digits) = try dollarParts(ev, a)
            return number(whole + part * fraction / digits)
        },
    ]

    /// DOLLARDE/DOLLARFR: the whole dollars, the fractional part, the fraction (truncated; #NUM!
    /// when negative, #DIV/0! when 0) and the power of ten at or above it.
    static func dollarParts(_ ev: Evaluator, _ a: [Operand]) throws -> (Double, Double, Double, Double) {
        let n = try AnalysisArguments(ev, a, defaults: [nil, nil])
        let x = n[0], fraction = n[1].rounded(.towardZero)
        guard fraction >= 0 else { throw EvalInterrupt.error(.number) }
        guard fraction > 0 else { throw EvalInterrupt.error(.divisionByZero) }
        let whole = x.rounded(.towardZero)
        return (whole, x - whole, fraction, cPow(10, Foundation_log10(fraction).rounded(.up)))
    }

    /// RATE by Newton's method from the guess (#NUM! when it does not converge).
    static func rate(_ nper: Double, _ pmt: Double, _ pv: Double, _ fv: Double, _ type: Double, guess: Double) -> Double? {
        solve(guess) { Functions.fv($0, nper, pmt, pv, type) - fv }
    }

    /// Newton's method with a numeric derivative: nil when it does not converge.
    static func solve(_ guess: Double, _ f: (Double) -> Double) -> Double? {
        var x = guess
        for _ in 0..<100 {
            let y = f(x)
            guard y.isFinite else { return nil }
            if y == 0 { return x }
            let h = Swift.max(1e-7, Swift.abs(x) * 1e-7)
            let d = (f(x + h) - y) / h
            guard d != 0, d.isFinite else { return nil }
            let next = x - y / d
            guard next.isFinite else { return nil }
            if Swift.abs(next - x) <= 1e-15 * Swift.max(1, Swift.abs(next)) { return next }
            x = next
        }
        return Swift.abs(f(x)) < 1e-7 ? x : nil
    }

    /// CUMIPMT/CUMPRINC arguments: rate, nper, pv, first and last period, type; #NUM! unless
    /// rate, nper, pv > 0, 1 <= first <= last <= nper and type 0 or 1.
    static func cumulativeArguments(_ ev: Evaluator, _ a: [Operand]) throws -> (Double, Double, Double, Int, Int, Double) {
        let x = try AnalysisArguments(ev, a, defaults: [nil, nil, nil, nil, nil, nil])
        let rate = x[0], nper = x[1], pv = x[2], first = x[3].rounded(.up), last = x[4].rounded(.towardZero), type = x[5]
        guard rate > 0, nper > 0, pv > 0, first >= 1, first <= last, last <= nper, type == 0 || type == 1,
              last - first < maxSteppedPeriods else {
            throw EvalInterrupt.error(.number)
        }
        return (rate, nper, pv, Int(first), Int(last), type)
    }

    /// FVSCHEDULE's rates: numbers and empty cells (0); text or a boolean in it is #VALUE!.
    static func scheduleRates(_ ev: Evaluator, _ op: Operand) throws -> [Double] {
        var rates: [Double] = []
        try ev.forEachValue([op], rowMajor: true) { v, direct in
            switch v {
            case .number(let x): rates.append(x)
            case .empty: if direct { rates.append(0) }
            case .error(let e): throw EvalInterrupt.error(e)
            case .text, .boolean, .array:
                if direct { rates.append(try ev.number(v)) } else { throw EvalInterrupt.error(.value) }
            }
        }
        return rates
    }
}
