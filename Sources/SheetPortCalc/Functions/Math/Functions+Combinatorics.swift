
extension Functions {
    /// n! / (k! (n-k)!) by the product of k ratios (n and k whole, 0 <= k <= n); infinite (#NUM!)
    /// without looping when min(k, n-k) passes 1,100, where it is above 2^1100.
    static func binomial(_ n: Double, _ k: Double) -> Double {
        let kk = Swift.min(k, n - k)
        guard kk <= 1_100 else { return .infinity }
        var r = 1.0, i = 1.0
        while i <= kk { r = r * (n - kk + i) / i; i += 1 }
        return r
    }

    static let combinatorics: [FunctionSpec] = [
        // COMBINA: combinations with repetitions, C(n+k-1, k); n and k truncated, #NUM! when negative
        // or when n is 0 and k is not (Excel-computed: calc-suite MATH_AND_TRIGONOMETRY__COMBIN_COMBINA).
        scalar("COMBINA", 2, 2) { ev, a in
            let n = (try ev.num(a[0])).rounded(.towardZero), k = (try ev.num(a[1])).rounded(.towardZero)
            guard n >= 0, k >= 0, n < 1e15, k < 1e15 else { return .value(.error(.number)) }
            if k == 0 { return .value(.number(1)) }
            guard n > 0 else { return .value(.error(.number)) }
            return number(binomial(n + k - 1, k).rounded())
        },
        // FACTDOUBLE: n!! = n (n-2) (n-4) ...; n truncated; -1 and 0 give 1, below -1 #NUM!, before
        // truncating (calc-suite formulas__test 'MATH & TRIG'!T31: FACTDOUBLE(-1.1) is #NUM!).
        scalar("FACTDOUBLE", 1, 1) { ev, a in
            let x = try analysisNumber(ev, a[0])
            guard x >= -1 else { return .value(.error(.number)) }
            let n = x.rounded(.towardZero)
            guard n <= 300 else { return .value(.error(.number)) }
            var r = 1.0, k = n
            while k > 1 { r *= k; k -= 2 }
            return number(r)
        },
        // MULTINOMIAL: (a1 + a2 + ...)! / (a1! a2! ...), each truncated; a negative one is #NUM!.
        raw("MULTINOMIAL", 1, 255) { ev, a in
            var total = 0.0, r = 1.0
            var failed = false
            try analysisValues(ev, a) { x0 in
                let x = x0.rounded(.towardZero)
                guard x >= 0, x < 1e6 else { failed = true; return }
                // r *= C(total + x, x), one factor at a time.
                var i = 1.0
                while i <= x && r.isFinite { total += 1; r = r * total / i; i += 1 }
            }
            return failed ? .value(.error(.number)) : number(r)
        },
        // GCD and LCM read every argument before judging one: a boolean or text anywhere is
        // #VALUE! even after a negative number (calc-suite formulas__test 'MATH & TRIG'!Y34,
        // GCD(-0.4,TRUE), and AR34, Y37).
        raw("GCD", 1, 255) { ev, a in
            var g = 0.0
            for x0 in try analysisList(ev, a) {
                guard x0 >= 0, x0 < 9.007199254740992e15 else { throw EvalInterrupt.error(.number) }
                var p = g, q = x0.rounded(.towardZero)
                while q > 0 { (p, q) = (q, p.truncatingRemainder(dividingBy: q)) }
                g = p
            }
            return number(g)
        },
        raw("LCM", 1, 255) { ev, a in
            var l = 1.0, any = false
            // A blank cell in a range counts as 0, so the multiple is 0 (calc-suite GCD_LCM I35: LCM(G35:H35), G35 blank).
            for case .ref(let r) in a where !r.isSingleCell {
                var filled = 0
                try ev.forEachCell(ev.clipped(r)) { _, _, v in if v != .empty { filled += 1 } }
                if filled < r.rows * r.columns { l = 0 }
            }
            for x0 in try analysisList(ev, a) {
                guard x0 >= 0, x0 < 9.007199254740992e15 else { throw EvalInterrupt.error(.number) }
                any = true
                let x = x0.rounded(.towardZero)
                if x == 0 || l == 0 { l = 0; continue }
                var p = l, q = x
                while q > 0 { (p, q) = (q, p.truncatingRemainder(dividingBy: q)) }
                l = l / p * x
            }
            guard l.isFinite, l < 9.007199254740992e15 else { return .value(.error(.number)) }
            return number(any ? l : 0)
        },
    ]
}
