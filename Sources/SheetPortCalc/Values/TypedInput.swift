import SheetPortCore

/// Text typed into a cell, read as Excel (en-US) reads it (Docs/Reference/HTTP.md, "Writing"): the server's
/// `cells` route, `sheetport cells set` and the editing client all read inputs through it.
///
/// - `12`, `-1.5e3`, `1,234.5`, `(12)` numbers (thousands separators only in groups of three);
/// - `12%` the number 0.12 in a percent format; `$1,234.50` a number in a currency format;
/// - `2026-03-01`, `3/1/2026`, `3/1/26`, `2026-03-01 14:30`, `14:30`, `2:30 PM`, `14:30:15`
///   dates and times (serials of the 1900 date system) in a date or time format;
/// - `TRUE`, `FALSE` (any case) booleans; `#N/A`, `#DIV/0!` and the other error literals errors;
/// - `'0123` the text `0123` (the apostrophe only marks text); `=...` a formula; `""` clears;
/// - anything else is text, as typed.
public struct TypedInput: Sendable, Hashable {
    /// What the cell holds: a value, a formula (without its `=`), or nothing.
    public var content: CellContent
    /// The number format Excel gives a General cell for this input (`0%`, `"$"#,##0.00`,
    /// `m/d/yyyy`, ...), nil when the input implies none.
    public var numberFormat: String?

    /// Reads `text` as typed.
    public init(_ text: String) {
        numberFormat = nil
        if text.isEmpty { content = .empty; return }
        if text.hasPrefix("'") { content = .value(.text(String(text.dropFirst()))); return }
        if text.hasPrefix("="), text.count > 1 { content = .formula(String(text.dropFirst())); return }
        let trimmed = text.trimmingInputSpaces
        switch trimmed.uppercased() {
        case "TRUE": content = .value(.boolean(true)); return
        case "FALSE": content = .value(.boolean(false)); return
        default: break
        }
        if trimmed.hasPrefix("#"), let error = ExcelError(literal: trimmed.uppercased()) { content = .value(.error(error)); return }
        if let (number, format) = Self.number(trimmed) ?? Self.dateTime(trimmed) {
            content = .value(.number(number))
            numberFormat = format
            return
        }
        content = .value(.text(text))
    }

    /// The text that reads back as `value` (the `input` a constant cell shows): text that would
    /// read as something else gets the apostrophe.
    public static func text(of value: CalcValue) -> String {
        switch value {
        case .empty: return ""
        case .number(let n): return Self.number(n)
        case .boolean(let b): return b ? "TRUE" : "FALSE"
        case .error(let e): return e.rawValue
        case .text(let t):
            if case .value(.text(let read)) = TypedInput(t).content, read == t { return t }
            return "'" + t
        case .array(let a): return text(of: a.values.first ?? .empty)
        }
    }

    /// A number as a person types it: an integer without a fraction, else the shortest text that reads back.
    static func number(_ n: Double) -> String {
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return "\(n)"
    }

    // MARK: numbers

