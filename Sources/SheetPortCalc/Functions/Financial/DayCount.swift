import SheetPortCore

/// A calendar date of the day-count arithmetic: whole days, Gregorian, with Excel's phantom
/// 1900-02-29 between February 28 and March 1 of 1900.
struct CivilDate: Comparable, Hashable, Sendable {
    var year: Int
    var month: Int
    var day: Int

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date of a serial (fraction dropped); nil when negative or past 9999-12-31.
    init?(serial: Double, system: DateSystem) {
        guard let c = DateSerial.civil(serial, system: system) else { return nil }
        // Serial 0 of the 1900 system is its "1900-01-00".
        self = c.day == 0 ? CivilDate(year: 1899, month: 12, day: 31) : CivilDate(year: c.year, month: c.month, day: c.day)
    }

    /// Days from 1970-01-01, counting Excel's 1900-02-29 (so that differences are serial differences).
    var dayNumber: Int {
        DateSerial.daysFromCivil(year, month, day) - ((year, month) < (1900, 3) ? 1 : 0)
    }
    var isLastOfMonth: Bool { day >= Functions.daysInMonth(year, month) }
    var isLastOfFebruary: Bool { month == 2 && isLastOfMonth }
    var isLeapYear: Bool { Self.isLeap(year) }

    static func isLeap(_ y: Int) -> Bool { y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }

    static func < (a: CivilDate, b: CivilDate) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

    /// The date `months` later (earlier when negative), its day cut to the target month's length, or
    /// that month's last day with `toMonthEnd` (the coupon dates of a bond maturing on a month's end).
    func addingMonths(_ months: Int, toMonthEnd: Bool = false) -> CivilDate {
        let total = year * 12 + month - 1 + months
        let y = total >= 0 ? total / 12 : (total - 11) / 12
        let m = total - y * 12 + 1
        let last = Functions.daysInMonth(y, m)
        return CivilDate(year: y, month: m, day: toMonthEnd ? last : Swift.min(day, last))
    }

    /// Actual days from `self` to `other`.
    func days(to other: CivilDate) -> Int { other.dayNumber - dayNumber }
}

/// Excel's day-count bases: the `basis` argument of the securities functions and YEARFRAC.
enum DayCountBasis: Int, Sendable {
    /// US (NASD) 30/360.
    case us30360 = 0
    case actualActual = 1
    case actual360 = 2
    case actual365 = 3
    /// European 30/360.
    case european30360 = 4

    /// Days from `s` to `e` by the US (NASD) 30/360 rules as Excel applies them: an end on the 31st
    /// moves to the 30th when the start's own day is the 30th or 31st (a start on February's last
    /// day moves to the 30th only after that test). `bothDates` is the variant Excel uses for the
    /// length of a coupon period: an end on February's last day or the 31st counts as the 30th
    /// whatever the start.
    static func days360US(_ s: CivilDate, _ e: CivilDate, bothDates: Bool = false) -> Int {
        var sd = s.day, ed = e.day
        let startLastFebruary = s.isLastOfFebruary
        if e.isLastOfFebruary && (startLastFebruary || bothDates) { ed = 30 }
        if ed == 31 && (sd >= 30 || bothDates) { ed = 30 }
        if sd == 31 { sd = 30 }
        if startLastFebruary { sd = 30 }
        return (e.year - s.year) * 360 + (e.month - s.month) * 30 + ed - sd
    }

    /// Days from `s` to `e` by the European 30/360 rules (a 31st counts as the 30th).
    static func days360European(_ s: CivilDate, _ e: CivilDate) -> Int {
        (e.year - s.year) * 360 + (e.month - s.month) * 30 + Swift.min(e.day, 30) - Swift.min(s.day, 30)
    }

    /// Days from `s` to `e` as the basis counts them.
    func days(_ s: CivilDate, _ e: CivilDate) -> Double {
        switch self {
        case .us30360: return Double(Self.days360US(s, e))
        case .european30360: return Double(Self.days360European(s, e))
        case .actualActual, .actual360, .actual365: return Double(s.days(to: e))
        }
    }

    /// The length of the year for the span from `s` to `e` (`s` <= `e`): actual/actual takes 366
    /// when a February 29 falls in a span of at most a year, the average year length of the
    /// calendar years spanned when longer.
    func daysInYear(_ s: CivilDate, _ e: CivilDate) -> Double {
        switch self {
        case .us30360, .actual360, .european30360: return 360
        case .actual365: return 365
        case .actualActual:
            let withinAYear = s.year == e.year || (e.year == s.year + 1 && (s.month, s.day) >= (e.month, e.day))
            guard withinAYear else {
                var total = 0
                for y in s.year...e.year { total += CivilDate.isLeap(y) ? 366 : 365 }
                return Double(total) / Double(e.year - s.year + 1)
            }
            if s.year == e.year { return s.isLeapYear ? 366 : 365 }
            let february29 = (s.isLeapYear && s.month <= 2) || (e.isLeapYear && (e.month > 2 || (e.month == 2 && e.day == 29)))
            return february29 ? 366 : 365
        }
    }

    /// The fraction of a year from `s` to `e` (YEARFRAC; the two in either order).
    func yearFraction(_ s: CivilDate, _ e: CivilDate) -> Double {
        let (a, b) = s <= e ? (s, e) : (e, s)
        return days(a, b) / daysInYear(a, b)
    }
}

