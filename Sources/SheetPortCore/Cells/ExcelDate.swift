/// The date system of a workbook (`workbookPr date1904`).
public enum DateSystem: Sendable, Hashable {
    /// Serial 1 is 1900-01-01, with Excel's phantom 1900-02-29 at serial 60.
    case excel1900
    /// Serial 0 is 1904-01-01 (old Mac Excel).
    case excel1904
}

/// A calendar date and time of day, to the millisecond, with no time zone.
public struct ExcelDateTime: Equatable, Sendable {
    /// Year, 1 to 9999.
    public var year: Int
    /// Month, 1 to 12.
    public var month: Int
    /// Day of the month.
    public var day: Int
    /// Milliseconds since midnight.
    public var millisecondOfDay: Int

    /// Whether there is a time of day other than midnight.
    public var hasTime: Bool { millisecondOfDay != 0 }

    /// The day on which times without a date part are placed.
    static let timeOnlyDay = (year: 1899, month: 12, day: 30)

    /// The date-time of a serial number, or nil outside years 1-9999 or below zero.
    ///
    /// In the 1900 system a serial under 1 is a time of day and lands on 1899-12-30 (Excel's
    /// day 0, "1900-01-00", is no date); serials 1 to 59 are one day later than a plain count
    /// from 1899-12-30 would say, because Excel counts a 29 February 1900 that never was;
    /// serial 60 is shown as 1900-02-28, as openpyxl and calamine do. In the 1904 system
    /// day 0 is a real date, 1904-01-01, which Excel shows for serial 0 with a date format
    /// (openpyxl and calamine give a bare time there instead).
    public init?(serial: Double, system: DateSystem) {
        guard serial.isFinite, serial >= 0, serial < 3_000_000 else { return nil }
        var wholeDays = serial.rounded(.down)
        var milliseconds = ((serial - wholeDays) * 86_400_000).rounded(.toNearestOrEven)
        if milliseconds >= 86_400_000 {
            wholeDays += 1
            milliseconds = 0
        }
        let epochDay: Int
        switch system {
        case .excel1904:
            epochDay = Self.daysFromCivil(1904, 1, 1)
        case .excel1900:
            epochDay = Self.daysFromCivil(1899, 12, 30) + (serial >= 1 && serial < 60 ? 1 : 0)
        }
        let days = system == .excel1900 && serial < 1 ? Self.daysFromCivil(1899, 12, 30) : epochDay + Int(wholeDays)
        let (year, month, day) = Self.civilFromDays(days)
        guard (1...9999).contains(year) else { return nil }
        self.init(year: year, month: month, day: day, millisecondOfDay: Int(milliseconds))
    }

    /// The date-time `days` after 1899-12-30 00:00, with no calendar correction: how an
    /// elapsed time (`[h]:mm:ss`) reads as a date, as openpyxl and calamine give it.
    public init?(elapsedDays days: Double) {
        guard days.isFinite, days >= 0, days < 3_000_000 else { return nil }
        let totalMilliseconds = (days * 86_400_000).rounded(.toNearestOrEven)
        let wholeDays = Int(totalMilliseconds / 86_400_000)
        let (year, month, day) = Self.civilFromDays(Self.daysFromCivil(1899, 12, 30) + wholeDays)
        guard year <= 9999 else { return nil }
        self.init(year: year, month: month, day: day,
                  millisecondOfDay: Int(totalMilliseconds - Double(wholeDays) * 86_400_000))
    }

    /// The serial of this date-time in `system`: the inverse of `init(serial:system:)`.
    /// In the 1900 system dates before 1900-03-01 are one less than a plain count from
    /// 1899-12-30, for the 29 February 1900 that Excel counts.
    public func serial(in system: DateSystem) -> Double {
        let days = Self.daysFromCivil(year, month, day) - Self.daysFromCivil(1899, 12, 30)
        let whole: Int
        switch system {
        case .excel1904: whole = days - 1462
        case .excel1900: whole = days >= 1 && days <= 60 ? days - 1 : days
        }
        return Double(whole) + Double(millisecondOfDay) / 86_400_000
    }

