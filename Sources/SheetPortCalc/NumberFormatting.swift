import SheetPortCore
/// Renders a number in an Excel number format, for TEXT (and DOLLAR/FIXED-like results).
/// The toolkit's shared renderer can be plugged in through this protocol.
public protocol NumberFormatting: Sendable {
    /// The text of `value` in `format` (en-US), or nil when the format cannot be rendered.
    func format(_ value: Double, _ format: String, dateSystem: DateSystem) -> String?
}

/// A small built-in renderer: `General`, `0`, `0.00`, `#,##0.00`, `0%`, `0.00%`, `0.00E+00`,
/// date and time formats (`yyyy-mm-dd`, `mm/dd/yyyy`, `d-mmm-yy`, `hh:mm:ss`, `h:mm AM/PM`), literals and sections.
public struct BuiltInNumberFormatting: NumberFormatting {
    /// The built-in renderer.
    public init() {}

    /// The text of `value` in `format` (nil for a negative date or a format it cannot render).
    public func format(_ value: Double, _ format: String, dateSystem: DateSystem) -> String? {
        NumberFormat.render(value, format, system: dateSystem)
    }
}

/// The built-in renderer's workings.
enum NumberFormat {
    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
    static let dayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// Splits on `;` outside quotes.
    static func sections(_ f: String) -> [String] {
        var out: [String] = [], cur = ""
        var quoted = false, escape = false
        for ch in f {
            if escape { cur.append(ch); escape = false; continue }
            if ch == "\\" { escape = true; cur.append(ch); continue }
            if ch == "\"" { quoted.toggle() }
            if ch == ";" && !quoted { out.append(cur); cur = ""; continue }
            cur.append(ch)
        }
        out.append(cur)
        return out
    }

    /// TEXT of a text value: the fourth section with `@`, else the text itself.
    static func textSection(_ f: String, _ t: String) -> String {
        let s = sections(f)
        guard s.count >= 4 else { return t }
        return literalText(s[3]).replacingOccurrences("@", t)
    }

    static func literalText(_ s: String) -> String {
        var out = "", quoted = false, escape = false
        for ch in s {
            if escape { out.append(ch); escape = false; continue }
            if ch == "\\" { escape = true; continue }
            if ch == "\"" { quoted.toggle(); continue }
            out.append(ch)
        }
        return out
    }

    /// Removes `[Red]`, `[$-409]`, `[>100]`; keeps `[$€-x]` currency symbols and `[h]`.
    static func stripBrackets(_ s: String) -> String {
        var out = "", inside = false, buf = ""
        for ch in s {
            if ch == "[" && !inside { inside = true; buf = ""; continue }
            if ch == "]" && inside {
                inside = false
                if buf.hasPrefix("$") {
                    let sym = buf.dropFirst().split(separator: "-", maxSplits: 1).first.map(String.init) ?? ""
                    if !sym.isEmpty { out += "\"" + sym + "\"" }
                } else if ["h", "hh", "m", "mm", "s", "ss"].contains(buf.lowercased()) {
                    out += buf
                }
                continue
            }
            if inside { buf.append(ch) } else { out.append(ch) }
        }
        return out
    }

    static func render(_ value: Double, _ format: String, system: DateSystem) -> String? {
        let all = sections(format)
        var x = value
        var section = all[0]
        if x < 0 && all.count >= 2 { section = all[1]; x = -x } else if x == 0 && all.count >= 3 { section = all[2] }
        section = stripBrackets(section)
        if section.trimmingSpaces().uppercased() == "GENERAL" || section.isEmpty { return Coercion.text(x) }
        if isDateFormat(section) { return date(x, section, system: system) }
        return number(x, section, negativeSign: value < 0 && all.count < 2)
    }

    static func isDateFormat(_ s: String) -> Bool {
        var quoted = false, escape = false
        for ch in s.lowercased() {
            if escape { escape = false; continue }
            if ch == "\\" { escape = true; continue }
            if ch == "\"" { quoted.toggle(); continue }
            if !quoted && "ydhs".contains(ch) { return true }
            if !quoted && ch == "m" { return true }
        }
        return false
    }

    static func fixed(_ x: Double, decimals: Int, grouping: Bool) -> String {
        let neg = x < 0
        var digits = formatFixed(Swift.abs(x), decimals)
        if grouping {
            let parts = digits.split(separator: ".", maxSplits: 1)
            var intPart = String(parts[0])
            var grouped = ""
            while intPart.count > 3 {
                grouped = "," + intPart.suffix(3) + grouped
                intPart.removeLast(3)
            }
            digits = intPart + grouped + (parts.count > 1 ? "." + parts[1] : "")
        }
        return (neg && digits.contains(where: { $0 != "0" && $0 != "." && $0 != "," }) ? "-" : "") + digits
    }

