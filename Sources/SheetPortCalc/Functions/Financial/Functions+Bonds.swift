extension Functions {
    static let bonds: [FunctionSpec] = [
        scalar("COUPDAYBS", 3, 4) { ev, a in number(try coupons(ev, a).daysBeforeSettlement) },
        scalar("COUPDAYS", 3, 4) { ev, a in number(try coupons(ev, a).periodDays) },
        scalar("COUPDAYSNC", 3, 4) { ev, a in number(try coupons(ev, a).daysAfterSettlement) },
        scalar("COUPNCD", 3, 4) { ev, a in number(try serial(ev, try coupons(ev, a).next)) },
        scalar("COUPPCD", 3, 4) { ev, a in number(try serial(ev, try coupons(ev, a).previous)) },
        scalar("COUPNUM", 3, 4) { ev, a in number(try coupons(ev, a).count) },
        scalar("PRICE", 6, 7) { ev, a in
            let x = try AnalysisArguments(ev, a, defaults: [nil, nil, nil, nil, nil, nil, 0])
            let settlement = try x.date(0), maturity = try x.date(1), rate = x[2], yld = x[3], redemption = x[4]
            let frequency = try x.frequency(5), basis = try x.basis(6)
            guard settlement < maturity, rate >= 0, yld >= 0, redemption > 0 else { return .value(.error(.number)) }
            let schedule = CouponSchedule(settlement: settlement, maturity: maturity, frequency: frequency, basis: basis)
            return number(bondPrice(schedule, rate: rate, yield: yld, redemption: redemption))
        },
        scalar("YIELD", 6, 7) { ev, a in
            let x = try AnalysisArguments(ev, a, defaults: [nil, nil, nil, nil, nil, nil, 0])
            let settlement = try x.date(0), maturity = try x.date(1), rate = x[2], price = x[3], redemption = x[4]
            let frequency = try x.frequency(5), basis = try x.basis(6)
            guard settlement < maturity, rate >= 0, price > 0, redemption > 0 else { return .value(.error(.number)) }
            let schedule = CouponSchedule(settlement: settlement, maturity: maturity, frequency: frequency, basis: basis)
            guard let y = bondYield(schedule, rate: rate, price: price, redemption: redemption) else { return .value(.error(.number)) }
            return number(y)
        },
        scalar("DURATION", 5, 6) { ev, a in
            let (schedule, coupon, yld) = try durationArguments(ev, a)
            return number(duration(schedule, coupon: coupon, yield: yld))
        },
        scalar("MDURATION", 5, 6) { ev, a in
            let (schedule, coupon, yld) = try durationArguments(ev, a)
            return number(duration(schedule, coupon: coupon, yield: yld) / (1 + yld / Double(schedule.frequency)))
        },
        scalar("ODDFPRICE", 8, 9) { ev, a in
            let bond = try oddFirstBond(ev, a)
            guard bond.yieldOrPrice >= 0 else { return .value(.error(.number)) }
            return number(oddFirstPrice(bond, yield: bond.yieldOrPrice))
        },
        scalar("ODDFYIELD", 8, 9) { ev, a in
            let bond = try oddFirstBond(ev, a)
            guard bond.yieldOrPrice > 0 else { return .value(.error(.number)) }
            // Excel's starting point: a first-order yield from the price's distance to par.
            let years = bond.basis.days(bond.settlement, bond.maturity), px = bond.yieldOrPrice - 100
            let guess = (bond.rate * years * 100 - px) / (px / 4 + years * px / 2 + years * 100)
            guard let y = solve(guess.isFinite ? guess : 0.1, { oddFirstPrice(bond, yield: $0) - bond.yieldOrPrice }) else {
                return .value(.error(.number))
            }
            return number(y)
        },
        scalar("ODDLPRICE", 7, 8) { ev, a in
            let bond = try oddLastBond(ev, a)
            guard bond.yieldOrPrice >= 0 else { return .value(.error(.number)) }
            return number(oddLast(bond, price: true))
        },
        scalar("ODDLYIELD", 7, 8) { ev, a in
            let bond = try oddLastBond(ev, a)
            guard bond.yieldOrPrice > 0 else { return .value(.error(.number)) }
            return number(oddLast(bond, price: false))
        },
    ]

    /// The coupon schedule of the COUP* arguments (settlement, maturity, frequency, [basis]).
    static func coupons(_ ev: Evaluator, _ a: [Operand]) throws -> CouponSchedule {
        let x = try AnalysisArguments(ev, a, defaults: [nil, nil, nil, 0])
        let settlement = try x.date(0), maturity = try x.date(1), frequency = try x.frequency(2), basis = try x.basis(3)
        guard settlement < maturity else { throw EvalInterrupt.error(.number) }
        return CouponSchedule(settlement: settlement, maturity: maturity, frequency: frequency, basis: basis)
    }

    /// PRICE: the discounted coupons and redemption less the accrued interest; a single coupon
    /// left is discounted at simple interest.
    static func bondPrice(_ s: CouponSchedule, rate: Double, yield: Double, redemption: Double) -> Double {
        let frequency = Double(s.frequency)
        let n = s.count, e = s.periodDays, accrued = s.daysBeforeSettlement
        let dsc = e - accrued
        let coupon = 100 * rate / frequency
        let accruedInterest = coupon * accrued / e
        if n == 1 { return (redemption + coupon) / (1 + dsc / e * yield / frequency) - accruedInterest }
        let base = 1 + yield / frequency
        var value = redemption / cPow(base, n - 1 + dsc / e)
        var k = 1.0
        while k <= n {
            value += coupon / cPow(base, k - 1 + dsc / e)
            k += 1
        }
        return value - accruedInterest
    }

    /// YIELD: closed form with one coupon left, else the root of PRICE.
    static func bondYield(_ s: CouponSchedule, rate: Double, price: Double, redemption: Double) -> Double? {
        let frequency = Double(s.frequency)
        if s.count <= 1 {
            let e = s.periodDays, a = s.daysBeforeSettlement, dsr = e - a
            let paid = price / 100 + a / e * rate / frequency
            return ((redemption / 100 + rate / frequency) - paid) / paid * frequency * e / dsr
        }
        return solve(0.05) { bondPrice(s, rate: rate, yield: $0, redemption: redemption) - price }
    }

    /// DURATION/MDURATION arguments: the schedule (settlement before maturity), coupon and yield
    /// (not negative), else #NUM!.
    static func durationArguments(_ ev: Evaluator, _ a: [Operand]) throws -> (CouponSchedule, Double, Double) {
        let x = try AnalysisArguments(ev, a, defaults: [nil, nil, nil, nil, nil, 0])
        let settlement = try x.date(0), maturity = try x.date(1), coupon = x[2], yld = x[3]
        let frequency = try x.frequency(4), basis = try x.basis(5)
        guard settlement < maturity, coupon >= 0, yld >= 0 else { throw EvalInterrupt.error(.number) }
        return (CouponSchedule(settlement: settlement, maturity: maturity, frequency: frequency, basis: basis), coupon, yld)
    }

    /// Macaulay duration of a bond of par 100.
    static func duration(_ s: CouponSchedule, coupon: Double, yield: Double) -> Double {
        let frequency = Double(s.frequency)
        let e = s.periodDays, n = s.count, dsc = e - s.daysBeforeSettlement
        let offset = dsc / e, base = yield / frequency + 1
        let lastTime = offset + n - 1, discount = cPow(base, lastTime)
        var weighted = lastTime * 100 / discount, total = 100 / discount
        var k = 1.0
        while k <= n {
            let t = k - 1 + offset
            let flow = 100 * coupon / frequency / cPow(base, t)
            weighted += flow * t
            total += flow
            k += 1
        }
        return weighted / total / frequency
    }

    /// A bond with an odd first or last period and its terms.
    struct OddBond {
        var settlement: CivilDate
        var maturity: CivilDate
        /// The issue date (odd first period) or the last interest date (odd last period).
        var issue: CivilDate
        var firstCoupon: CivilDate
        var rate: Double
        var yieldOrPrice: Double
        var redemption: Double
        var frequency: Int
        var basis: DayCountBasis
    }

    /// ODDFPRICE/ODDFYIELD arguments: maturity > first coupon > settlement > issue, the first
    /// coupon on the maturity's schedule, rate >= 0, redemption > 0; else #NUM!.
    static func oddFirstBond(_ ev: Evaluator, _ a: [Operand]) throws -> OddBond {
        let n = try AnalysisArguments(ev, a, defaults: [nil, nil, nil, nil, nil, nil, nil, nil, 0])
        let settlement = try n.date(0), maturity = try n.date(1), issue = try n.date(2), firstCoupon = try n.date(3)
        let rate = n[4], x = n[5], redemption = n[6], frequency = try n.frequency(7), basis = try n.basis(8)
        guard issue < settlement, settlement < firstCoupon, firstCoupon < maturity, rate >= 0, redemption > 0 else {
            throw EvalInterrupt.error(.number)
        }
        return OddBond(settlement: settlement, maturity: maturity, issue: issue, firstCoupon: firstCoupon, rate: rate,
                       yieldOrPrice: x, redemption: redemption, frequency: frequency, basis: basis)
    }

    /// ODDLPRICE/ODDLYIELD arguments: maturity > settlement > last interest, rate >= 0,
    /// redemption > 0; else #NUM!.
    static func oddLastBond(_ ev: Evaluator, _ a: [Operand]) throws -> OddBond {
        let n = try AnalysisArguments(ev, a, defaults: [nil, nil, nil, nil, nil, nil, nil, 0])
        let settlement = try n.date(0), maturity = try n.date(1), last = try n.date(2)
        let rate = n[3], x = n[4], redemption = n[5], frequency = try n.frequency(6), basis = try n.basis(7)
        guard last < settlement, settlement < maturity, rate >= 0, redemption > 0 else { throw EvalInterrupt.error(.number) }
        return OddBond(settlement: settlement, maturity: maturity, issue: last, firstCoupon: last, rate: rate,
                       yieldOrPrice: x, redemption: redemption, frequency: frequency, basis: basis)
    }

    /// Days from `s` to `e` by the basis, never negative.
    static func daysNotNegative(_ basis: DayCountBasis, _ s: CivilDate, _ e: CivilDate) -> Double { Swift.max(0, basis.days(s, e)) }

    /// ODDFPRICE: a short first period discounts its prorated coupon over the fraction of a
    /// period; a long one adds the quasi-coupon periods it spans.
    static func oddFirstPrice(_ b: OddBond, yield: Double) -> Double {
        let m = Double(b.frequency), months = 12 / b.frequency
        let first = CouponSchedule(settlement: b.settlement, maturity: b.firstCoupon, frequency: b.frequency, basis: b.basis)
        let e = first.periodDays
        let coupon = 100 * b.rate / m, base = yield / m + 1
        let dfc = daysNotNegative(b.basis, b.issue, b.firstCoupon)
        if dfc < e {
            let n = CouponSchedule(settlement: b.settlement, maturity: b.maturity, frequency: b.frequency, basis: b.basis).count
            let dsc = daysNotNegative(b.basis, b.settlement, b.firstCoupon)
            let a = daysNotNegative(b.basis, b.issue, b.settlement)
            let y = dsc / e
            var value = b.redemption / cPow(base, n - 1 + y) + coupon * dfc / e / cPow(base, y)
            var k = 2.0
            while k <= n {
                value += coupon / cPow(base, k - 1 + y)
                k += 1
            }
            return value - a / e * coupon
        }
        // Long first period: quasi-coupon periods back from the first coupon to the issue.
        let quasi = CouponSchedule(settlement: b.issue, maturity: b.firstCoupon, frequency: b.frequency, basis: b.basis).count
        var late = b.firstCoupon, dcnl = 0.0, anl = 0.0
        var index = Int(quasi)
        while index >= 1 {
            let early = late.addingMonths(-months)
            let nl = b.basis == .actualActual ? daysNotNegative(b.basis, early, late) : e
            let dci = index > 1 ? nl : daysNotNegative(b.basis, b.issue, late)
            let start = Swift.max(b.issue, early), end = Swift.min(b.settlement, late)
            dcnl += dci / nl
            anl += daysNotNegative(b.basis, start, end) / nl
            late = early
            index -= 1
        }
        let dsc: Double
        if b.basis == .actual360 || b.basis == .actual365 {
            dsc = daysNotNegative(b.basis, b.settlement, first.next)
        } else {
            dsc = e - b.basis.days(first.previous, b.settlement)
        }
        let nq = quasiCoupons(from: b.settlement, to: b.firstCoupon, months: months)
        let n = CouponSchedule(settlement: b.firstCoupon, maturity: b.maturity, frequency: b.frequency, basis: b.basis).count
        let y = dsc / e
        var value = b.redemption / cPow(base, y + nq + n) + coupon * dcnl / cPow(base, nq + y)
        var k = 1.0
        while k <= n {
            value += coupon / cPow(base, k + nq + y)
            k += 1
        }
        return value - coupon * anl
    }

    /// Whole quasi-coupon periods from settlement to the first coupon date.
    static func quasiCoupons(from settlement: CivilDate, to firstCoupon: CivilDate, months: Int) -> Double {
        var monthEnd = firstCoupon.isLastOfMonth
        if !monthEnd, firstCoupon.month != 2, firstCoupon.day > 28,
           firstCoupon.day < daysInMonth(firstCoupon.year, firstCoupon.month) {
            monthEnd = settlement.isLastOfMonth
        }
        let start = settlement.addingMonths(0, toMonthEnd: monthEnd)
        var count = settlement < start ? 1.0 : 0
        var front = start.addingMonths(months, toMonthEnd: monthEnd)
        while front < firstCoupon {
            count += 1
            front = front.addingMonths(months, toMonthEnd: monthEnd)
        }
        return count
    }

    /// ODDLPRICE (`price`) or ODDLYIELD: the odd last period counted in quasi-coupon periods from
    /// the last interest date.
    static func oddLast(_ b: OddBond, price: Bool) -> Double {
        let m = Double(b.frequency), months = 12 / b.frequency
        let last = b.issue
        let nc = Int(CouponSchedule(settlement: last, maturity: b.maturity, frequency: b.frequency, basis: b.basis).count)
        // Basis 0 measures these periods moving both ends to the 30th.
        func length(_ s: CivilDate, _ e: CivilDate) -> Double {
            b.basis == .us30360 ? Swift.max(0, Double(DayCountBasis.days360US(s, e, bothDates: true))) : daysNotNegative(b.basis, s, e)
        }
        var early = last, dcnl = 0.0, anl = 0.0, dscnl = 0.0
        for index in 1...Swift.max(1, nc) {
            let late = early.addingMonths(months)
            let nl = length(early, late)
            let dci = index < nc ? nl : length(early, b.maturity)
            let a: Double
            if late < b.settlement {
                a = dci
            } else if early < b.settlement {
                a = daysNotNegative(b.basis, early, b.settlement)
            } else {
                a = 0
            }
            let dsc = daysNotNegative(b.basis, Swift.max(b.settlement, early), Swift.min(b.maturity, late))
            dcnl += dci / nl
            anl += a / nl
            dscnl += dsc / nl
            early = late
        }
        let coupon = 100 * b.rate / m
        let term1 = dcnl * coupon + b.redemption
        if price { return term1 / (dscnl * b.yieldOrPrice / m + 1) - anl * coupon }
        let term2 = anl * coupon + b.yieldOrPrice
        return (term1 - term2) / term2 * m / dscnl
    }
}
