import SheetPortCore
/// Excel's conversions between value kinds.
enum Coercion {
    /// A number from text as Excel reads it in arithmetic: `1,234`, ` 12 `, `1e3`, `50%`, `$1.5`, `(3)`, dates and times.
    static func number(fromText raw: String, system: DateSystem) -> Double? {
        let s = Array(raw.utf8.drop(while: { $0 == 32 }).reversed().drop(while: { $0 == 32 }).reversed())
        if s.isEmpty { return nil }
        if let n = plainNumber(s) { return n }
        // A date or time with spaces around it is no number (`" 2024-01-10 "`: calc-suite
        // MATH_AND_TRIGONOMETRY__GCD_LCM row 32, __EXP_SIGN row 34); a plain number may have them.
        guard s.count == raw.utf8.count else { return nil }
        if let d = dateTime(s, system: system) { return d }
        return nil
    }

    /// Numbers with sign, currency, thousands separators, percent, exponent and accounting parentheses.
    static func plainNumber(_ s0: [UInt8]) -> Double? {
        var s = s0[...]
        var negative = false
        var percent = 0
        if s.first == UInt8(ascii: "("), s.last == UInt8(ascii: ")") {
            negative = true
            s = s.dropFirst().dropLast()
        }
        if s.first == UInt8(ascii: "-") { negative.toggle(); s = s.dropFirst() } else if s.first == UInt8(ascii: "+") { s = s.dropFirst() }
        if s.first == UInt8(ascii: "$") { s = s.dropFirst() }
        // The euro sign before or after the digits (`€100`, `100€`: calc-suite __EXP_SIGN rows 31, 49).
        if s.starts(with: euro) { s = s.dropFirst(3) } else if s.count > 3, s.suffix(3).elementsEqual(euro) { s = s.dropLast(3) }
        if s.first == UInt8(ascii: "-"), !negative { negative = true; s = s.dropFirst() }
        while s.last == UInt8(ascii: "%") { percent += 1; s = s.dropLast() }
        while s.last == 32 { s = s.dropLast() }
        guard !s.isEmpty else { return nil }
        var digits: [UInt8] = []
        var seenDot = false, seenExp = false, seenDigit = false
        var groupLen = -1 // digits since the last comma; -1 when no comma yet
        var i = s.startIndex
        while i < s.endIndex {
            let b = s[i]
            if b >= 48 && b <= 57 {
                digits.append(b); seenDigit = true
                if groupLen >= 0 && !seenDot && !seenExp { groupLen += 1 }
            } else if b == UInt8(ascii: ",") && !seenDot && !seenExp && seenDigit {
                if groupLen >= 0 && groupLen != 3 { return nil }
                groupLen = 0
            } else if b == UInt8(ascii: ".") && !seenDot && !seenExp {
                if groupLen >= 0 && groupLen != 3 { return nil }
                groupLen = -1
                seenDot = true; digits.append(b)
            } else if (b == UInt8(ascii: "e") || b == UInt8(ascii: "E")) && !seenExp && seenDigit {
                if groupLen >= 0 && groupLen != 3 { return nil }
                groupLen = -1
                seenExp = true; digits.append(UInt8(ascii: "e"))
                let n = s.index(after: i)
                if n < s.endIndex, s[n] == UInt8(ascii: "-") || s[n] == UInt8(ascii: "+") {
                    digits.append(s[n]); i = n
                }
            } else {
                return nil
            }
            i = s.index(after: i)
        }
        if groupLen >= 0 && groupLen != 3 { return nil }
        guard seenDigit, digits.last != UInt8(ascii: "e"), digits.last != UInt8(ascii: "-"), digits.last != UInt8(ascii: "+") else { return nil }
        guard var v = Double(String(decoding: digits, as: UTF8.self)) else { return nil }
        for _ in 0..<percent { v /= 100 }
        return negative ? -v : v
    }

    /// "€" in UTF-8.
    static let euro: [UInt8] = [0xE2, 0x82, 0xAC]

