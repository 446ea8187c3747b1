import Foundation

extension CellValue {
    /// The date-time of a date cell (`.date`, `.duration`, `.isoDate`) in a workbook of
    /// `system`, as the CLI and cell JSONL show it; nil for any other value or one outside the calendar.
    public func dateTime(in system: DateSystem) -> ExcelDateTime? {
        switch self {
        case .date(let serial): ExcelDateTime(serial: serial, system: system)
        case .duration(let days): ExcelDateTime(elapsedDays: days)
        case .isoDate(let text): ExcelDateTime(iso: text)
        default: nil
        }
    }

    /// A Foundation `Date` for a date cell: the wall-clock date and time the cell shows, taken
    /// in UTC (a workbook's dates carry no time zone), to the millisecond; nil for other values.
    public func date(in system: DateSystem) -> Date? {
        guard let dateTime = dateTime(in: system) else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (dateTime.year, dateTime.month, dateTime.day)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let day = calendar.date(from: components) else { return nil }
        return day.addingTimeInterval(Double(dateTime.millisecondOfDay) / 1000)
    }

    /// The ISO 8601 text the CLI prints for a date cell (`2024-01-31T13:45:00.000`), an
    /// `.isoDate` normalised to it (`2024-01-31` and `2024-01-31T13:45:00.5Z` alike); nil for other values.
    public func isoText(in system: DateSystem) -> String? {
        dateTime(in: system)?.iso8601
    }
}

extension Row {
    /// The cell in `column` (1-based), or nil: a binary search of the row's cells, which are
    /// ordered by column.
    public subscript(column: Int) -> Cell? {
        let index = cells.partitionPoint { $0.column >= column }
        return index < cells.count && cells[index].column == column ? cells[index] : nil
    }
}
