import Foundation

/// The text Excel (en-US) shows for a value in a number format: `convert --values displayed`,
/// and the `display` of the calculation engine (TEXT(), Docs/Reference/HTTP.md, "Cell objects").
///
/// Handled: sections `positive;negative;zero;text` and conditions (`[>100]`), colours
/// (`[Red]`, ignored) and locale tags (`[$€-407]` shows `€`), the digit placeholders `0 # ?`,
/// `.`, thousands separators and scaling commas, `%`, scientific (`0.00E+00`), fractions
/// (`# ?/?`, `# ??/16`), literal text (`"..."`, `\x`, `$ - + ( ) : space` and the like), `_x`
/// (a space), `*x` (fill, ignored), `@`, dates and times (`yyyy yy mmmmm mmmm mmm mm m dddd ddd
/// dd d hh h mm ss AM/PM A/P [h] [mm] [ss] .000`; `m` after `h` or before `s` is minutes), and
/// `General` (up to 11 characters, scientific for large and small numbers). The built-in ids
/// Excel shows in the user's locale are shown as en-US does (14 is `m/d/yyyy`).
public enum NumberFormatRenderer {
    /// The text of `value` in the format code `code`: what a cell shows, so never more than
    /// `maxTextLength` characters (Excel shows at most 32,767).
    public static func text(_ value: CellValue, code: String, system: DateSystem) -> String {
        switch value {
        case .empty: return ""
        case .boolean(let flag): return flag ? "TRUE" : "FALSE"
        case .error(let code): return code
        case .string(let text): return capped(self.text(text: text, code: code))
        case .number(let number), .date(let number), .duration(let number): return self.text(number: number, code: code, system: system)
        case .isoDate(let text):
            guard let dateTime = ExcelDateTime(iso: text) else { return text }
            return self.text(number: dateTime.serial(in: system), code: code, system: system)
        }
    }

    /// The code Excel (en-US) shows for number format `id` whose code is `code`: the built-in
    /// ids whose display depends on the locale take the en-US form (14 is `m/d/yyyy`).
    public static func displayCode(id: Int, code: String) -> String {
        guard id < 164, code == (NumberFormat.builtInCode(id) ?? "General"), let shown = enUS[id] else { return code }
        return shown
    }

    private static let enUS: [Int: String] = [
        5: "\"$\"#,##0_);(\"$\"#,##0)", 6: "\"$\"#,##0_);[Red](\"$\"#,##0)", 7: "\"$\"#,##0.00_);(\"$\"#,##0.00)",
        8: "\"$\"#,##0.00_);[Red](\"$\"#,##0.00)", 14: "m/d/yyyy", 22: "m/d/yyyy h:mm",
    ]

    // MARK: text

    /// The most characters (UTF-16 code units, as Excel counts) a cell shows or a text holds.
    public static let maxTextLength = 32_767

    /// A text value: the format's text section (the fourth, or one holding `@`), else the text itself.
    ///
    /// The result stops once it passes `maxTextLength` (it is then longer than a cell may show,
    /// which is how TEXT knows to answer #VALUE!): 255 `@` on a 32 KB text never builds 8 MB.
    package static func text(text: String, code: String) -> String {
        let sections = split(code)
        let section: [Token]
        if sections.count >= 4 { section = sections[3] }
        else if let withAt = sections.first(where: { $0.contains(.at) }), sections.count == 1 { section = withAt }
        else { return text }
        var result = ""
        var length = 0
        let textLength = text.utf16.count
        for token in section where length <= maxTextLength {
            switch token {
            case .literal(let literal): result += literal; length += literal.utf16.count
            case .at: result += text; length += textLength
            default: break
            }
        }
        return result
    }

    /// `text` cut to the `maxTextLength` characters a cell shows (on a character boundary).
    public static func capped(_ text: String) -> String {
        guard text.utf16.count > maxTextLength else { return text }
        var end = text.utf16.index(text.startIndex, offsetBy: maxTextLength)
        end = text.rangeOfComposedCharacterSequence(at: end).lowerBound
        return String(text[..<end])
    }

    // MARK: numbers

