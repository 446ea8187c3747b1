import SheetPortCore
extension Functions {
    /// The civil date of a serial argument (#NUM! when out of range), the serial rounded to the
    /// second first as HOUR/MINUTE/SECOND read it: 46000.999999 is the next day (calc-suite
    /// DAYS_DAYS360 D24: DAYS360(45992.000001,46000.999999) is 9).
    static func civil(_ ev: Evaluator, _ op: Operand) throws -> (year: Int, month: Int, day: Int) {
        let x0 = try ev.num(op)
        let x = x0.magnitude < 1e9 ? (x0 * 86_400).rounded() / 86_400 : x0
        guard let c = DateSerial.civil(x, system: ev.dateSystem) else { throw EvalInterrupt.error(.number) }
        return c
    }

    static func serial(_ ev: Evaluator, _ y: Int, _ m: Int, _ d: Int) throws -> Double {
        guard let s = DateSerial.serial(year: y, month: m, day: d, system: ev.dateSystem) else { throw EvalInterrupt.error(.number) }
        return s
    }

    /// Seconds of the day of a serial, rounded to the second.
    static func secondsOfDay(_ ev: Evaluator, _ op: Operand) throws -> Int {
        let x = try ev.num(op)
        guard x >= 0 else { throw EvalInterrupt.error(.number) }
        let s = Int(((x - x.rounded(.down)) * 86_400).rounded())
        return s % 86_400
    }

