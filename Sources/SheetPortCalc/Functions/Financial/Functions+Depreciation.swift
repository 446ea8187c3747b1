extension Functions {
    static let depreciation: [FunctionSpec] = [
        scalar("SLN", 3, 3) { ev, a in
            let cost = try ev.num(a[0]), salvage = try ev.num(a[1]), life = try ev.num(a[2])
            guard life != 0 else { return .value(.error(.divisionByZero)) }
            return number((cost - salvage) / life)
        },
        scalar("SYD", 4, 4) { ev, a in
            let cost = try ev.num(a[0]), salvage = try ev.num(a[1]), life = try ev.num(a[2]), per = try ev.num(a[3])
            guard life > 0, per > 0, per <= life else { return .value(.error(.number)) }
            return number((cost - salvage) * (life - per + 1) * 2 / (life * (life + 1)))
        },
        scalar("DB", 4, 5) { ev, a in
            let cost = try ev.num(a[0]), salvage = try ev.num(a[1]), life = try ev.num(a[2]), period = try ev.num(a[3])
            let month = (try ev.num(a, 4, default: 12)).rounded(.towardZero)
            guard cost >= 0, salvage >= 0, life > 0, month >= 1, month <= 12, period >= 1, period <= life + (month < 12 ? 1 : 0),
                  period < maxSteppedPeriods else {
                return .value(.error(.number))
            }
            guard cost > 0 else { return .value(.number(0)) }
            return number(decliningBalance(cost, salvage, life, period, month))
        },
        scalar("DDB", 4, 5) { ev, a in
            let cost = try ev.num(a[0]), salvage = try ev.num(a[1]), life = try ev.num(a[2]), period = try ev.num(a[3])
            let factor = try ev.num(a, 4, default: 2)
            guard cost >= 0, salvage >= 0, life > 0, factor > 0, period >= 1, period <= life else { return .value(.error(.number)) }
            return number(doubleDeclining(cost, salvage, life, period, factor))
        },
        scalar("VDB", 5, 7) { ev, a in
            let cost = try ev.num(a[0]), salvage = try ev.num(a[1]), life = try ev.num(a[2])
            let start = try ev.num(a[3]), end = try ev.num(a[4])
            let factor = try ev.num(a, 5, default: 2)
            let noSwitch = ev.isMissing(a, 6) ? false : try ev.flag(a[6])
            guard cost >= 0, salvage >= 0, life > 0, start >= 0, start <= end, end <= life, factor > 0, end < maxSteppedPeriods else {
                return .value(.error(.number))
            }
            return number(variableDeclining(cost, salvage, life, start, end, factor, switchToLine: !noSwitch))
        },
        scalar("AMORLINC", 6, 7) { ev, a in
            let (cost, purchased, firstPeriod, salvage, period, rate, basis) = try amortizationArguments(ev, a)
            return number(linearAmortization(cost, purchased, firstPeriod, salvage, period, rate, basis))
        },
        scalar("AMORDEGRC", 6, 7) { ev, a in
            let (cost, purchased, firstPeriod, salvage, period, rate, basis) = try amortizationArguments(ev, a)
            let life = 1 / rate
            // Excel refuses the lives its coefficients leave undefined.
            guard !(life >= 0 && life <= 3), !(life >= 4 && life <= 5) else { return .value(.error(.number)) }
            return number(degressiveAmortization(cost, purchased, firstPeriod, salvage, period, rate, basis))
        },
    ]

    /// DB: fixed-declining balance at a rate rounded to three decimals, the first year prorated by
    /// `month`, the year after the life taking the rest of the last year.
    static func decliningBalance(_ cost: Double, _ salvage: Double, _ life: Double, _ period: Double, _ month: Double) -> Double {
        var rate = 1 - cPow(salvage / cost, 1 / life)
        rate = (rate * 1000).rounded() / 1000
        let first = cost * rate * month / 12
        // Excel counts whole periods: 4.5 is the fourth.
        let whole = period.rounded(.down)
        if whole == 1 { return first }
        var total = first, depreciation = 0.0
        let last = Int(Swift.min(life, whole).rounded(.down))
        if last >= 2 {
            for _ in 2...last {
                depreciation = (cost - total) * rate
                total += depreciation
            }
        }
        if whole > life { return (cost - total) * rate * (12 - month) / 12 }
        return depreciation
    }

    /// DDB for one period (fractional periods by the closed form).
    static func doubleDeclining(_ cost: Double, _ salvage: Double, _ life: Double, _ period: Double, _ factor: Double) -> Double {
        var rate = factor / life
        let previous: Double
        if rate >= 1 {
            rate = 1
            previous = period == 1 ? cost : 0
        } else {
            previous = cost * cPow(1 - rate, period - 1)
        }
        let next = cost * cPow(1 - rate, period)
        return Swift.max(0, next < salvage ? previous - salvage : previous - next)
    }

    /// VDB: declining balance from `start` to `end`, switching to straight line when that is more.
    static func variableDeclining(_ cost: Double, _ salvage: Double, _ life: Double, _ start: Double, _ end: Double,
                                  _ factor: Double, switchToLine: Bool) -> Double {
        let firstWhole = start.rounded(.down), lastWhole = end.rounded(.up)
        guard switchToLine else {
            var total = 0.0
            guard lastWhole > firstWhole else { return 0 }
            var i = firstWhole + 1
            while i <= lastWhole {
                var term = doubleDeclining(cost, salvage, life, i, factor)
                if i == firstWhole + 1 {
                    term *= Swift.min(end, firstWhole + 1) - start
                } else if i == lastWhole {
                    term *= end + 1 - lastWhole
                }
                total += term
                i += 1
            }
            return total
        }
        var lifeLeft = life, s = start, e = end
        if start != start.rounded(.down), factor > 1, start >= life / 2 {
            let part = start - life / 2
            s = life / 2
            e -= part
            lifeLeft += 1
        }
        let value = cost - interVDB(cost, salvage, life, lifeLeft, s, factor)
        return interVDB(value, salvage, life, life - s, e - s, factor)
    }

    /// Depreciation over the first `period` periods of declining balance, moving to straight line
    /// over `lifeLeft` once that gives more.
    static func interVDB(_ cost: Double, _ salvage: Double, _ life: Double, _ lifeLeft: Double, _ period: Double, _ factor: Double) -> Double {
        let lastWhole = period.rounded(.up)
        guard lastWhole >= 1 else { return 0 }
        var total = 0.0, remaining = cost - salvage, line = 0.0, onLine = false
        var i = 1.0
        while i <= lastWhole {
            var term: Double
            if onLine {
                term = line
            } else {
                let declining = doubleDeclining(cost, salvage, life, i, factor)
                line = remaining / (lifeLeft - (i - 1))
                if line > declining {
                    term = line
                    onLine = true
                } else {
                    term = declining
                    remaining -= declining
                }
            }
            if i == lastWhole { term *= period + 1 - lastWhole }
            total += term
            i += 1
        }
        return total
    }

    /// AMORLINC/AMORDEGRC arguments: cost, date purchased, end of the first period, salvage,
    /// period, rate, basis; #NUM! for negative amounts, a salvage over the cost, a first period
    /// before the purchase or the basis 2.
    static func amortizationArguments(_ ev: Evaluator, _ a: [Operand]) throws
        -> (Double, CivilDate, CivilDate, Double, Double, Double, DayCountBasis) {
        let x = try AnalysisArguments(ev, a, defaults: [nil, nil, nil, nil, nil, nil, 0])
        let cost = x[0], purchased = try x.date(1), firstPeriod = try x.date(2)
        let salvage = x[3], period = x[4].rounded(.towardZero), rate = x[5], b = try x.basis(6)
        guard cost >= 0, salvage >= 0, salvage < cost, period >= 0, period < maxSteppedPeriods, rate > 0, purchased < firstPeriod,
              b != .actual360 else {
            throw EvalInterrupt.error(.number)
        }
        return (cost, purchased, firstPeriod, salvage, period, rate, b)
    }

    /// The first, prorated, period's depreciation of the French amortizations, and the life in
    /// periods that it adds to.
    static func firstAmortization(_ cost: Double, _ purchased: CivilDate, _ firstPeriod: CivilDate, _ salvage: Double,
                                  _ rate: Double, _ life: Double, _ basis: DayCountBasis) -> (Double, Double) {
        // Actual bases count February's 29th as its 28th here.
        func adjusted(_ d: CivilDate) -> CivilDate {
            guard basis == .actualActual || basis == .actual365, d.isLeapYear, d.month == 2, d.day >= 28 else { return d }
            return CivilDate(year: d.year, month: 2, day: 28)
        }
        let yearDays = basis == .actualActual ? (purchased.isLeapYear ? 366.0 : 365.0) : basis.daysInYear(purchased, purchased)
        let firstDays = basis.days(adjusted(purchased), adjusted(firstPeriod))
        let first = firstDays / yearDays * rate * cost
        let depreciation = first == 0 ? cost * rate : first
        return (Swift.min(depreciation, cost - salvage), first == 0 ? life : life + 1)
    }

    static func linearAmortization(_ cost: Double, _ purchased: CivilDate, _ firstPeriod: CivilDate, _ salvage: Double,
                                   _ period: Double, _ rate: Double, _ basis: DayCountBasis) -> Double {
        let life = (1 / rate).rounded(.up)
        if cost == salvage || period > life { return 0 }
        let (first, _) = firstAmortization(cost, purchased, firstPeriod, salvage, rate, life, basis)
        if period == 0 { return first }
        var depreciation = rate * cost, available = cost - salvage - first
        var counted = 1.0
        while counted <= period {
            depreciation = Swift.min(depreciation, available)
            available = Swift.max(0, available - depreciation)
            counted += 1
        }
        return depreciation
    }

    static func degressiveAmortization(_ cost: Double, _ purchased: CivilDate, _ firstPeriod: CivilDate, _ salvage: Double,
                                       _ period: Double, _ rate: Double, _ basis: DayCountBasis) -> Double {
        let life = (1 / rate).rounded(.up)
        if cost == salvage || period > life { return 0 }
        let coefficient: Double
        switch life {
        case 3...4: coefficient = 1.5
        case 5...6: coefficient = 2
        case 6...: coefficient = 2.5
        default: coefficient = 1
        }
        let degressiveRate = rate * coefficient
        let (firstRaw, assetLife) = firstAmortization(cost, purchased, firstPeriod, salvage, degressiveRate, life, basis)
        // Excel rounds each amount to whole units (after 13 significant decimals).
        func round(_ x: Double) -> Double { ((x * 1e13).rounded() / 1e13).rounded(.toNearestOrAwayFromZero) }
        let first = round(firstRaw)
        if period == 0 { return first }
        var remaining = cost - first, currentRate = degressiveRate, depreciation = 0.0
        var counted = 1.0
        while counted <= period {
            counted += 1
            let periodsLeft = assetLife - counted
            let lastTwo = Swift.abs(periodsLeft - 2) < 0.0001
            let candidate = lastTwo ? remaining * 0.5 : currentRate * remaining
            if lastTwo { currentRate = 1 }
            depreciation = remaining < salvage ? Swift.max(0, remaining - salvage) : candidate
            remaining -= depreciation
        }
        return round(depreciation)
    }
}