    /// A number in `code`.
    ///
    /// Total: every code renders every double in bounded time and output. Numbers show at most
    /// 15 significant digits (as Excel: 2^64 in `0` is 18446744073709600000); scaling and
    /// rounding work on those digits (`ShownDecimal`), so 1e308 in `0%` or `0.0E+0%` prints its
    /// digits instead of overflowing. Dates and times before serial 0 or past 9999-12-31, and
    /// sections mixing date parts with `0 # ?` (`mm###`), show `###########`, as Excel fills
    /// such a cell with `#`.
    public static func text(number: Double, code: String, system: DateSystem = .excel1900) -> String {
        guard number.isFinite else { return "#NUM!" }
        let sections = split(code)
        // A text-only format (`@`, `"ID "@`) does not apply to numbers: Excel shows them as General.
        guard !sections.isEmpty, !sections.allSatisfy({ $0.contains(.at) }) else { return general(number) }
        let (section, value, sign) = choose(sections, number)
        if section.isEmpty { return sign }
        if section.contains(where: { $0.isDatePart }) {
            // Excel shows #### for a negative date (in a section that would put a minus before it),
            // and for a section mixing date parts with digit placeholders (`mm###`), which it
            // cannot render (TEXT answers #VALUE!).
            guard value >= 0, sign.isEmpty, !section.contains(where: { $0.isDigit }) else { return outOfRange }
            return date(value, section, system: system)
        }
        if section.contains(.general) {
            return section.map { if case .literal(let text) = $0 { text } else if case .general = $0 { general(value) } else { "" } }.joined()
                .withSign(sign)
        }
        guard section.contains(where: { $0.isDigit }) else {
            // Only literals: the number is not shown (`"-"` for zero in accounting formats).
            return sign + section.map { if case .literal(let text) = $0 { text } else { "" } }.joined()
        }
        let percent = section.filter { $0 == .percent }.count
        let shown = ShownDecimal(value).scaled(byPowerOfTen: 2 * percent)
        if section.contains(where: { if case .exponent = $0 { true } else { false } }) { return sign + scientific(shown, section) }
        if section.contains(.slash) { return sign + fraction(shown, section) }
        return fixed(shown, section, sign: sign)
    }

    /// What Excel shows for a date or time it cannot show (a cell filled with `#`).
    private static let outOfRange = String(repeating: "#", count: 11)

    /// The section for `number`, the value it shows and the sign put before it.
    private static func choose(_ sections: [[Token]], _ number: Double) -> ([Token], Double, String) {
        let conditions = sections.map { section in section.compactMap { if case .condition(let op, let limit) = $0 { (op, limit) } else { nil } }.first }
        if conditions.contains(where: { $0 != nil }) {
            for (index, condition) in conditions.enumerated() {
                if let (op, limit) = condition, test(number, op, limit) {
                    return (sections[index], abs(number), number < 0 && index != 1 ? "-" : "")
                }
            }
            let rest = sections.indices.filter { conditions[$0] == nil && $0 < 3 }
            guard let index = rest.first else { return ([.literal(outOfRange)], 0, "") }
            return (sections[index], abs(number), number < 0 ? "-" : "")
        }
        switch sections.count {
        case 1: return (sections[0], abs(number), number < 0 ? "-" : "")
        case 2: return number < 0 ? (sections[1], -number, "") : (sections[0], number, "")
        default:
            if number < 0 { return (sections[1], -number, "") }
            if number == 0 { return (sections[2], 0, "") }
            return (sections[0], number, "")
        }
    }

    private static func test(_ number: Double, _ op: String, _ limit: Double) -> Bool {
        switch op {
        case ">": number > limit
        case ">=": number >= limit
        case "<": number < limit
        case "<=": number <= limit
        case "=": number == limit
        case "<>": number != limit
        default: false
        }
    }