    static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Dates (`2024-01-31`, `1/31/2024`, `31-Jan-2024`, `Jan 31, 2024`) and times (`14:30`, `2:30 PM`), or both.
    static func dateTime(_ s: [UInt8], system: DateSystem) -> Double? {
        // Every form below needs one of `: -/,` (a lone token is neither a date nor a time):
        // without one, no answer is built (SUMIF's criteria, VLOOKUP keys pass here).
        guard s.contains(where: { $0 == 58 || $0 == 32 || $0 == 45 || $0 == 47 || $0 == 44 }) else { return nil }
        let text = String(decoding: s, as: UTF8.self).lowercased()
        var parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var time: Double? = nil
        // Time part at the end: hh:mm[:ss] [am|pm]
        var ampm: String? = nil
        if let last = parts.last, last == "am" || last == "pm" { ampm = last; parts.removeLast() }
        // The byte, not `String.contains(_:)`: with Foundation imported that is `range(of:)`,
        // thousands of instructions for each criterion and text number read.
        if let last = parts.last, last.utf8.contains(UInt8(ascii: ":")) {
            guard let t = timeOfDay(last, ampm: ampm) else { return nil }
            time = t
            parts.removeLast()
        } else if ampm != nil {
            // "2 PM"
            guard let last = parts.last, let h = Int(last), h >= 0, h <= 12 else { return nil }
            time = Double((h % 12) + (ampm == "pm" ? 12 : 0)) / 24
            parts.removeLast()
        }
        if parts.isEmpty { return time }
        guard let day = date(parts.joined(separator: " "), system: system) else { return nil }
        return day + (time ?? 0)
    }

    static func timeOfDay(_ t: String, ampm: String?) -> Double? {
        let f = t.split(separator: ":", omittingEmptySubsequences: false)
        guard f.count == 2 || f.count == 3, let h = Int(f[0]), let m = Int(f[1]), m >= 0, m < 60 else { return nil }
        var sec = 0.0
        if f.count == 3 { guard let s = Double(f[2]), s >= 0, s < 60 else { return nil }; sec = s }
        var hour = h
        if let ampm {
            guard h >= 1, h <= 12 else { return nil }
            hour = h % 12 + (ampm == "pm" ? 12 : 0)
        }
        guard hour >= 0 else { return nil }
        return (Double(hour) * 3600 + Double(m) * 60 + sec) / 86_400
    }

    static func month(_ s: Substring) -> Int? {
        let l = s.lowercased()
        guard l.count >= 3 else { return nil }
        for (i, name) in monthNames.enumerated() where l.hasPrefix(name) { return i + 1 }
        return nil
    }

    static func date(_ text: String, system: DateSystem) -> Double? {
        // yyyy-mm-dd or yyyy/mm/dd
        let seps: [Character] = ["-", "/"]
        for sep in seps {
            let f = text.split(separator: sep, omittingEmptySubsequences: false)
            if f.count == 3 {
                if let a = Int(f[0]), let b = Int(f[1]), let c = Int(f[2]) {
                    if f[0].count == 4 { return validDate(a, b, c, system) }
                    if sep == "/" { return monthOrDayFirst(a, b, year: c < 100 ? (c < 30 ? 2000 + c : 1900 + c) : c, system) }
                    return nil
                }
                if let d = Int(f[0]), let m = month(f[1]), let y = Int(f[2]) {
                    return validDate(y < 100 ? (y < 30 ? 2000 + y : 1900 + y) : y, m, d, system)
                }
                return nil
            }
            if f.count == 2, sep == "/", let a = Int(f[0]), let b = Int(f[1]) {
                return monthOrDayFirst(a, b, year: currentYear, system)
            }
        }
        // "Jan 31, 2024" / "31 Jan 2024" / "January 31 2024"
        let words = text.replacingOccurrences(",", " ").split(separator: " ")
        if words.count == 3 {
            if let m = month(words[0]), let d = Int(words[1]), let y = Int(words[2]) { return validDate(y, m, d, system) }
            if let d = Int(words[0]), let m = month(words[1]), let y = Int(words[2]) { return validDate(y, m, d, system) }
        }
        return nil
    }

    /// `a/b` read month first (`1/2/2024` is 2 January, as in Excel for the United States); a
    /// text that is no date that way but one day first (`31/12/2020`, `29/02/1900`) was written
    /// where the day comes first, and Excel computing it there reads that date: both Excel-computed
    /// oracles hold such texts only as dates (calc-suite formulas__test: `STDEV(...,"29/02/1900")`,
    /// `XIRR(...,"26/08/1987")`), never as the `#VALUE!` month-first reading would give.
    static func monthOrDayFirst(_ a: Int, _ b: Int, year: Int, _ system: DateSystem) -> Double? {
        if let date = validDate(year, a, b, system) { return date }
        return a > 12 ? validDate(year, b, a, system) : nil
    }

    /// The year assumed for dates typed without one.
    static let currentYear: Int = DateSerial.civilFromDays(Int((systemUnixTime() / 86_400).rounded(.down))).year

