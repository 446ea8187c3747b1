import SheetPortCore

/// The days a week counts as weekend for NETWORKDAYS.INTL and WORKDAY.INTL (and their plain
/// forms, whose weekend is Saturday and Sunday).
struct Weekend: Sendable {
    /// Monday first.
    let days: [Bool]

    static let saturdaySunday = Weekend(days: [false, false, false, false, false, true, true])

    /// The weekend argument: 1-7 (two days: 1 Saturday-Sunday, 2 Sunday-Monday, ..., 7
    /// Friday-Saturday), 11-17 (one day: 11 Sunday, 12 Monday, ..., 17 Saturday), or seven `0`/`1`
    /// for Monday to Sunday (`1` a weekend day; all seven is #VALUE!). Another number is #NUM!.
    init(_ ev: Evaluator, _ op: Operand) throws {
        let v = try ev.checked(op)
        if case .text(let t) = v {
            let bits = Array(t.utf8)
            guard bits.count == 7, bits.allSatisfy({ $0 == 48 || $0 == 49 }) else { throw EvalInterrupt.error(.value) }
            guard bits.contains(48) else { throw EvalInterrupt.error(.value) }
            days = bits.map { $0 == 49 }
            return
        }
        if case .empty = v { self = .saturdaySunday; return }
        let x = try ev.number(v).rounded(.towardZero)
        guard x >= 1, x <= 17 else { throw EvalInterrupt.error(.number) }
        let n = Int(x)
        var d = [Bool](repeating: false, count: 7)
        switch n {
        case 1...7:
            // 1: Saturday (index 5) and Sunday (6); each next code shifts a day back.
            d[(n + 4) % 7] = true
            d[(n + 5) % 7] = true
        case 11...17:
            d[(n - 11 + 6) % 7] = true
        default:
            throw EvalInterrupt.error(.number)
        }
        days = d
    }

    init(days: [Bool]) { self.days = days }

    func contains(_ serial: Double, _ system: DateSystem) -> Bool {
        // DateSerial.weekday: 1 Sunday ... 7 Saturday; Monday first here.
        days[(DateSerial.weekday(serial, system: system) + 5) % 7]
    }
}

extension Functions {
    /// Holiday serials of the WORKDAY and NETWORKDAYS functions: the numbers of a range, and the
    /// numbers or date texts of an array or a single value (`{"2006/1/2","2006/1/16"}`, as in
    /// Microsoft's NETWORKDAYS.INTL example).
    static func holidays(_ ev: Evaluator, _ a: [Operand], _ k: Int) throws -> Set<Double> {
        guard !ev.isMissing(a, k) else { return [] }
        var out = Set<Double>()
        func add(_ v: CalcValue) throws {
            switch v {
            case .number(let x): out.insert(x.rounded(.down))
            case .text(let t):
                guard let x = Coercion.number(fromText: t, system: ev.dateSystem) else { throw EvalInterrupt.error(.value) }
                out.insert(x.rounded(.down))
            case .error(let e): throw EvalInterrupt.error(e)
            default: break
            }
        }
        switch a[k] {
        case .value(.array(let arr)): for v in arr.values { try add(v) }
        case .value(let v): try add(v)
        default: for x in try ev.numbers([a[k]]) { out.insert(x.rounded(.down)) }
        }
        return out
    }

    /// Working days from `start` to `end` inclusive (negative when `end` is before `start`).
    static func networkDays(_ ev: Evaluator, _ start: Double, _ end: Double, _ weekend: Weekend, _ holidays: Set<Double>) throws -> Double {
        let (lo, hi, sign) = start <= end ? (start, end, 1.0) : (end, start, -1.0)
        guard hi - lo < 4_000_000 else { throw EvalInterrupt.error(.number) }
        var n = 0.0
        var d = lo
        while d <= hi {
            if !weekend.contains(d, ev.dateSystem) && !holidays.contains(d) { n += 1 }
            d += 1
        }
        return n * sign
    }

    /// The date `days` working days from `start`.
    static func workday(_ ev: Evaluator, _ start: Double, _ days0: Int, _ weekend: Weekend, _ holidays: Set<Double>) throws -> Double {
        var d = start, days = days0
        let step = days >= 0 ? 1.0 : -1.0
        // A start past 9999-12-31 (1E+300) would never move: #NUM!, as Excel answers.
        guard Swift.abs(days) < 1_000_000, d < 2_958_466 else { throw EvalInterrupt.error(.number) }
        while days != 0 {
            d += step
            if !weekend.contains(d, ev.dateSystem) && !holidays.contains(d) { days -= Int(step) }
        }
        guard d >= 0, d < 2_958_466 else { throw EvalInterrupt.error(.number) }
        return d
    }

    static let workdays: [FunctionSpec] = [
        scalar("NETWORKDAYS", 2, 3, raw: [2]) { ev, a in
            .value(.number(try networkDays(ev, try dateArg(ev, a[0]), try dateArg(ev, a[1]), .saturdaySunday, try holidays(ev, a, 2))))
        },
        scalar("NETWORKDAYS.INTL", 2, 4, raw: [3]) { ev, a in
            let s = try dateArg(ev, a[0]), e = try dateArg(ev, a[1])
            let weekend = ev.isMissing(a, 2) ? Weekend.saturdaySunday : try Weekend(ev, a[2])
            return .value(.number(try networkDays(ev, s, e, weekend, try holidays(ev, a, 3))))
        },
        scalar("WORKDAY", 2, 3, raw: [2]) { ev, a in
            .value(.number(try workday(ev, try dateArg(ev, a[0]), try ev.int(a[1]), .saturdaySunday, try holidays(ev, a, 2))))
        },
        scalar("WORKDAY.INTL", 2, 4, raw: [3]) { ev, a in
            let s = try dateArg(ev, a[0]), days = try ev.int(a[1])
            let weekend = ev.isMissing(a, 2) ? Weekend.saturdaySunday : try Weekend(ev, a[2])
            return .value(.number(try workday(ev, s, days, weekend, try holidays(ev, a, 3))))
        },
    ]

    static let dateTimeFamily: [FunctionSpec] = workdays
}
