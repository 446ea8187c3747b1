extension Functions {
    static let securities: [FunctionSpec] = [
        scalar("ACCRINT", 6, 8) { ev, a in
            let x = try AnalysisArguments(ev, a, defaults: [nil, nil, nil, nil, 1000, nil, 0])
            let fromIssue = ev.isMissing(a, 7) ? true : try ev.flag(a[7])
            let issue = try x.date(0), firstInterest = try x.date(1), settlement = try x.date(2)
            let rate = x[3], par = x[4], frequency = try x.frequency(5), basis = try x.basis(6)
            guard rate > 0, par > 0, issue < settlement else { return .value(.error(.number)) }
            return number(accruedInterest(issue: issue, firstInterest: firstInterest, settlement: settlement, rate: rate, par: par,
                                          frequency: frequency, basis: basis, fromIssue: fromIssue))
        },
        scalar("ACCRINTM", 4, 5) { ev, a in
            let x = try AnalysisArguments(ev, a, defaults: [nil, nil, nil, 1000, 0])
            let issue = try x.date(0), settlement = try x.date(1), rate = x[2], par = x[3], basis = try x.basis(4)
            guard rate > 0, par > 0, issue < settlement else { return .value(.error(.number)) }
            return number(par * rate * basis.days(issue, settlement) / basis.daysInYear(issue, settlement))
        },
        scalar("DISC", 4, 5) { ev, a in
            let (settlement, maturity, price, redemption, basis) = try discountArguments(ev, a)
            guard price > 0, redemption > 0 else { return .value(.error(.number)) }
            return number((1 - price / redemption) * basis.daysInYear(settlement, maturity) / basis.days(settlement, maturity))
        },
        scalar("INTRATE", 4, 5) { ev, a in
            let (settlement, maturity, investment, redemption, basis) = try discountArguments(ev, a)
            guard investment > 0, redemption > 0 else { return .value(.error(.number)) }
            return number((redemption - investment) / investment * basis.daysInYear(settlement, maturity) / basis.days(settlement, maturity))
        },
        scalar("RECEIVED", 4, 5) { ev, a in
            let (settlement, maturity, investment, discount, basis) = try discountArguments(ev, a)
            guard investment > 0, discount > 0 else { return .value(.error(.number)) }
            let denominator = 1 - discount * basis.days(settlement, maturity) / basis.daysInYear(settlement, maturity)
            guard denominator > 0 else { return .value(.error(.number)) }
            return number(investment / denominator)
        },
        scalar("PRICEDISC", 4, 5) { ev, a in
            let (settlement, maturity, discount, redemption, basis) = try discountArguments(ev, a)
            guard discount > 0, redemption > 0 else { return .value(.error(.number)) }
            return number(redemption - discount * redemption * basis.days(settlement, maturity) / basis.daysInYear(settlement, maturity))
        },
        scalar("YIELDDISC", 4, 5) { ev, a in
            let (settlement, maturity, price, redemption, basis) = try discountArguments(ev, a)
            guard price > 0, redemption > 0 else { return .value(.error(.number)) }
            return number((redemption - price) / price * basis.daysInYear(settlement, maturity) / basis.days(settlement, maturity))
        },
        scalar("PRICEMAT", 5, 6) { ev, a in
            let (settlement, maturity, issue, rate, yld, basis) = try maturityArguments(ev, a)
            guard rate >= 0, yld >= 0 else { return .value(.error(.number)) }
            let b = basis.daysInYear(issue, settlement), dim = basis.days(issue, maturity)
            let accrued = basis.days(issue, settlement), dsm = dim - accrued
            return number((100 + dim / b * rate * 100) / (1 + dsm / b * yld) - accrued / b * rate * 100)
        },
        scalar("YIELDMAT", 5, 6) { ev, a in
            let (settlement, maturity, issue, rate, price, basis) = try maturityArguments(ev, a)
            guard rate >= 0, price > 0 else { return .value(.error(.number)) }
            let b = basis.daysInYear(issue, settlement), dim = basis.days(issue, maturity)
            let accrued = basis.days(issue, settlement), dsm = dim - accrued
            let term1 = dim / b * rate + 1 - price / 100 - accrued / b * rate
            let term2 = price / 100 + accrued / b * rate
            return number(term1 / term2 * b / dsm)
        },
        scalar("TBILLEQ", 3, 3) { ev, a in
            let (dsm, discount) = try treasuryBillArguments(ev, a)
            guard discount > 0 else { return .value(.error(.number)) }
            if dsm <= 182 { return number(365 * discount / (360 - discount * dsm)) }
            let price = (100 - discount * 100 * dsm / 360) / 100
            guard price > 0 else { return .value(.error(.number)) }
            let year = dsm == 366 ? 366.0 : 365
            let radicand = (dsm / year) * (dsm / year) - (2 * dsm / year - 1) * (1 - 1 / price)
            guard radicand >= 0 else { return .value(.error(.number)) }
            return number(2 * (radicand.squareRoot() - dsm / year) / (2 * dsm / year - 1))
        },
        scalar("TBILLPRICE", 3, 3) { ev, a in
            let (dsm, discount) = try treasuryBillArguments(ev, a)
            guard discount > 0 else { return .value(.error(.number)) }
            let price = 100 * (1 - discount * dsm / 360)
            guard price > 0 else { return .value(.error(.number)) }
            return number(price)
        },
        scalar("TBILLYIELD", 3, 3) { ev, a in
            let (dsm, price) = try treasuryBillArguments(ev, a)
            guard price > 0 else { return .value(.error(.number)) }
            return number((100 - price) / price * 360 / dsm)
        },
    ]

    /// settlement, maturity (after settlement, else #NUM!), two amounts and the basis: the
    /// arguments of DISC, INTRATE, RECEIVED, PRICEDISC and YIELDDISC.
    static func discountArguments(_ ev: Evaluator, _ a: [Operand]) throws -> (CivilDate, CivilDate, Double, Double, DayCountBasis) {
        let x = try AnalysisArguments(ev, a, defaults: [nil, nil, nil, nil, 0])
        let settlement = try x.date(0), maturity = try x.date(1), basis = try x.basis(4)
        guard settlement < maturity else { throw EvalInterrupt.error(.number) }
        return (settlement, maturity, x[2], x[3], basis)
    }

    /// settlement, maturity, issue (issue < settlement < maturity, else #NUM!), rate, yield or price
    /// and basis: the arguments of PRICEMAT and YIELDMAT.
    static func maturityArguments(_ ev: Evaluator, _ a: [Operand]) throws -> (CivilDate, CivilDate, CivilDate, Double, Double, DayCountBasis) {
        let x = try AnalysisArguments(ev, a, defaults: [nil, nil, nil, nil, nil, 0])
        let settlement = try x.date(0), maturity = try x.date(1), issue = try x.date(2), basis = try x.basis(5)
        guard settlement < maturity, issue < settlement else { throw EvalInterrupt.error(.number) }
        return (settlement, maturity, issue, x[3], x[4], basis)
    }

    /// The days from settlement to maturity of a Treasury bill (at most a year, else #NUM!) and
    /// its third argument.
    static func treasuryBillArguments(_ ev: Evaluator, _ a: [Operand]) throws -> (Double, Double) {
        let x = try AnalysisArguments(ev, a, defaults: [nil, nil, nil])
        let settlement = try x.date(0), maturity = try x.date(1)
        guard settlement < maturity, maturity <= settlement.addingMonths(12) else { throw EvalInterrupt.error(.number) }
        return (Double(settlement.days(to: maturity)), x[2])
    }

    /// ACCRINT: interest accrued over the coupon periods from issue (or the first interest date)
    /// to settlement, each period's share counted in its own length; the periods step back from
    /// the first interest date.
    static func accruedInterest(issue: CivilDate, firstInterest: CivilDate, settlement: CivilDate, rate: Double, par: Double,
                                frequency: Int, basis: DayCountBasis, fromIssue: Bool) -> Double {
        let months = 12 / frequency, monthEnd = firstInterest.isLastOfMonth
        let regularStart = firstInterest.addingMonths(-months, toMonthEnd: monthEnd)
        var start = regularStart
        if settlement > firstInterest && fromIssue {
            start = CouponSchedule.dates(around: settlement, from: firstInterest, stepMonths: months, monthEnd: monthEnd).1
        }
        let regular = CouponSchedule(settlement: regularStart, maturity: firstInterest, frequency: frequency, basis: basis)
        var periods = basis.days(Swift.max(issue, start), settlement) / regular.periodDays
        var front = start
        while front > issue {
            let end = front
            front = front.addingMonths(-months, toMonthEnd: monthEnd)
            if issue <= front {
                periods += fromIssue ? 1 : 0
                continue
            }
            let accrued: Double, length: Double
            switch basis {
            case .us30360:
                accrued = Double(DayCountBasis.days360US(issue, end))
                length = Double(DayCountBasis.days360US(front, end, bothDates: true))
            case .actual360:
                accrued = basis.days(issue, end)
                length = Double(DayCountBasis.days360US(front, end))
            case .actual365:
                accrued = basis.days(issue, end)
                length = 365 / Double(frequency)
            case .actualActual, .european30360:
                accrued = basis.days(issue, end)
                length = basis.days(front, end)
            }
            periods += accrued / length
        }
        return par * rate / Double(frequency) * periods
    }
}
