
/// Roman numerals: ROMAN's five forms (0 classic to 4 simplified) and ARABIC.
enum RomanNumerals {
    static let letters: [Character] = ["M", "D", "C", "L", "X", "V", "I"]
    static let values = [1000, 500, 100, 50, 10, 5, 1]

    /// The numeral of 0 <= n < 4000 in form 0...4: the classic form writes 499 CDXCIX, each step
    /// up lets a subtraction span one more letter (form 4: ID). Per decimal digit, a 4 or 9 takes
    /// the widest subtraction the form allows that still fits the rest of the number.
    static func roman(_ n: Int, form: Int) -> String {
        var out = ""
        var value = n
        let last = values.count - 1
        for i in 0...(last / 2) {
            var index = 2 * i
            let digit = value / values[index]
            if digit % 5 == 4 {
                let index2 = digit == 4 ? index - 1 : index - 2
                var steps = 0
                while steps < form && index < last {
                    steps += 1
                    if values[index2] - values[index + 1] <= value { index += 1 } else { steps = form }
                }
                out.append(letters[index])
                out.append(letters[index2])
                value += values[index] - values[index2]
            } else {
                if digit > 4 { out.append(letters[index - 1]) }
                out += String(repeating: letters[index], count: digit % 5)
                value %= values[index]
            }
        }
        return out
    }

    /// The value of a numeral, any form (a letter before a larger one subtracts), case-insensitive;
    /// nil for any other character.
    static func arabic(_ text: Substring) -> Int? {
        var total = 0
        var previous = 0
        for ch in text.reversed() {
            guard let k = letters.firstIndex(of: Character(ch.uppercased())) else { return nil }
            let v = values[k]
            if v < previous { total -= v } else { total += v; previous = v }
        }
        return total
    }
}

extension Functions {
    static let romanNumerals: [FunctionSpec] = [
        // ROMAN(number, [form]): 0 <= number < 4000 (truncated), form 0-4 or TRUE (0) / FALSE (4).
        scalar("ROMAN", 1, 2) { ev, a in
            let n = (try ev.num(a[0])).rounded(.towardZero)
            var form = 0.0
            if !ev.isMissing(a, 1) {
                let v = try ev.checked(a[1])
                if case .boolean(let b) = v { form = b ? 0 : 4 } else { form = (try ev.number(v)).rounded(.towardZero) }
            }
            guard n >= 0, n < 4000, form >= 0, form <= 4 else { return .value(.error(.value)) }
            return .value(.text(RomanNumerals.roman(Int(n), form: Int(form))))
        },
        // ARABIC(text): a numeral of any form, spaces around it and a leading minus allowed, at most
        // 255 characters; an empty text is 0; anything else #VALUE!.
        scalar("ARABIC", 1, 1) { ev, a in
            let v = try ev.checked(a[0])
            guard case .text = v else {
                if case .empty = v { return .value(.number(0)) }
                return .value(.error(.value))
            }
            let t = try ev.text(v)
            guard t.utf16.count <= 255 else { return .value(.error(.value)) }
            var s = Substring(t)
            while s.first == " " { s = s.dropFirst() }
            while s.last == " " { s = s.dropLast() }
            var negative = false
            if s.first == "-" { negative = true; s = s.dropFirst() }
            guard let n = RomanNumerals.arabic(s) else { return .value(.error(.value)) }
            return number(Double(negative ? -n : n))
        },
    ]
}
