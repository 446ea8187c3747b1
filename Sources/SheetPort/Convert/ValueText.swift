/// How cell values are spelled in text outputs (CSV, TSV, JSONL).
public enum ValueText {
    /// A number as JSON and CSV want it: integral values without a fraction (`3`),
    /// others in the shortest form that reads back as the same double (`0.1`, `1e-05`).
    public static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            return String(Int64(value))
        }
        return value.description
    }

    /// The date-time of a date cell, or nil when the serial is outside the calendar.
    public static func dateTime(_ value: CellValue, system: DateSystem) -> ExcelDateTime? {
        switch value {
        case .date(let serial): ExcelDateTime(serial: serial, system: system)
        case .isoDate(let text): ExcelDateTime(iso: text)
        default: nil
        }
    }

    /// A value as a CSV/TSV field: dates as `YYYY-MM-DD`, `YYYY-MM-DD HH:MM:SS` or a bare
    /// time, booleans as `TRUE`/`FALSE`, errors as their code.
    public static func field(_ value: CellValue, system: DateSystem) -> String {
        switch value {
        case .empty: return ""
        case .number(let number): return Self.number(number)
        case .string(let text): return text
        case .boolean(let flag): return flag ? "TRUE" : "FALSE"
        case .error(let code): return code
        case .date(let serial):
            guard let dateTime = ExcelDateTime(serial: serial, system: system) else { return Self.number(serial) }
            if serial < 1 { return dateTime.timeText(milliseconds: false) }
            return dateTime.hasTime ? dateTime.dateText + " " + dateTime.timeText(milliseconds: false) : dateTime.dateText
        case .isoDate(let text):
            guard let dateTime = ExcelDateTime(iso: text) else { return text }
            return dateTime.hasTime ? dateTime.dateText + " " + dateTime.timeText(milliseconds: false) : dateTime.dateText
        }
    }
}