    /// |x| with exactly `decimals` decimals, half away from zero, from its 15 significant digits.
    static func formatFixed(_ x: Double, _ decimals: Int) -> String {
        let r = Functions.round(x, decimals, .toNearestOrAwayFromZero)
        if r == 0 { return decimals > 0 ? "0." + String(repeating: "0", count: decimals) : "0" }
        let (digits, e) = Coercion.significantDigits(r, 15)
        // value = 0.digits * 10^e
        var intPart: String, frac: String
        if e <= 0 {
            intPart = "0"
            frac = String(repeating: "0", count: -e) + digits
        } else if digits.count <= e {
            intPart = digits + String(repeating: "0", count: e - digits.count)
            frac = ""
        } else {
            let idx = digits.index(digits.startIndex, offsetBy: e)
            intPart = String(digits[..<idx]); frac = String(digits[idx...])
        }
        if frac.count < decimals { frac += String(repeating: "0", count: decimals - frac.count) }
        if frac.count > decimals { frac = String(frac.prefix(decimals)) }
        return decimals > 0 ? intPart + "." + frac : intPart
    }

    static func number(_ value: Double, _ section: String, negativeSign: Bool) -> String? {
        var prefix = "", suffix = ""
        var intZeros = 0, intPlaces = 0, decZeros = 0, decPlaces = 0
        var grouping = false, percent = 0, scale = 0
        var seenDigit = false, seenDot = false, exponent: String? = nil, expDigits = 0
        var pendingComma = false
        var chars = Array(section)
        var k = 0
        func literal(_ s: String) { if seenDigit { suffix += s } else { prefix += s } }
        while k < chars.count {
            let ch = chars[k]
            switch ch {
            case "\"":
                var lit = ""
                k += 1
                while k < chars.count, chars[k] != "\"" { lit.append(chars[k]); k += 1 }
                literal(lit)
            case "\\":
                if k + 1 < chars.count { literal(String(chars[k + 1])); k += 1 }
            case "_":
                literal(" "); k += 1
            case "*":
                k += 1
            case "0", "#", "?":
                if exponent != nil { expDigits += 1; break }
                if pendingComma { grouping = true; pendingComma = false }
                seenDigit = true
                if seenDot { decPlaces += 1; if ch == "0" { decZeros = decPlaces } } else { intPlaces += 1; if ch == "0" { intZeros += 1 } }
            case ".":
                if exponent == nil { seenDot = true; seenDigit = true }
            case ",":
                if seenDigit && !seenDot { pendingComma = true } else { literal(",") }
            case "%":
                percent += 1; literal("%")
            case "E", "e":
                if k + 1 < chars.count, chars[k + 1] == "+" || chars[k + 1] == "-" {
                    exponent = String(chars[k + 1]); k += 1
                } else { literal(String(ch)) }
            case "@":
                literal(Coercion.text(value))
            default:
                if pendingComma { scale += 1; pendingComma = false }
                literal(String(ch))
            }
            k += 1
        }
        if pendingComma { scale += 1 }
        chars = []
        var x = value
        for _ in 0..<percent { x *= 100 }
        for _ in 0..<scale { x /= 1000 }
        var body: String
        if let sign = exponent {
            guard x != 0 else { return prefix + formatFixed(0, decPlaces) + "E+" + String(repeating: "0", count: max(expDigits, 2)) + suffix }
            var e = Int(Swift.abs(x).log10Floor)
            if intPlaces > 1 { e = e - ((e % intPlaces) + intPlaces) % intPlaces }
            var m = Swift.abs(x) / Coercion.pow10(e)
            m = Functions.round(m, decPlaces, .toNearestOrAwayFromZero)
            if m >= Coercion.pow10(max(intPlaces, 1)) { m /= 10; e += 1 }
            let es = String(Swift.abs(e))
            body = formatFixed(m, decPlaces) + "E" + (e < 0 ? "-" : (sign == "+" ? "+" : "")) + String(repeating: "0", count: max(0, max(expDigits, 1) - es.count)) + es
        } else {
            body = formatFixed(Swift.abs(x), decPlaces)
            // Optional decimals (#) drop trailing zeros beyond the required ones.
            if decPlaces > decZeros, body.contains(".") {
                while body.hasSuffix("0"), body.split(separator: ".").last.map({ $0.count > decZeros }) ?? false { body.removeLast() }
                if body.hasSuffix(".") && decZeros == 0 { body.removeLast() }
            }
            var parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            var intPart = parts[0]
            if intPart == "0" && intZeros == 0 { intPart = "" }
            while intPart.count < intZeros { intPart = "0" + intPart }
            if grouping {
                var grouped = ""
                while intPart.count > 3 { grouped = "," + intPart.suffix(3) + grouped; intPart.removeLast(3) }
                intPart += grouped
            }
            parts[0] = intPart
            body = parts.joined(separator: ".")
            if !seenDigit { body = "" }
        }
        let negative = negativeSign && body.contains(where: { ("1"..."9").contains($0) })
        return (negative ? "-" : "") + prefix + body + suffix
    }