    /// Days since 1899-12-30 00:00: the inverse of `init(elapsedDays:)`.
    public var elapsedDays: Double {
        Double(Self.daysFromCivil(year, month, day) - Self.daysFromCivil(1899, 12, 30))
            + Double(millisecondOfDay) / 86_400_000
    }

    /// Whether the day exists in its month (not 2023-02-29 or 2024-04-31).
    public var isValidDay: Bool {
        let (y, m, d) = Self.civilFromDays(Self.daysFromCivil(year, month, day))
        return y == year && m == month && d == day
    }

    /// Creates a date-time from its parts.
    public init(year: Int, month: Int, day: Int, millisecondOfDay: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.millisecondOfDay = millisecondOfDay
    }

    /// Parses the ISO 8601 text of a `t="d"` cell: `2024-01-31`, `2024-01-31T13:45:00.5`,
    /// an optional zone suffix (dropped: cell dates are local), or a time alone.
    public init?(iso text: String) {
        var scanner = DigitScanner(text)
        var date = Self.timeOnlyDay
        if text.utf8.contains(UInt8(ascii: "-")) && !text.hasPrefix("T") { // bytes: Foundation's contains is slow
            guard let year = scanner.number(digits: 4), scanner.skip("-"),
                  let month = scanner.number(digits: 2), scanner.skip("-"),
                  let day = scanner.number(digits: 2), (1...12).contains(month), (1...31).contains(day)
            else { return nil }
            date = (year, month, day)
            if scanner.atEnd { self.init(year: year, month: month, day: day); return }
            guard scanner.skip("T") || scanner.skip(" ") else { return nil }
        } else {
            _ = scanner.skip("T")
        }
        guard let hour = scanner.number(digits: 2), scanner.skip(":"),
              let minute = scanner.number(digits: 2), hour < 24, minute < 60 else { return nil }
        var milliseconds = (hour * 60 + minute) * 60_000
        if scanner.skip(":") {
            guard let second = scanner.number(digits: 2), second < 61 else { return nil }
            milliseconds += second * 1000
            if scanner.skip(".") || scanner.skip(",") {
                let fraction = scanner.fraction()
                milliseconds += Int((fraction * 1000).rounded(.toNearestOrEven))
            }
        }
        guard scanner.zoneOrEnd() else { return nil }
        self.init(year: date.year, month: date.month, day: date.day, millisecondOfDay: min(milliseconds, 86_399_999))
    }

    /// `YYYY-MM-DDTHH:MM:SS.sss`, the contract's rendering.
    public var iso8601: String {
        dateText + "T" + timeText(milliseconds: true)
    }

    /// `YYYY-MM-DD`.
    public var dateText: String {
        pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }

    /// `HH:MM:SS`, with `.sss` when asked for or when there are milliseconds.
    public func timeText(milliseconds: Bool) -> String {
        let ms = millisecondOfDay % 1000
        let seconds = millisecondOfDay / 1000
        var text = pad(seconds / 3600, 2) + ":" + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2)
        if milliseconds || ms != 0 { text += "." + pad(ms, 3) }
        return text
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    package static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// A tiny scanner over the ASCII of an ISO 8601 string.
private struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var atEnd: Bool { index == bytes.count }

    mutating func skip(_ character: Character) -> Bool {
        guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
        index += 1
        return true
    }

    mutating func number(digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + digits] {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        index += digits
        return value
    }

    mutating func fraction() -> Double {
        var value = 0.0, scale = 0.1
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            value += Double(bytes[index] - 0x30) * scale
            scale /= 10
            index += 1
        }
        return value
    }

    mutating func zoneOrEnd() -> Bool {
        if atEnd || skip("Z") { return atEnd }
        guard skip("+") || skip("-"), number(digits: 2) != nil else { return false }
        _ = skip(":")
        return number(digits: 2) != nil && atEnd
    }
}
