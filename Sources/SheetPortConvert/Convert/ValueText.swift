import SheetPortCore
/// How cell values are spelled in text outputs (CSV, TSV, JSONL).
public enum ValueText {
    /// A number as JSON and CSV want it: integral values without a fraction (`3`),
    /// others in the shortest form that reads back as the same double (`0.1`, `1e-05`).
    public static func number(_ value: Double) -> String { JSON.numberText(value) }

    /// The date-time of a date cell, or nil when the serial is outside the calendar.
    public static func dateTime(_ value: CellValue, system: DateSystem) -> ExcelDateTime? {
        switch value {
        case .date(let serial) where serial < 0: ExcelDateTime(serialBeforeEpoch: serial, system: system)
        case .date(let serial): ExcelDateTime(serial: serial, system: system)
        case .duration(let days): ExcelDateTime(elapsedDays: days)
        case .isoDate(let text): ExcelDateTime(iso: text)
        default: nil
        }
    }

    /// Elapsed time as Excel shows `[h]:mm:ss`: `255:10:10`, `-1:30:00`, `.sss` when there are milliseconds.
    public static func elapsed(_ days: Double) -> String {
        guard days.isFinite, abs(days) < 1e9 else { return number(days) }
        let milliseconds = Int((abs(days) * 86_400_000).rounded(.toNearestOrEven))
        let seconds = milliseconds / 1000
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        var text = (days < 0 ? "-" : "") + String(seconds / 3600) + ":" + two(seconds / 60 % 60) + ":" + two(seconds % 60)
        if milliseconds % 1000 != 0 {
            let fraction = String(milliseconds % 1000)
            text += "." + String(repeating: "0", count: 3 - fraction.count) + fraction
        }
        return text
    }

    /// A value as a CSV/TSV field: dates as `YYYY-MM-DD`, `YYYY-MM-DD HH:MM:SS` or a bare
    /// time, elapsed times as `[h]:mm:ss`, booleans as `TRUE`/`FALSE`, errors as their code.
    /// `showsTime` (the cell's number format shows a time) keeps the time at midnight too;
    /// `dateFormat` spells dates with a time or a calendar day in the user's pattern.
    public static func field(_ value: CellValue, system: DateSystem, showsTime: Bool = false,
                             dateFormat: DateFormat? = nil) -> String {
        switch value {
        case .empty: return ""
        case .number(let number): return Self.number(number)
        case .string(let text): return text
        case .boolean(let flag): return flag ? "TRUE" : "FALSE"
        case .error(let code): return code
        case .date(let serial):
            guard let dateTime = dateTime(value, system: system) else { return Self.number(serial) }
            if isTimeOfDay(serial, system: system, showsTime: showsTime) { return dateTime.timeText(milliseconds: false) }
            if let dateFormat { return dateFormat.text(dateTime) }
            return calendarText(dateTime, showsTime: showsTime)
        case .duration(let days):
            return elapsed(days)
        case .isoDate(let text):
            guard let dateTime = dateTime(value, system: system) else { return text }
            if let dateFormat { return dateFormat.text(dateTime) }
            return calendarText(dateTime, showsTime: showsTime)
        }
    }

    /// Whether a date cell's `serial` is a time of day alone: below 1 in the 1900 system (its
    /// day 0 is no calendar day); in the 1904 system day 0 is 1904-01-01, a date unless the
    /// format shows a time.
    static func isTimeOfDay(_ serial: Double, system: DateSystem, showsTime: Bool) -> Bool {
        serial >= 0 && serial < 1 && (system == .excel1900 || showsTime)
    }

    /// `YYYY-MM-DD`, with ` HH:MM:SS` when there is a time of day or the format shows one.
    private static func calendarText(_ dateTime: ExcelDateTime, showsTime: Bool) -> String {
        dateTime.hasTime || showsTime ? dateTime.dateText + " " + dateTime.timeText(milliseconds: false) : dateTime.dateText
    }
}