    /// `0`, `#` and `?` placeholders with an optional decimal point, grouping and scaling.
    private static func fixed(_ input: ShownDecimal, _ section: [Token], sign: String) -> String {
        // Commas right after the last integer placeholder (before the point or the end) scale by 1,000.
        let pointIndex = section.firstIndex(of: .point) ?? section.count
        let lastDigit = section[..<pointIndex].lastIndex { $0.isDigit }
        var scaled = 0
        for end in [lastDigit, section.lastIndex { $0.isDigit }] {
            guard let end, scaled == 0 else { continue }
            var index = end + 1
            while index < section.count, section[index] == .comma { scaled += 1; index += 1 }
        }
        let value = input.scaled(byPowerOfTen: -3 * scaled)
        // A comma between two digit placeholders groups thousands.
        let firstDigit = section.firstIndex { $0.isDigit } ?? section.count
        let grouping = section.indices.contains { section[$0] == .comma && $0 > firstDigit && $0 < (lastDigit ?? -1) }
        let integerSlots = section[..<pointIndex].filter { $0.isDigit }
        let fractionSlots = section[pointIndex...].filter { $0.isDigit }
        let rounded = value.rounded(decimals: fractionSlots.count)
        let integerDigits = rounded.integerDigits
        let fractionDigits = rounded.fractionDigits(fractionSlots.count)
        // Trailing zeros of `#` places go, of `?` places become spaces, even before a `0` place that
        // keeps its zero (TEXT(1.000000001,"00###.##.0000.00") is "001..0000.00": calc-suite
        // formulas__test EXTRA!A2).
        var fractionTexts = fractionDigits.map { String($0) }
        var index = fractionSlots.count - 1
        while index >= 0, fractionDigits[index] == "0" {
            switch fractionSlots[fractionSlots.startIndex + index] {
            case .digit("#"): fractionTexts[index] = ""
            case .digit("?"): fractionTexts[index] = " "
            default: break
            }
            index -= 1
        }
        // A comma that follows no digit placeholder (`0 ,00`, `# ,0` after the point) is shown as
        // it stands; one after a placeholder groups or scales (Excel's TEXT(1234567890,"0,## ## ,##")
        // is "1,234,56 7,8 ,90": calc-suite formulas__test EXTRA!A15:A23).
        var literalCommas = Set<Int>()
        var previous: Token?
        for (position, token) in section.enumerated() {
            if token == .comma {
                if !(previous?.isDigit ?? false) { literalCommas.insert(position) }
            } else {
                previous = token
            }
        }
        // Integer digits fill the placeholders from the right; the first takes any overflow.
        var result = ""
        var slot = 0
        let count = integerSlots.count
        let shownZero = rounded.isZero && sign == "-" ? "" : sign
        result += shownZero
        var fractionSlot = 0
        for (position, token) in section.enumerated() {
            switch token {
            case .digit(let kind) where position < pointIndex:
                let fromRight = count - 1 - slot
                if slot == 0, integerDigits.count > count {
                    let extra = integerDigits.count - count
                    for (offset, digit) in integerDigits[..<extra].enumerated() {
                        result.append(digit)
                        appendGroup(&result, integerDigits.count - 1 - offset, grouping)
                    }
                }
                if fromRight < integerDigits.count {
                    result.append(integerDigits[integerDigits.count - 1 - fromRight])
                    appendGroup(&result, fromRight, grouping)
                } else if kind == "0" {
                    result.append("0")
                    appendGroup(&result, fromRight, grouping)
                } else if kind == "?" {
                    result.append(" ")
                }
                slot += 1
            case .digit:
                result += fractionTexts[fractionSlot]
                fractionSlot += 1
            case .point:
                // No integer placeholder (`.000`): the whole part still shows, before the point,
                // as Excel shows -1E19 in `.000` as -10000000000000000000.000.
                if count == 0, position == pointIndex {
                    for (offset, digit) in integerDigits.enumerated() {
                        result.append(digit)
                        appendGroup(&result, integerDigits.count - 1 - offset, grouping)
                    }
                }
                result += "."
            case .percent: result += "%"
            case .literal(let text): result += text
            case .comma where literalCommas.contains(position): result += ","
            default: break
            }
        }
        return result
    }

    private static func appendGroup(_ result: inout String, _ fromRight: Int, _ grouping: Bool) {
        if grouping, fromRight > 0, fromRight % 3 == 0 { result += "," }
    }

