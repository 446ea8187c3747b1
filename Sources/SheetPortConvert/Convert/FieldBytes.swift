import SheetPortCore
/// Cell values appended to a `ByteSink` as the CSV/TSV field `ValueText.field` gives,
/// without a `String` per field.
extension ValueText {
    /// Appends the field of `value` when its text is never quoted or escaped (numbers,
    /// booleans, dates, times, elapsed times) and returns nil; returns the field's text, with
    /// nothing appended, when it may need quoting: strings, errors, an ISO date outside the
    /// calendar, and dates in a `dateFormat` whose literal text has bytes to quote
    /// (`dateFormatIsPlain` false).
    static func putField(_ value: CellValue, system: DateSystem, showsTime: Bool, dateFormat: DateFormat?,
                         dateFormatIsPlain: Bool, to output: ByteSink) -> String? {
        switch value {
        case .empty: return nil
        case .number(let number): output.putNumber(number)
        case .string(let text): return text
        case .boolean(let flag): output.put(flag ? "TRUE" as StaticString : "FALSE" as StaticString)
        case .error(let code): return code
        case .date(let serial):
            guard let dateTime = dateTime(value, system: system) else {
                output.putNumber(serial)
                return nil
            }
            if isTimeOfDay(serial, system: system, showsTime: showsTime) { output.putTime(dateTime, milliseconds: false); return nil }
            return putCalendar(dateTime, showsTime: showsTime, dateFormat: dateFormat, dateFormatIsPlain: dateFormatIsPlain,
                               to: output)
        case .duration(let days):
            output.putElapsed(days)
        case .isoDate(let text):
            guard let dateTime = ExcelDateTime(iso: text) else { return text }
            return putCalendar(dateTime, showsTime: showsTime, dateFormat: dateFormat, dateFormatIsPlain: dateFormatIsPlain,
                               to: output)
        }
        return nil
    }

    /// A date in `dateFormat`, or `YYYY-MM-DD` with ` HH:MM:SS` when it has a time or the format shows one.
    private static func putCalendar(_ dateTime: ExcelDateTime, showsTime: Bool, dateFormat: DateFormat?,
                                    dateFormatIsPlain: Bool, to output: ByteSink) -> String? {
        if let dateFormat {
            guard dateFormatIsPlain else { return dateFormat.text(dateTime) }
            output.put(dateTime, in: dateFormat)
            return nil
        }
        output.putDate(dateTime)
        if dateTime.hasTime || showsTime {
            output.put(UInt8(ascii: " "))
            output.putTime(dateTime, milliseconds: false)
        }
        return nil
    }
}

extension ByteSink {
    /// `YYYY-MM-DD` (`ExcelDateTime.dateText`).
    func putDate(_ dateTime: ExcelDateTime) {
        putPadded(dateTime.year, width: 4)
        put(UInt8(ascii: "-"))
        putPadded(dateTime.month, width: 2)
        put(UInt8(ascii: "-"))
        putPadded(dateTime.day, width: 2)
    }

    /// `HH:MM:SS`, with `.sss` when asked for or when there are milliseconds (`ExcelDateTime.timeText`).
    func putTime(_ dateTime: ExcelDateTime, milliseconds: Bool) {
        let ms = dateTime.millisecondOfDay % 1000
        let seconds = dateTime.millisecondOfDay / 1000
        putPadded(seconds / 3600, width: 2)
        put(UInt8(ascii: ":"))
        putPadded(seconds / 60 % 60, width: 2)
        put(UInt8(ascii: ":"))
        putPadded(seconds % 60, width: 2)
        if milliseconds || ms != 0 {
            put(UInt8(ascii: "."))
            putPadded(ms, width: 3)
        }
    }

    /// Elapsed time as `ValueText.elapsed` spells it: `255:10:10`, `-1:30:00`, `.sss` when there are milliseconds.
    func putElapsed(_ days: Double) {
        guard days.isFinite, abs(days) < 1e9 else { return putNumber(days) }
        let milliseconds = Int((abs(days) * 86_400_000).rounded(.toNearestOrEven))
        let seconds = milliseconds / 1000
        if days < 0 { put(UInt8(ascii: "-")) }
        putDecimal(Int64(seconds / 3600))
        put(UInt8(ascii: ":"))
        putPadded(seconds / 60 % 60, width: 2)
        put(UInt8(ascii: ":"))
        putPadded(seconds % 60, width: 2)
        if milliseconds % 1000 != 0 {
            put(UInt8(ascii: "."))
            putPadded(milliseconds % 1000, width: 3)
        }
    }

    /// `dateTime` in `format` (`DateFormat.text`).
    func put(_ dateTime: ExcelDateTime, in format: DateFormat) {
        let seconds = dateTime.millisecondOfDay / 1000
        for piece in format.pieces {
            switch piece {
            case .text(let text): put(text)
            case .year: putPadded(dateTime.year, width: 4)
            case .month: putPadded(dateTime.month, width: 2)
            case .day: putPadded(dateTime.day, width: 2)
            case .hour: putPadded(seconds / 3600, width: 2)
            case .minute: putPadded(seconds / 60 % 60, width: 2)
            case .second: putPadded(seconds % 60, width: 2)
            case .milliseconds: putPadded(dateTime.millisecondOfDay % 1000, width: 3)
            default: put(DateFormat.text(of: piece, dateTime))
            }
        }
    }
}