    /// A number with its sign, `$`, separators, exponent, `%` or parentheses; and the format they imply.
    static func number(_ text: String) -> (Double, String?)? {
        var s = Substring(text)
        var negative = false
        var currency = false
        var percent = false
        if s.hasPrefix("("), s.hasSuffix(")") { negative = true; s = s.dropFirst().dropLast() }
        if s.hasPrefix("-") || s.hasPrefix("+") { if s.first == "-" { negative.toggle() }; s = s.dropFirst() }
        if s.hasPrefix("$") { currency = true; s = s.dropFirst() }
        if !currency, s.hasPrefix("-") { negative.toggle(); s = s.dropFirst() }
        if s.hasSuffix("%") { percent = true; s = s.dropLast() }
        guard !s.isEmpty, !(currency && percent) else { return nil }
        // Mantissa: digits with optional groups of three, an optional fraction; then an exponent.
        var integer = ""
        var fraction: String?
        var exponent = ""
        var grouped = false
        var index = s.startIndex
        var groupLength = -1 // digits since the last separator (-1 before any separator)
        while index < s.endIndex, s[index].isASCII, s[index].isNumber || s[index] == "," {
            if s[index] == "," {
                guard !integer.isEmpty, groupLength == -1 ? integer.count <= 3 : groupLength == 3 else { return nil }
                grouped = true
                groupLength = 0
            } else {
                integer.append(s[index])
                if groupLength >= 0 { groupLength += 1 }
            }
            index = s.index(after: index)
        }
        if grouped, groupLength != 3 { return nil }
        if index < s.endIndex, s[index] == "." {
            index = s.index(after: index)
            var digits = ""
            while index < s.endIndex, s[index].isASCII, s[index].isNumber { digits.append(s[index]); index = s.index(after: index) }
            fraction = digits
        }
        guard !integer.isEmpty || !(fraction ?? "").isEmpty else { return nil }
        if index < s.endIndex, s[index] == "e" || s[index] == "E" {
            index = s.index(after: index)
            if index < s.endIndex, s[index] == "+" || s[index] == "-" { exponent.append(s[index]); index = s.index(after: index) }
            var digits = ""
            while index < s.endIndex, s[index].isASCII, s[index].isNumber { digits.append(s[index]); index = s.index(after: index) }
            guard !digits.isEmpty, !grouped else { return nil }
            exponent += digits
        }
        guard index == s.endIndex else { return nil }
        var literal = (integer.isEmpty ? "0" : integer) + "." + ((fraction ?? "").isEmpty ? "0" : fraction!)
        if !exponent.isEmpty { literal += "e" + exponent }
        guard var value = Double(literal), value.isFinite else { return nil }
        if negative { value = -value }
        let decimals = !(fraction ?? "").isEmpty
        if percent { return (value / 100, decimals ? "0.00%" : "0%") }
        if currency { return (value, decimals ? "\"$\"#,##0.00" : "\"$\"#,##0") }
        if !exponent.isEmpty { return (value, "0.00E+00") }
        if grouped { return (value, decimals ? "#,##0.00" : "#,##0") }
        return (value, nil)
    }

    // MARK: dates and times

    /// `yyyy-mm-dd`, `m/d/yyyy` or `m/d/yy`, each optionally followed by a time; or a time alone.
    static func dateTime(_ text: String) -> (Double, String)? {
        let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
        guard !parts.isEmpty else { return nil }
        if let date = date(parts[0]) {
            guard parts.count == 2 else { return (date, "m/d/yyyy") }
            guard let (time, _) = time(parts[1]) else { return nil }
            return (date + time, "m/d/yyyy h:mm")
        }
        return time(text)
    }

    private static func date(_ text: String) -> Double? {
        let iso = text.split(separator: "-", omittingEmptySubsequences: false)
        let us = text.split(separator: "/", omittingEmptySubsequences: false)
        var year = 0, month = 0, day = 0
        if iso.count == 3, iso[0].count == 4, iso[1].count <= 2, iso[2].count <= 2 {
            guard let y = digits(iso[0]), let m = digits(iso[1]), let d = digits(iso[2]) else { return nil }
            (year, month, day) = (y, m, d)
        } else if us.count == 3, us[0].count <= 2, us[1].count <= 2, us[2].count == 4 || us[2].count == 2 {
            guard let m = digits(us[0]), let d = digits(us[1]), var y = digits(us[2]) else { return nil }
            if us[2].count == 2 { y += y < 30 ? 2000 : 1900 } // Excel's two-digit year window
            (year, month, day) = (y, m, d)
        } else {
            return nil
        }
        guard year >= 1900, year <= 9999, month >= 1, month <= 12, day >= 1, day <= daysIn(month, year) else { return nil }
        return DateSerial.serial(year: year, month: month, day: day, system: .excel1900)
    }

    private static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `h:mm`, `h:mm:ss`, either with ` AM`/` PM`: the day's fraction and its format.
    private static func time(_ text: String) -> (Double, String)? {
        var clock = text
        var meridiem: String?
        for suffix in [" AM", " PM", "AM", "PM"] where clock.uppercased().hasSuffix(suffix) {
            meridiem = suffix.trimmingInputSpaces
            clock = String(clock.dropLast(suffix.count))
            break
        }
        let fields = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3, fields.allSatisfy({ (1...2).contains($0.count) }),
              var hour = digits(fields[0]), let minute = digits(fields[1]), minute < 60 else { return nil }
        let second = fields.count == 3 ? digits(fields[2]) : 0
        guard let second, second < 60 else { return nil }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (meridiem == "PM" ? 12 : 0)
        } else {
            guard hour < 24 else { return nil }
        }
        let fractionOfDay = Double(hour * 3600 + minute * 60 + second) / 86_400
        let format = (fields.count == 3 ? "h:mm:ss" : "h:mm") + (meridiem != nil ? " AM/PM" : "")
        return (fractionOfDay, format)
    }

    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }
}

extension String {
    /// Without leading and trailing spaces (only U+0020: Excel keeps other white space as typed).
    fileprivate var trimmingInputSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