    static func validDate(_ y: Int, _ m: Int, _ d: Int, _ system: DateSystem) -> Double? {
        guard m >= 1, m <= 12, d >= 1, y >= 1900, y <= 9999 else { return nil }
        if system == .excel1900, y == 1900, m == 2, d == 29 { return 60 }
        let dim = [31, (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard d <= dim[m - 1] else { return nil }
        return DateSerial.serial(year: y, month: m, day: d, system: system)
    }

    /// Excel's text of a number in General format (as `&` and text functions see it): 15 significant digits.
    static func text(_ v: Double) -> String {
        if v == 0 { return "0" }
        if !v.isFinite { return "#NUM!" }
        let (digits, exp10) = significantDigits(v, 15)
        // exp10: value = 0.d1d2... * 10^exp10
        var out = v < 0 ? "-" : ""
        let pointPos = exp10
        if pointPos > 15 || pointPos < -9 {
            // scientific
            var mantissa = String(digits.first!)
            let rest = digits.dropFirst()
            if !rest.isEmpty { mantissa += "." + rest }
            let e = pointPos - 1
            out += mantissa + "E" + (e < 0 ? "-" : "+") + (abs(e) < 10 ? "0" : "") + String(abs(e))
            return out
        }
        if pointPos <= 0 {
            out += "0." + String(repeating: "0", count: -pointPos) + digits
        } else if digits.count <= pointPos {
            out += digits + String(repeating: "0", count: pointPos - digits.count)
        } else {
            let idx = digits.index(digits.startIndex, offsetBy: pointPos)
            out += digits[..<idx] + "." + digits[idx...]
        }
        return out
    }

    /// The significant digits (trailing zeros removed) and decimal exponent of |v| rounded to `count` digits.
    static func significantDigits(_ v: Double, _ count: Int) -> (String, Int) {
        let a = Swift.abs(v)
        var e = Int((a.log10Floor)) + 1
        // a / 10^(e - count), in two steps below 1e-290 (10^-315 is no exact power: 1E-300 read
        // as 1.00000000003612E-300 otherwise).
        func scale(_ e: Int) -> Double {
            if e - count < -290 { return ((a * 1e300) / pow10(e - count + 300)).rounded() }
            guard e < count, count - e <= 22 else { return (a / pow10(e - count)).rounded() }
            // Times an exact power of ten, a tie the product's rounding made settled by the exact
            // remainder (fused multiply-add), so the digits are the double's own: 0.08187495581009345
            // (…9344999…) is …934 and 4.1689069599665647 …656 (calc-suite formulas__test ENGINEERING!T37, U49).
            let p = powersOfTen[count - e], y = a * p, down = y.rounded(.down)
            guard y - down == 0.5 else { return y.rounded() }
            return (-(down + 0.5)).addingProduct(a, p) < 0 ? down : down + 1
        }
        var scaled = scale(e)
        if scaled >= pow10(count) { e += 1; scaled = scale(e) }
        if scaled < pow10(count - 1) { e -= 1; scaled = scale(e) }
        var s = String(UInt64(scaled))
        while s.count > 1, s.last == "0" { s.removeLast() }
        return (s, e)
    }

    static let powersOfTen: [Double] = (0...308).map { Double("1e\($0)")! }

    static func pow10(_ n: Int) -> Double {
        if n >= 0 && n <= 308 { return powersOfTen[n] }
        if n < 0 && n >= -308 { return 1 / powersOfTen[-n] }
        var r = 1.0
        if n >= 0 { for _ in 0..<n { r *= 10 } } else { for _ in 0..<(-n) { r /= 10 } }
        if n < -300 || n > 300 { return Double("1e\(n)") ?? r }
        return r
    }

    /// Rounds to 15 significant digits, as Excel does for comparisons and display (arithmetic only, no text).
    static func round15(_ v: Double) -> Double {
        guard v.isFinite, v != 0 else { return v }
        let e = Int(Foundation_log10(Swift.abs(v)).rounded(.down))
        let k = 14 - e
        guard k > -290, k < 290 else { return v }
        if k >= 0 {
            let scale = pow10(k)
            let r = (v * scale).rounded() / scale
            return r.isFinite ? r : v
        }
        let scale = pow10(-k)
        return (v / scale).rounded() * scale
    }
}

extension Double {
    /// floor(log10(|self|)), exact for powers of ten.
    var log10Floor: Int {
        let a = Swift.abs(self)
        var e = Int(Foundation_log10(a).rounded(.down))
        if Coercion.pow10(e) > a { e -= 1 }
        if Coercion.pow10(e + 1) <= a { e += 1 }
        return e
    }
}

extension String {
    func replacingOccurrences(_ a: String, _ b: String) -> String {
        split(separator: Character(a), omittingEmptySubsequences: false).joined(separator: b)
    }
}