    static func date(_ x: Double, _ section: String, system: DateSystem) -> String? {
        guard x >= 0 else { return nil }
        var day = x.rounded(.down)
        var secs = ((x - day) * 86_400).rounded()
        var frac = 0.0
        if secs >= 86_400 { secs = 0; day += 1 }
        frac = (x - day) * 86_400 - secs.rounded(.down)
        guard let civil = DateSerial.civil(day, system: system) else { return nil }
        let hour = Int(secs) / 3600, minute = (Int(secs) % 3600) / 60, second = Int(secs) % 60
        let lower = Array(section)
        let hasAMPM = section.uppercased().contains("AM/PM") || section.uppercased().contains("A/P")
        var out = ""
        var k = 0
        var lastWasHour = false
        func run(_ c: Character) -> Int {
            var n = 0
            while k + n < lower.count, lower[k + n].lowercased() == String(c) { n += 1 }
            return n
        }
        func pad(_ v: Int, _ n: Int) -> String { n >= 2 && v < 10 ? "0" + String(v) : String(v) }
        while k < lower.count {
            let ch = Character(lower[k].lowercased())
            switch ch {
            case "y":
                let n = run("y"); k += n
                out += n <= 2 ? pad(civil.year % 100, 2) : String(civil.year)
                lastWasHour = false
            case "d":
                let n = run("d"); k += n
                switch n {
                case 1, 2: out += pad(civil.day, n)
                case 3: out += String(dayNames[DateSerial.weekday(day, system: system) - 1].prefix(3))
                default: out += dayNames[DateSerial.weekday(day, system: system) - 1]
                }
                lastWasHour = false
            case "h":
                let n = run("h"); k += n
                var h = hour
                if hasAMPM { h = h % 12; if h == 0 { h = 12 } }
                out += pad(h, n)
                lastWasHour = true
            case "m":
                let n = run("m")
                // Minutes after an hour or before seconds.
                var rest = k + n
                while rest < lower.count, !"ymdhs".contains(Character(lower[rest].lowercased())) { rest += 1 }
                let beforeSeconds = rest < lower.count && lower[rest].lowercased() == "s"
                k += n
                if (lastWasHour || beforeSeconds) && n <= 2 {
                    out += pad(minute, n)
                } else {
                    switch n {
                    case 1, 2: out += pad(civil.month, n)
                    case 3: out += String(monthNames[civil.month - 1].prefix(3))
                    case 5: out += String(monthNames[civil.month - 1].prefix(1))
                    default: out += monthNames[civil.month - 1]
                    }
                }
                lastWasHour = false
            case "s":
                let n = run("s"); k += n
                out += pad(second, n)
                if k < lower.count, lower[k] == ".", k + 1 < lower.count, lower[k + 1] == "0" {
                    var z = 0
                    k += 1
                    while k < lower.count, lower[k] == "0" { z += 1; k += 1 }
                    let f = Int((frac * Coercion.pow10(z)).rounded())
                    var fs = String(f)
                    while fs.count < z { fs = "0" + fs }
                    out += "." + fs.prefix(z)
                }
                lastWasHour = false
            case "a":
                if section.count >= k + 5, String(lower[k..<(k + 5)]).uppercased() == "AM/PM" {
                    out += hour < 12 ? "AM" : "PM"; k += 5
                } else if section.count >= k + 3, String(lower[k..<(k + 3)]).uppercased() == "A/P" {
                    out += hour < 12 ? "A" : "P"; k += 3
                } else { out.append(lower[k]); k += 1 }
            case "\"":
                k += 1
                while k < lower.count, lower[k] != "\"" { out.append(lower[k]); k += 1 }
                k += 1
            case "\\":
                if k + 1 < lower.count { out.append(lower[k + 1]) }
                k += 2
            case "_":
                out += " "; k += 2
            case "*":
                k += 2
            default:
                out.append(lower[k]); k += 1
            }
        }
        return out
    }
}
