/// NUMBERVALUE(text, [decimal_separator], [group_separator]): a number from text written with the
/// given separators, by the rules of Microsoft's NUMBERVALUE reference and the values Excel
/// caches (calc-suite formulas__test TEXT!R27:AC28).
extension Functions {
    static let numberValue: [FunctionSpec] = [
        scalar("NUMBERVALUE", 1, 3) { ev, a in
            let text = try ev.str(a[0])
            // Only the first character of a separator counts; an empty one is #VALUE!.
            let decimal = ev.isMissing(a, 1) ? "." : try ev.str(a[1])
            let group = ev.isMissing(a, 2) ? nil : try ev.str(a[2])
            guard let d = decimal.first, group.map({ !$0.isEmpty }) ?? true else { return .value(.error(.value)) }
            // The locale's (en-US) group separator stands in for a missing one, unless it is the
            // decimal separator given: `NUMBERVALUE("(2500,27E+6%)%",",")` is -250027 in Excel.
            let g: Character? = group.map { $0.first! } ?? (d == "," ? nil : ",")
            guard g != d, let x = parseNumberValue(text, decimal: d, group: g) else { return .value(.error(.value)) }
            return number(x)
        },
    ]

    /// The number in `text`, or nil. Spaces go anywhere; group separators only before the decimal
    /// one (after it, or twice a decimal one, nil); an exponent (`E+6`) after the digits; any
    /// number of `%`, each dividing by 100, at the end and before a closing parenthesis; a leading
    /// sign, or parentheses around the number for a negative one, not both.
    static func parseNumberValue(_ text: String, decimal: Character, group: Character?) -> Double? {
        let s = Array(text.filter { !$0.isWhitespace })
        guard !s.isEmpty else { return 0 }
        var i = 0
        var negative = false, parenthesised = false, percent = 0
        if s[0] == "-" || s[0] == "+", s[0] != decimal, s[0] != group {
            negative = s[0] == "-"
            i = 1
        } else if s[0] == "(", s[0] != decimal, s[0] != group {
            parenthesised = true
            i = 1
        }
        var plain = "", sawDecimal = false, sawDigit = false
        while i < s.count {
            let c = s[i]
            if c == decimal {
                guard !sawDecimal else { return nil }
                sawDecimal = true
                plain.append(".")
            } else if c == group {
                guard !sawDecimal else { return nil }
            } else if c.isASCII, c.isNumber {
                sawDigit = true
                plain.append(c)
            } else {
                break
            }
            i += 1
        }
        guard sawDigit else { return nil }
        if i < s.count, s[i] == "E" || s[i] == "e" {
            plain.append("e")
            i += 1
            if i < s.count, s[i] == "+" || s[i] == "-" { plain.append(s[i]); i += 1 }
            let start = i
            // A separator is one even among the exponent's digits (NUMBERVALUE("1E+300","0") is
            // #VALUE! in IronCalc and LibreOffice alike).
            while i < s.count, s[i].isASCII, s[i].isNumber {
                guard s[i] != decimal, s[i] != group else { return nil }
                plain.append(s[i])
                i += 1
            }
            guard i > start else { return nil }
        }
        while i < s.count, s[i] == "%" { percent += 1; i += 1 }
        if parenthesised {
            guard i < s.count, s[i] == ")" else { return nil }
            i += 1
            while i < s.count, s[i] == "%" { percent += 1; i += 1 }
        }
        guard i == s.count, var x = Double(plain) else { return nil }
        for _ in 0..<percent { x /= 100 }
        return negative || parenthesised ? -x : x
    }
}