    /// `0.00E+00`, `##0.0E+0`.
    private static func scientific(_ value: ShownDecimal, _ section: [Token]) -> String {
        guard let exponentIndex = section.firstIndex(where: { if case .exponent = $0 { true } else { false } }),
              case .exponent(let showPlus) = section[exponentIndex] else { return general(value.doubleValue) }
        let mantissaPart = Array(section[..<exponentIndex])
        // The exponent shows as many digits as it has `0` (and `?`) places, at least one: `#`
        // places add none (TEXT(12200000,"0.00E+##") is "1.22E+7": formulas__test EXTRA!A29:A33).
        let exponentSlots = section[(exponentIndex + 1)...].filter { $0.isDigit && $0 != .digit("#") }.count
        let pointIndex = mantissaPart.firstIndex(of: .point) ?? mantissaPart.count
        let integerSlots = max(1, mantissaPart[..<pointIndex].filter { $0.isDigit }.count)
        let fractionSlots = mantissaPart[pointIndex...].filter { $0.isDigit }.count
        var exponent = 0
        var mantissa = value
        if !value.isZero {
            exponent = value.exponent - 1
            // ##0.0E+0: the exponent is a multiple of the integer places (engineering notation).
            if integerSlots > 1 {
                let (quotient, remainder) = exponent.quotientAndRemainder(dividingBy: integerSlots)
                exponent = (remainder < 0 ? quotient - 1 : quotient) * integerSlots
            }
            mantissa = value.scaled(byPowerOfTen: -exponent)
            // Rounded up to 10^integerSlots (9.99 in 0.0E+0): one more step of the exponent.
            if mantissa.rounded(decimals: fractionSlots).exponent > integerSlots {
                exponent += integerSlots
                mantissa = value.scaled(byPowerOfTen: -exponent)
            }
        }
        let mantissaText = fixed(mantissa, mantissaPart, sign: "")
        let exponentText = String(format: "%0\(max(1, exponentSlots))d", abs(exponent))
        var result = mantissaText + "E" + (exponent < 0 ? "-" : showPlus ? "+" : "") + exponentText
        for token in section[(exponentIndex + 1)...] {
            if case .literal(let text) = token { result += text } else if token == .percent { result += "%" }
        }
        return result
    }

    /// `# ?/?`, `# ??/??`, `?/8`: a whole part (when the format has one) and a fraction.
    ///
    /// The fraction is the closest one whose denominator has at most as many digits as the
    /// format's denominator placeholders (found by continued fractions: a bounded number of
    /// steps, however many `?` there are; at most 15 digits, Excel's precision: POI stops at 4
    /// and notes that Excel goes further, as in `# #/#########`). From 10^15 on a number is
    /// whole at 15 significant digits: with no whole part it shows over 1 (1E19 in `?/?` is
    /// `10000000000000000000/1`, the digits Excel shows for it in `0`; POI's `(int)` of it overflows).
    private static func fraction(_ value: ShownDecimal, _ section: [Token]) -> String {
        guard let slash = section.firstIndex(of: .slash) else { return general(value.doubleValue) }
        let before = Array(section[..<slash]), after = Array(section[(slash + 1)...])
        // The numerator's placeholders are the last run before the slash; any before a literal space are the whole part.
        var numeratorStart = before.count
        while numeratorStart > 0, before[numeratorStart - 1].isDigit { numeratorStart -= 1 }
        let wholeSlots = before[..<numeratorStart].contains { $0.isDigit }
        let denominatorDigits = after.prefix { $0.isDigit }
        var fixedDenominator: Double?
        if case .literal(let text)? = after.first, (1...15).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
           let fixed = Double(text), fixed > 0 {
            fixedDenominator = fixed
        }
        var whole = ShownDecimal.zero, numerator = ShownDecimal.zero, denominator = 1.0
        if value.exponent > 15 {
            if wholeSlots {
                whole = value
            } else if let fixed = fixedDenominator {
                // value × fixed on the leading digits (below 1), then shifted back: never overflows.
                numerator = ShownDecimal(value.scaled(byPowerOfTen: -value.exponent).doubleValue * fixed).scaled(byPowerOfTen: value.exponent)
                denominator = fixed
            } else {
                numerator = value
            }
        } else {
            let number = value.doubleValue
            var wholePart = wholeSlots ? number.rounded(.down) : 0
            let remainder = number - wholePart
            var (n, d) = (0.0, 1.0)
            if let fixed = fixedDenominator {
                (n, d) = ((remainder * fixed).rounded(), fixed)
            } else {
                let places = min(max(1, denominatorDigits.count), 15)
                (n, d) = closestFraction(remainder, maxDenominator: pow(10, Double(places)) - 1)
            }
            if n == d, wholeSlots { wholePart += 1; n = 0 }
            (whole, numerator, denominator) = (ShownDecimal(wholePart), ShownDecimal(n), d)
        }
        var result = ""
        if wholeSlots {
            result += fixed(whole, Array(before[..<numeratorStart]), sign: "")
            if numerator.isZero {
                let width = section.filter { $0.isDigit }.count - before[..<numeratorStart].filter { $0.isDigit }.count + 1
                return (whole.isZero ? "0" : result.trimmingCharacters(in: .whitespaces)) + (whole.isZero ? "" : String(repeating: " ", count: max(0, width)))
            }
            if whole.isZero { result = String(repeating: " ", count: result.count) }
        }
        let numeratorText = numerator.wholeText
        let numeratorWidth = before[numeratorStart...].count
        let denominatorText = ShownDecimal(denominator).wholeText
        result += String(repeating: " ", count: max(0, numeratorWidth - numeratorText.count)) + numeratorText + "/" + denominatorText
        if denominatorDigits.count > denominatorText.count { result += String(repeating: " ", count: denominatorDigits.count - denominatorText.count) }
        return result.trimmingCharacters(in: .whitespaces).isEmpty ? "0" : result.trimmingTrailing()
    }