    static func daysInMonth(_ y: Int, _ m: Int) -> Int {
        [31, (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
    }

    /// A date serial from a date argument that may be text.
    static func dateArg(_ ev: Evaluator, _ op: Operand) throws -> Double {
        let v = try ev.checked(op)
        if case .text(let t) = v {
            guard let x = Coercion.number(fromText: t, system: ev.dateSystem) else { throw EvalInterrupt.error(.value) }
            return x.rounded(.down)
        }
        let x = try ev.number(v)
        guard x >= 0 else { throw EvalInterrupt.error(.number) }
        return x.rounded(.down)
    }

    /// The serial of a date or time written as text (DATEVALUE, TIMEVALUE): a plain number such as
    /// `"10"` or `" 3 "` is no date text (#VALUE! in Excel), unlike in arithmetic.
    static func dateText(_ ev: Evaluator, _ op: Operand) throws -> Double? {
        let bytes = Array(try ev.str(op).utf8.drop(while: { $0 == 32 }).reversed().drop(while: { $0 == 32 }).reversed())
        return bytes.isEmpty ? nil : Coercion.dateTime(bytes, system: ev.dateSystem)
    }

    static let dateTime: [FunctionSpec] = [
        scalar("DATE", 3, 3) { ev, a in
            let y = try ev.int(a[0]), m = try ev.int(a[1]), d = try ev.int(a[2])
            guard y >= 0, y < 10_000 else { return .value(.error(.number)) }
            if ev.dateSystem == .excel1900 {
                // Excel's serials through 1900-02-28 then its 1900-02-29.
                let yy = y < 1900 ? y + 1900 : y
                if yy == 1900 && m == 2 && d == 29 { return .value(.number(60)) }
                if yy == 1900 && m == 1 && d == 0 { return .value(.number(0)) }
            }
            // The month carried into the year first: past 9999 it is #NUM!, whatever the day
            // (DATE(9999,13,-1): calc-suite DATE_AND_TIME__DATE D5).
            let carried = (y < 1900 ? y + 1900 : y) + Int((Double(m - 1) / 12).rounded(.down))
            guard carried <= 9999 else { return .value(.error(.number)) }
            let s = try serial(ev, y, m, d)
            guard s >= 0, s <= (ev.dateSystem == .excel1904 ? 2_957_003 : 2_958_465) else { return .value(.error(.number)) }
            return .value(.number(s))
        },
        scalar("DATEVALUE", 1, 1) { ev, a in
            guard let x = try dateText(ev, a[0]) else { return .value(.error(.value)) }
            return .value(.number(x.rounded(.down)))
        },
        scalar("TIME", 3, 3) { ev, a in
            let h = (try ev.num(a[0])).rounded(.towardZero), m = (try ev.num(a[1])).rounded(.towardZero), s = (try ev.num(a[2])).rounded(.towardZero)
            let total = h * 3600 + m * 60 + s
            guard total >= 0, h <= 32_767, m <= 32_767, s <= 32_767 else { return .value(.error(.number)) }
            // The day fraction of total/86400, as Excel rounds it: TIME(24,2,3) is 0.0014236111111110006
            // (calc-suite TIME_HOUR_MINUTE_SECOND D3), not 123/86400.
            let days = total / 86_400
            return .value(.number(days - days.rounded(.down)))
        },
        scalar("TIMEVALUE", 1, 1) { ev, a in
            guard let x = try dateText(ev, a[0]) else { return .value(.error(.value)) }
            return .value(.number(x - x.rounded(.down)))
        },
        scalar("YEAR", 1, 1) { ev, a in .value(.number(Double(try civil(ev, a[0]).year))) },
        scalar("MONTH", 1, 1) { ev, a in .value(.number(Double(try civil(ev, a[0]).month))) },
        scalar("DAY", 1, 1) { ev, a in .value(.number(Double(try civil(ev, a[0]).day))) },
        scalar("HOUR", 1, 1) { ev, a in .value(.number(Double(try secondsOfDay(ev, a[0]) / 3600))) },
        scalar("MINUTE", 1, 1) { ev, a in .value(.number(Double(try secondsOfDay(ev, a[0]) % 3600 / 60))) },
        scalar("SECOND", 1, 1) { ev, a in .value(.number(Double(try secondsOfDay(ev, a[0]) % 60))) },
        scalar("WEEKDAY", 1, 2) { ev, a in
            let x = try ev.num(a[0])
            guard x >= 0, DateSerial.civil(x, system: ev.dateSystem) != nil else { return .value(.error(.number)) }
            let w = DateSerial.weekday(x, system: ev.dateSystem) // 1 = Sunday
            let type = try ev.int(a, 1, default: 1)
            switch type {
            case 1, 17: return .value(.number(Double(w)))
            case 2, 11: return .value(.number(Double((w + 5) % 7 + 1)))
            case 3: return .value(.number(Double((w + 5) % 7)))
            case 12...16: return .value(.number(Double((w - (type - 10) + 7) % 7 + 1)))
            default: return .value(.error(.number))
            }
        },
        // A boolean date is #VALUE! in WEEKNUM, EDATE and EOMONTH, Analysis ToolPak functions
        // (calc-suite formulas__test 'DATE & TIME'!Y23, U9, U10).
        scalar("WEEKNUM", 1, 2) { ev, a in
            let x = (try analysisNumber(ev, a[0])).rounded(.down)
            let type = try ev.int(a, 1, default: 1)
            if type == 21 { return .value(.number(Double(isoWeek(ev, x)))) }
            let start: Int
            switch type {
            case 1, 17: start = 1
            case 2, 11: start = 2
            case 12...16: start = type - 10
            default: return .value(.error(.number))
            }
            guard let c = DateSerial.civil(x, system: ev.dateSystem) else { return .value(.error(.number)) }
            let jan1 = try serial(ev, c.year, 1, 1)
            let w1 = DateSerial.weekday(jan1, system: ev.dateSystem)
            let offset = (w1 - start + 7) % 7
            return .value(.number(((x - jan1 + Double(offset)) / 7).rounded(.down) + 1))
        },
        scalar("ISOWEEKNUM", 1, 1) { ev, a in
            let x = try ev.num(a[0]).rounded(.down)
            guard x >= 0 else { return .value(.error(.number)) }
            return .value(.number(Double(isoWeek(ev, x))))
        },
        scalar("EDATE", 2, 2) { ev, a in
            let (y, m, day) = try monthsLater(ev, a)
            return .value(.number(try serial(ev, y, m, min(day, daysInMonth(y, m)))))
        },
        scalar("EOMONTH", 2, 2) { ev, a in
            let (y, m, _) = try monthsLater(ev, a)
            return .value(.number(try serial(ev, y, m, daysInMonth(y, m))))
        },
        scalar("DAYS", 2, 2) { ev, a in .value(.number(try dateArg(ev, a[0]) - dateArg(ev, a[1]))) },
        scalar("DAYS360", 2, 3) { ev, a in
            let s = try civil(ev, a[0]), e = try civil(ev, a[1])
            let european = ev.isMissing(a, 2) ? false : try ev.flag(a[2])
            var d1 = s.day, d2 = e.day
            if european { d1 = min(d1, 30); d2 = min(d2, 30) } else {
                if d1 == 31 || (s.month == 2 && d1 == daysInMonth(s.year, 2)) { d1 = 30 }
                if d2 == 31 && d1 >= 30 { d2 = 30 }
            }
            let years: Int = (e.year - s.year) * 360
            let months: Int = (e.month - s.month) * 30
            return .value(.number(Double(years + months + d2 - d1)))
        },
        scalar("DATEDIF", 3, 3) { ev, a in
            let s = try dateArg(ev, a[0]), e = try dateArg(ev, a[1])
            guard s <= e else { return .value(.error(.number)) }
            guard let cs = DateSerial.civil(s, system: ev.dateSystem), let ce = DateSerial.civil(e, system: ev.dateSystem) else { return .value(.error(.number)) }
            var months = (ce.year - cs.year) * 12 + ce.month - cs.month
            if ce.day < cs.day { months -= 1 }
            switch try ev.str(a[2]).uppercased() {
            case "D": return .value(.number(e - s))
            case "M": return .value(.number(Double(months)))
            case "Y": return .value(.number(Double(months / 12)))
            case "YM": return .value(.number(Double(months % 12)))
            case "MD":
                var d = ce.day - cs.day
                if d < 0 {
                    let pm = ce.month == 1 ? 12 : ce.month - 1, py = ce.month == 1 ? ce.year - 1 : ce.year
                    d += daysInMonth(py, pm)
                }
                return .value(.number(Double(d)))
            case "YD":
                // Excel moves the end's month and day into the start's year (the next one when they come
                // earlier), so the leap day counted is that year's: DATEDIF(8,1987,"YD") is 153 with
                // 1900's Feb 29 (calc-suite formulas__test 'DATE & TIME'!R4), 1988-06-22 to 2012-05-11 323.
                let y = (ce.month, ce.day) < (cs.month, cs.day) ? cs.year + 1 : cs.year
                let moved = try serial(ev, y, ce.month, ce.day)
                return .value(.number(moved - s))
            default: return .value(.error(.number))
            }
        },
        scalar("YEARFRAC", 2, 3) { ev, a in
            // An Analysis ToolPak function that reads its basis first: YEARFRAC(#NUM!,345,#REF!) is
            // #REF!, and a boolean anywhere #VALUE! (calc-suite formulas__test 'DATE & TIME'!U27:AE27).
            let args = try AnalysisArguments(ev, [a.count > 2 ? a[2] : .missing, a[0], a[1]], defaults: [0, nil, nil])
            let basis = try args.basis(0)
            return number(basis.yearFraction(try args.date(1), try args.date(2)))
        },
        scalar("NOW", 0, 0, volatile: true) { ev, _ in .value(.number(ev.nowSerial)) },
        scalar("TODAY", 0, 0, volatile: true) { ev, _ in .value(.number(ev.nowSerial.rounded(.down))) },
    ]

    static func isoWeek(_ ev: Evaluator, _ x: Double) -> Int {
        // Monday = 1 ... Sunday = 7
        let w = (DateSerial.weekday(x, system: ev.dateSystem) + 5) % 7 + 1
        let thursday = x - Double(w) + 4
        // Serials 0 and 1 (Excel's Saturday 1900-01-00 and Sunday 1900-01-01) are in the week of
        // Thursday 1899-12-28, the 52nd of 1899 (calc-suite formulas__test 'DATE & TIME'!T12:Y12).
        if thursday < 1, x >= 0, ev.dateSystem == .excel1900 { return 52 }
        guard let c = DateSerial.civil(thursday, system: ev.dateSystem),
              let jan1 = DateSerial.serial(year: c.year, month: 1, day: 1, system: ev.dateSystem) else { return 0 }
        return Int(((thursday - jan1) / 7).rounded(.down)) + 1
    }
}

extension Functions {
    /// EDATE's and EOMONTH's year, month and day: the start date moved by whole months; a boolean
    /// months is #VALUE! (calc-suite EOMONTH C11:C12) and a month before the date system's first
    /// year or after 9999 #NUM! (DATE_DAY_MONTH_YEAR I15: EDATE(1900-03-01,-7)).
    static func monthsLater(_ ev: Evaluator, _ a: [Operand]) throws -> (year: Int, month: Int, day: Int) {
        if case .boolean = try ev.scalar(a[0]) { throw EvalInterrupt.error(.value) }
        let c = try civil(ev, a[0])
        if case .boolean = try ev.scalar(a[1]) { throw EvalInterrupt.error(.value) }
        let months = try ev.int(a[1])
        let total = c.year * 12 + c.month - 1 + months
        let y = total / 12, m = total % 12 + 1
        guard total >= 0, y >= (ev.dateSystem == .excel1904 ? 1904 : 1900), y <= 9999 else { throw EvalInterrupt.error(.number) }
        return (y, m, c.day)
    }
}
