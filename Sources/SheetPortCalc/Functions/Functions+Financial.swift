extension Functions {
    /// Future value of an annuity (Excel's sign convention).
    static func fv(_ rate: Double, _ nper: Double, _ pmt: Double, _ pv: Double, _ type: Double) -> Double {
        if rate == 0 { return -(pv + pmt * nper) }
        let g = cPow(1 + rate, nper)
        return -(pv * g + pmt * (1 + rate * type) * (g - 1) / rate)
    }

    static func pmt(_ rate: Double, _ nper: Double, _ pv: Double, _ fv: Double, _ type: Double) -> Double {
        if rate == 0 { return -(pv + fv) / nper }
        let g = cPow(1 + rate, nper)
        return -(rate * (fv + pv * g)) / ((1 + rate * type) * (g - 1))
    }

    static func ipmt(_ rate: Double, _ per: Double, _ nper: Double, _ pv: Double, _ fv: Double, _ type: Double) -> Double {
        let p = pmt(rate, nper, pv, fv, type)
        if per == 1 && type == 1 { return 0 }
        var balance = Functions.fv(rate, per - 1, p, pv, type)
        if type == 1 { balance -= p }
        return balance * rate
    }

    /// Newton's method with a bisection-free fallback: nil when it does not converge.
    static func solve(_ guess: Double, _ f: (Double) -> Double) -> Double? {
        var x = guess
        for _ in 0..<100 {
            let y = f(x)
            if Swift.abs(y) < 1e-10 { return x }
            let h = Swift.max(1e-7, Swift.abs(x) * 1e-7)
            let d = (f(x + h) - y) / h
            guard d != 0, d.isFinite else { return nil }
            let next = x - y / d
            guard next.isFinite else { return nil }
            if Swift.abs(next - x) < 1e-12 { return next }
            x = next
        }
        return Swift.abs(f(x)) < 1e-7 ? x : nil
    }

    static let financial: [FunctionSpec] = [
        scalar("PMT", 3, 5) { ev, a in
            let nper = try ev.num(a[1])
            guard nper != 0 else { return .value(.error(.number)) }
            return number(pmt(try ev.num(a[0]), nper, try ev.num(a[2]), try ev.num(a, 3, default: 0), try ev.num(a, 4, default: 0) != 0 ? 1 : 0))
        },
        scalar("IPMT", 4, 6) { ev, a in
            let per = try ev.num(a[1]), nper = try ev.num(a[2])
            guard per >= 1, per <= nper else { return .value(.error(.number)) }
            return number(ipmt(try ev.num(a[0]), per, nper, try ev.num(a[3]), try ev.num(a, 4, default: 0), try ev.num(a, 5, default: 0) != 0 ? 1 : 0))
        },
        scalar("PPMT", 4, 6) { ev, a in
            let rate = try ev.num(a[0]), per = try ev.num(a[1]), nper = try ev.num(a[2]), pv = try ev.num(a[3])
            let f = try ev.num(a, 4, default: 0), type = try ev.num(a, 5, default: 0) != 0 ? 1.0 : 0
            guard per >= 1, per <= nper else { return .value(.error(.number)) }
            return number(pmt(rate, nper, pv, f, type) - ipmt(rate, per, nper, pv, f, type))
        },
        scalar("FV", 3, 5) { ev, a in
            number(fv(try ev.num(a[0]), try ev.num(a[1]), try ev.num(a[2]), try ev.num(a, 3, default: 0), try ev.num(a, 4, default: 0) != 0 ? 1 : 0))
        },
        scalar("PV", 3, 5) { ev, a in
            let rate = try ev.num(a[0]), nper = try ev.num(a[1]), p = try ev.num(a[2])
            let f = try ev.num(a, 3, default: 0), type = try ev.num(a, 4, default: 0) != 0 ? 1.0 : 0
            if rate == 0 { return number(-(f + p * nper)) }
            let g = cPow(1 + rate, nper)
            return number(-(f + p * (1 + rate * type) * (g - 1) / rate) / g)
        },
        scalar("NPER", 3, 5) { ev, a in
            let rate = try ev.num(a[0]), p = try ev.num(a[1]), pv = try ev.num(a[2])
            let f = try ev.num(a, 3, default: 0), type = try ev.num(a, 4, default: 0) != 0 ? 1.0 : 0
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
            let f = try ev.num(a, 3, default: 0), type = try ev.num(a, 4, default: 0) != 0 ? 1.0 : 0
            let guess = try ev.num(a, 5, default: 0.1)
            guard let r = solve(guess, { fv($0, nper, p, pv, type) - f }) else { return .value(.error(.number)) }
            return number(r)
        },
        raw("NPV", 2, 255) { ev, a in
            let rate = try ev.num(a[0])
            guard rate != -1 else { return .value(.error(.divisionByZero)) }
            var s = 0.0, k = 1.0
            try ev.forEachNumber(Array(a.dropFirst())) { s += $0 / cPow(1 + rate, k); k += 1 }
            return number(s)
        },
        raw("IRR", 1, 2) { ev, a in
            let flows = try ev.numbers([a[0]])
            guard flows.contains(where: { $0 > 0 }), flows.contains(where: { $0 < 0 }) else { return .value(.error(.number)) }
            let guess = ev.isMissing(a, 1) ? 0.1 : try ev.num(a[1])
            let npv: (Double) -> Double = { r in
                var s = 0.0
                for (k, x) in flows.enumerated() { s += x / cPow(1 + r, Double(k)) }
                return s
            }
            guard let r = solve(guess, npv) else { return .value(.error(.number)) }
            return number(r)
        },
    ]
}