    /// The fraction n/d closest to `x` (0 or more) with d at most `maxDenominator`, the smaller
    /// d on a tie: the last convergent of x's continued fraction within the bound, or the
    /// semiconvergent past it when that is closer. At most 64 steps (a double's continued
    /// fraction ends well before).
    static func closestFraction(_ x: Double, maxDenominator: Double) -> (numerator: Double, denominator: Double) {
        guard x.isFinite, x > 0, maxDenominator >= 1 else { return (0, 1) }
        var (p0, q0, p1, q1) = (0.0, 1.0, 1.0, 0.0)
        var rest = x
        for _ in 0..<64 {
            let term = rest.rounded(.down)
            let q2 = q0 + term * q1
            if q2 > maxDenominator {
                let steps = ((maxDenominator - q0) / q1).rounded(.down)
                let (ps, qs) = (p0 + steps * p1, q0 + steps * q1)
                return abs(x - ps / qs) < abs(x - p1 / q1) ? (ps, qs) : (p1, q1)
            }
            (p0, q0, p1, q1) = (p1, q1, p0 + term * p1, q2)
            let fraction = rest - term
            guard fraction > 0, p1 / q1 != x else { break }
            rest = 1 / fraction
            guard rest.isFinite else { break }
        }
        return (p1, q1)
    }

    // MARK: dates

