import SheetPortCore


/// Conversions between day serials and civil dates, with Excel's 1900 leap-year bug.
enum DateSerial {
    /// Days from 1970-01-01 to the civil date (proleptic Gregorian).
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (m + 9) % 12
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day count from 1970-01-01.
    static func civilFromDays(_ z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    /// Days from 1970-01-01 of 1899-12-30 (serial 0 of the 1900 system past the bug).
    static let epoch1900 = daysFromCivil(1899, 12, 30)
    static let epoch1904 = daysFromCivil(1904, 1, 1)

    /// The serial of a civil date; month and day may overflow (as DATE allows). Nil before the system's start.
    static func serial(year: Int, month: Int, day: Int, system: DateSystem) -> Double? {
        var y = year
        if y < 1900 { y += 1900 }
        let totalMonths = y * 12 + (month - 1)
        let yy = Int((Double(totalMonths) / 12).rounded(.down))
        let mm = totalMonths - yy * 12 + 1
        let days = daysFromCivil(yy, mm, 1) + (day - 1)
        switch system {
        case .excel1900:
            var s = days - epoch1900
            // Serials before 1900-03-01 are one less: Excel counts a 1900-02-29.
            if s <= 60 { s -= 1 }
            guard s >= 0, s <= 2_958_465 else { return nil }
            return Double(s)
        case .excel1904:
            let s = days - epoch1904
            guard s >= 0, s <= 2_957_003 else { return nil }
            return Double(s)
        }
    }

    /// The civil date of a serial (fraction ignored); nil for negative or past 9999-12-31.
    static func civil(_ serial: Double, system: DateSystem) -> (year: Int, month: Int, day: Int)? {
        // Bounded before the Int conversion, which traps past Int.max (1E+300).
        guard serial.isFinite, serial >= 0, serial < 3_000_000 else { return nil }
        let s = Int(serial.rounded(.down))
        switch system {
        case .excel1900:
            guard s <= 2_958_465 else { return nil }
            if s == 0 { return (1900, 1, 0) }
            if s == 60 { return (1900, 2, 29) }
            return civilFromDays(epoch1900 + (s < 60 ? s + 1 : s))
        case .excel1904:
            guard s <= 2_957_003 else { return nil }
            return civilFromDays(epoch1904 + s)
        }
    }

    /// The weekday of a serial, 1 = Sunday ... 7 = Saturday (Excel's 1900 serials before March 1900 keep its bug).
    static func weekday(_ serial: Double, system: DateSystem) -> Int {
        // Only the serial modulo 7 matters: reduced first, so that no serial traps the Int conversion.
        guard serial.isFinite else { return 1 }
        var s = Int(serial.rounded(.down).truncatingRemainder(dividingBy: 7))
        if system == .excel1904 { s += 1462 }
        // Serial 1 (1900-01-01) is a Sunday in Excel's count.
        return ((s - 1) % 7 + 7) % 7 + 1
    }
}