/// The coupon schedule of a bond: dates stepping back from maturity by 12/frequency months, each
/// step from the date before (Excel's way: a 30th maturity drifts to the 28th after a February),
/// on the month's last day when maturity is.
struct CouponSchedule {
    let settlement: CivilDate
    let maturity: CivilDate
    let frequency: Int
    let basis: DayCountBasis
    /// The last coupon date on or before settlement, and the first after it.
    let previous: CivilDate
    let next: CivilDate

    /// Needs settlement before maturity and a frequency of 1, 2 or 4.
    init(settlement: CivilDate, maturity: CivilDate, frequency: Int, basis: DayCountBasis) {
        self.settlement = settlement
        self.maturity = maturity
        self.frequency = frequency
        self.basis = basis
        (previous, next) = Self.dates(around: settlement, from: maturity, stepMonths: -12 / frequency)
    }

    /// Steps from `anchor` by `stepMonths` until passing `date`: (the date reached, the one before).
    /// Walking back, the first is the last on or before `date`; walking forward, the first on or after it.
    static func dates(around date: CivilDate, from anchor: CivilDate, stepMonths: Int, monthEnd: Bool? = nil) -> (CivilDate, CivilDate) {
        let toMonthEnd = monthEnd ?? anchor.isLastOfMonth
        var front = anchor, trailing = date
        while stepMonths < 0 ? front > date : front < date {
            trailing = front
            front = front.addingMonths(stepMonths, toMonthEnd: toMonthEnd)
        }
        return (front, trailing)
    }

    /// COUPNUM: coupons payable from settlement to maturity.
    var count: Double {
        let months = (maturity.year - previous.year) * 12 + maturity.month - previous.month
        return Double(months * frequency / 12)
    }

    /// COUPDAYS: days of the coupon period holding settlement.
    var periodDays: Double {
        switch basis {
        case .actualActual: return Double(previous.days(to: next))
        case .actual365: return 365 / Double(frequency)
        default: return 360 / Double(frequency)
        }
    }

    /// COUPDAYBS: days from the period's start to settlement.
    var daysBeforeSettlement: Double { basis.days(previous, settlement) }

    /// COUPDAYSNC: days from settlement to the next coupon.
    var daysAfterSettlement: Double {
        switch basis {
        case .us30360:
            return Double(DayCountBasis.days360US(previous, next, bothDates: true) - DayCountBasis.days360US(previous, settlement))
        case .european30360: return Double(DayCountBasis.days360European(settlement, next))
        default: return Double(settlement.days(to: next))
        }
    }
}

/// The arguments of a function Excel took over from the Analysis ToolPak, read as numbers in
/// order before any is checked, as Excel does: the first one that is no number decides the error
/// (#VALUE!, a boolean too, or the error it holds); a date out of range or a bad basis is #NUM!
/// only after.
struct AnalysisArguments {
    let values: [Double]
    let system: DateSystem

    /// `defaults[k]` is argument k's value when omitted; nil for a required one (0 when left empty).
    init(_ ev: Evaluator, _ a: [Operand], defaults: [Double?]) throws {
        var values: [Double] = []
        for (k, d) in defaults.enumerated() {
            if let d, ev.isMissing(a, k) { values.append(d) } else { values.append(k < a.count ? try Functions.analysisNumber(ev, a[k]) : 0) }
        }
        self.values = values
        system = ev.dateSystem
    }

    subscript(k: Int) -> Double { values[k] }

    /// Argument k as a date: truncated to whole days; #NUM! when negative or past 9999-12-31.
    func date(_ k: Int) throws -> CivilDate {
        guard let d = CivilDate(serial: values[k], system: system) else { throw EvalInterrupt.error(.number) }
        return d
    }

    /// Argument k as a day-count basis: truncated; #NUM! outside 0...4.
    func basis(_ k: Int) throws -> DayCountBasis {
        let x = values[k]
        guard x >= 0, x < 5, let b = DayCountBasis(rawValue: Int(x)) else { throw EvalInterrupt.error(.number) }
        return b
    }

    /// Argument k as coupons a year: truncated; #NUM! unless 1, 2 or 4.
    func frequency(_ k: Int) throws -> Int {
        let x = values[k].rounded(.towardZero)
        guard x == 1 || x == 2 || x == 4 else { throw EvalInterrupt.error(.number) }
        return Int(x)
    }
}

extension Functions {
    /// A number argument of the functions Excel took over from the Analysis ToolPak: a boolean is
    /// #VALUE! (text that reads as a number is one), and so is a range in an array formula.
    static func analysisNumber(_ ev: Evaluator, _ op: Operand) throws -> Double {
        if ev.arrayMode, case .ref(let r) = op, !r.isSingleCell { throw EvalInterrupt.error(.value) }
        let v = try ev.checked(op)
        if case .boolean = v { throw EvalInterrupt.error(.value) }
        return try ev.number(v)
    }

    /// The serial of a computed date (#NUM! before the date system's start).
    static func serial(_ ev: Evaluator, _ d: CivilDate) throws -> Double {
        guard d.year >= 1900, let s = DateSerial.serial(year: d.year, month: d.month, day: d.day, system: ev.dateSystem) else {
            throw EvalInterrupt.error(.number)
        }
        return s
    }
}