    private static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                                     "October", "November", "December"]
    private static let dayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// A serial in a date or time section.
    private static func date(_ serial: Double, _ section: [Token], system: DateSystem) -> String {
        let fractionDigits = section.reduce(0) { if case .subsecond(let digits) = $1 { max($0, digits) } else { $0 } }
        let scale = 86_400 * pow(10, Double(fractionDigits))
        let rounded = (serial * scale).rounded() / scale
        let elapsed = section.contains { if case .elapsed = $0 { true } else { false } }
        guard var dateTime = elapsed ? ExcelDateTime(elapsedDays: rounded) : ExcelDateTime(serial: rounded, system: system)
                ?? ExcelDateTime(elapsedDays: rounded) else { return String(repeating: "#", count: 11) }
        let twelveHour = section.contains(.meridiem(true)) || section.contains(.meridiem(false))
        let totalMilliseconds = Int((rounded * 86_400_000).rounded())
        let milliseconds = dateTime.millisecondOfDay
        let hour = milliseconds / 3_600_000, minute = milliseconds / 60_000 % 60, second = milliseconds / 1000 % 60
        // The weekday from the civil date; in the 1900 system by Excel's own count, where serial 1
        // (1900-01-01) was a Sunday and serial 60 is the 29 February 1900 that never was (Excel
        // shows it, and TEXT(60,"yyyy-mm-dd") is "1900-02-29").
        var weekday = ExcelDateTime.weekday(year: dateTime.year, month: dateTime.month, day: dateTime.day)
        if system == .excel1900, !elapsed, rounded < 61 {
            let wholeDays = Int(rounded.rounded(.down))
            weekday = ((wholeDays - 1) % 7 + 7) % 7
            if wholeDays == 60 { dateTime = ExcelDateTime(year: 1900, month: 2, day: 29, millisecondOfDay: dateTime.millisecondOfDay) }
        }
        var result = ""
        func pad(_ value: Int, _ width: Int) -> String { width <= 1 ? String(value) : String(format: "%0\(width)d", value) }
        for token in section {
            switch token {
            case .literal(let text): result += text
            case .year(let count): result += count <= 2 ? pad(dateTime.year % 100, 2) : pad(dateTime.year, 4)
            case .month(let count):
                switch count {
                case 1, 2: result += pad(dateTime.month, count)
                case 3: result += String(monthNames[dateTime.month - 1].prefix(3))
                case 5: result += String(monthNames[dateTime.month - 1].prefix(1))
                default: result += monthNames[dateTime.month - 1]
                }
            case .day(let count):
                switch count {
                case 1, 2: result += pad(dateTime.day, count)
                case 3: result += String(dayNames[weekday].prefix(3))
                default: result += dayNames[weekday]
                }
            case .hour(let count):
                let shown = twelveHour ? (hour % 12 == 0 ? 12 : hour % 12) : hour
                result += pad(shown, min(count, 2))
            case .minute(let count): result += pad(minute, min(count, 2))
            case .second(let count): result += pad(second, min(count, 2))
            case .subsecond(let digits):
                let fraction = String(format: "%03d", milliseconds % 1000)
                result += "." + fraction.prefix(digits)
            case .meridiem(let long):
                let afternoon = hour >= 12
                result += long ? (afternoon ? "PM" : "AM") : (afternoon ? "P" : "A")
            case .elapsed(let unit, let width):
                let total = totalMilliseconds / 1000
                let value = unit == "h" ? total / 3600 : unit == "m" ? total / 60 : total
                result += pad(value, width)
            case .comma: result += ","
            case .point: result += "."
            case .percent: result += "%"
            case .slash: result += "/"
            case .at: result += "@"
            default: break
            }
        }
        return result
    }

    // MARK: tokens

    enum Token: Equatable {
        case literal(String)
        case digit(Character) // 0 # ?
        case point, comma, percent, slash, at, general
        case exponent(showPlus: Bool)
        case condition(String, Double)
        case year(Int), month(Int), day(Int), hour(Int), minute(Int), second(Int), subsecond(Int)
        case meridiem(Bool)
        case elapsed(Character, Int)

        var isDigit: Bool { if case .digit = self { true } else { false } }
        var isDatePart: Bool {
            switch self {
            case .year, .month, .day, .hour, .minute, .second, .meridiem, .elapsed: true
            default: false
            }
        }
    }

    nonisolated(unsafe) private static var cache: [String: [[Token]]] = [:]
    private static let cacheLock = NSLock()

    /// The sections of `code`, tokenized (cached: a sheet has few formats).
    static func split(_ code: String) -> [[Token]] {
        cacheLock.lock()
        if let cached = cache[code] { cacheLock.unlock(); return cached }
        cacheLock.unlock()
        var sections: [[Token]] = [[]]
        let characters = Array(code)
        var index = 0
        // Adjacent literals join in one token, built in place (linear in the code's length).
        var literal = ""
        func flush() {
            guard !literal.isEmpty else { return }
            sections[sections.count - 1].append(.literal(literal))
            literal = ""
        }
        // What the current section holds so far, kept as tokens are added (no rescan per token).
        var lastDatePart: Token?
        var hasDigit = false
        func add(_ token: Token) {
            if case .literal(let text) = token { literal += text; return }
            flush()
            sections[sections.count - 1].append(token)
            if token.isDatePart { lastDatePart = token }
            if token.isDigit { hasDigit = true }
        }
        func run(_ character: Character) -> Int {
            var count = 0
            while index + count < characters.count, characters[index + count].lowercased() == character.lowercased() { count += 1 }
            return count
        }
        while index < characters.count {
            let character = characters[index]
            let lower = Character(character.lowercased())
            switch character {
            case ";": flush(); sections.append([]); lastDatePart = nil; hasDigit = false; index += 1
            case "\"":
                var text = ""
                index += 1
                while index < characters.count, characters[index] != "\"" { text.append(characters[index]); index += 1 }
                index += 1
                add(.literal(text))
            case "\\":
                if index + 1 < characters.count { add(.literal(String(characters[index + 1]))) }
                index += 2
            case "_": add(.literal(" ")); index += 2
            case "*": index += 2
            case "[":
                guard let close = characters[index...].firstIndex(of: "]") else { index = characters.count; continue }
                let inside = String(characters[(index + 1)..<close])
                index = close + 1
                let lowered = inside.lowercased()
                if !lowered.isEmpty, lowered.allSatisfy({ $0 == lowered.first }), "hms".contains(lowered.first!) {
                    add(.elapsed(lowered.first!, lowered.count))
                } else if let first = inside.first, "<>=".contains(first) {
                    let op = String(inside.prefix { "<>=".contains($0) })
                    if let limit = Double(inside.dropFirst(op.count).trimmingCharacters(in: .whitespaces)) { add(.condition(op, limit)) }
                } else if inside.hasPrefix("$") {
                    let symbol = inside.dropFirst().prefix { $0 != "-" }
                    if !symbol.isEmpty { add(.literal(String(symbol))) }
                }
                // Colours ([Red], [Color 10]) and anything else show nothing.
            case "0", "#", "?": add(.digit(character)); index += 1
            case ".":
                if case .second? = lastDatePart,
                   index + 1 < characters.count, characters[index + 1] == "0" {
                    index += 1
                    let zeros = run("0")
                    index += zeros
                    add(.subsecond(min(zeros, 3)))
                } else {
                    add(.point); index += 1
                }
            case ",": add(.comma); index += 1
            case "%": add(.percent); index += 1
            case "/":
                if hasDigit { add(.slash) } else { add(.literal("/")) }
                index += 1
            case "@": add(.at); index += 1
            case "E", "e":
                if index + 1 < characters.count, characters[index + 1] == "+" || characters[index + 1] == "-" {
                    add(.exponent(showPlus: characters[index + 1] == "+")); index += 2
                } else if lower == "e" {
                    let count = run("e"); index += count; add(.year(4))
                }
            default:
                if characters.count - index >= 7, String(characters[index..<(index + 7)]).lowercased() == "general" {
                    add(.general); index += 7; continue
                }
                if String(characters[index..<min(characters.count, index + 5)]).uppercased() == "AM/PM" {
                    add(.meridiem(true)); index += 5; continue
                }
                if String(characters[index..<min(characters.count, index + 3)]).uppercased() == "A/P" {
                    add(.meridiem(false)); index += 3; continue
                }
                switch lower {
                case "y": let count = run("y"); index += count; add(.year(count))
                case "d": let count = run("d"); index += count; add(.day(count))
                case "h": let count = run("h"); index += count; add(.hour(count))
                case "s": let count = run("s"); index += count; add(.second(count))
                case "m":
                    let count = run("m"); index += count
                    add(.month(count)) // decided below: minutes after h or before s
                case "b":
                    // b1/b2 (Buddhist era) are not en-US: shown as the year.
                    let count = run("b"); index += count; add(.year(count >= 2 ? 4 : 2))
                default:
                    add(.literal(String(character))); index += 1
                }
            }
        }
        flush()
        // `m` and `mm` are minutes after an hour or before a second (the date parts around each
        // found in one pass each way, so a long code stays linear).
        for section in sections.indices {
            var tokens = sections[section]
            var nextDatePart = [Token?](repeating: nil, count: tokens.count)
            var following: Token?
            for position in tokens.indices.reversed() {
                nextDatePart[position] = following
                if tokens[position].isDatePart { following = tokens[position] }
            }
            var previous: Token?
            for position in tokens.indices {
                if case .month(let count) = tokens[position], count <= 2 {
                    var afterHour = false, beforeSecond = false
                    if let previous { switch previous { case .hour, .elapsed("h", _): afterHour = true; default: break } }
                    if let next = nextDatePart[position] { switch next { case .second, .elapsed("s", _): beforeSecond = true; default: break } }
                    if afterHour || beforeSecond { tokens[position] = .minute(count) }
                }
                if tokens[position].isDatePart { previous = tokens[position] }
            }
            sections[section] = tokens
        }
        if sections.count > 1, sections.last?.isEmpty == true, !code.hasSuffix(";") { sections.removeLast() }
        // Bounded: TEXT can bring any number of codes (a sheet's few stay hot), and a code far
        // longer than Excel's 255 characters (only a file not validated has one) is not kept.
        guard characters.count <= 4 * NumberFormat.maxCodeLength else { return sections }
        cacheLock.lock()
        if cache.count >= 4096 { cache.removeAll(keepingCapacity: true) }
        cache[code] = sections
        cacheLock.unlock()
        return sections
    }
}

extension ExcelDateTime {
    /// 0 for Sunday ... 6 for Saturday.
    static func weekday(year: Int, month: Int, day: Int) -> Int {
        // Zeller-like: Sakamoto's method.
        let offsets = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
        let y = month < 3 ? year - 1 : year
        return (y + y / 4 - y / 100 + y / 400 + offsets[month - 1] + day) % 7
    }
}

private extension String {
    func withSign(_ sign: String) -> String { sign + self }

    func trimmingTrailing() -> String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
