import Foundation

/// REGEXTEST, REGEXEXTRACT and REGEXREPLACE on Foundation's NSRegularExpression (ICU's engine).
/// Excel's flavour is PCRE2; ICU reads the same syntax for classes, quantifiers (lazy and
/// possessive), groups (named `(?<n>...)`), lookaround, anchors and `\b`, `\d`, `\w`, `\s`, and
/// the inline flags `(?i)`, `(?m)`, `(?s)`, `(?x)`. What differs: PCRE's recursion `(?R)`,
/// `(?1)`, conditionals `(?(1)...)`, `\K`, callouts and backtracking verbs (`(*SKIP)`) are
/// errors here (#VALUE!, as for any pattern that does not compile); `\h`/`\v` and POSIX classes
/// inside brackets (`[[:alpha:]]`) follow ICU's meaning. Each call stops after
/// `Regex.timeLimit` seconds of matching (a hostile pattern such as `(a+)+$` on a long text):
/// the result is then #CALC!.
enum TextRegex {
    static let timeLimit = 0.5

    static func compile(_ pattern: String, ignoreCase: Bool) throws -> NSRegularExpression {
        guard let r = try? NSRegularExpression(pattern: pattern, options: ignoreCase ? [.caseInsensitive] : []) else {
            throw EvalInterrupt.error(.value)
        }
        return r
    }

    /// The matches in `text`, at most `limit`, within the time limit (#CALC! past it).
    static func matches(_ regex: NSRegularExpression, _ text: String, limit: Int = .max) throws -> [NSTextCheckingResult] {
        var out: [NSTextCheckingResult] = []
        var timedOut = false
        let deadline = systemUnixTime() + timeLimit
        let ns = text as NSString
        regex.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(location: 0, length: ns.length)) { result, _, stop in
            if let result { out.append(result) }
            if out.count >= limit { stop.pointee = true }
            if systemUnixTime() > deadline { timedOut = true; stop.pointee = true }
        }
        if timedOut { throw EvalInterrupt.error(.calc) }
        return out
    }

    static func substring(_ text: NSString, _ range: NSRange) -> CalcValue {
        range.location == NSNotFound ? .text("") : .text(text.substring(with: range))
    }
}

extension Functions {
    static let regularExpressions: [FunctionSpec] = [
        // REGEXTEST(text, pattern, [case_sensitivity]).
        scalar("REGEXTEST", 2, 3) { ev, a in
            let text = try ev.str(a[0]), pattern = try ev.str(a[1])
            let regex = try TextRegex.compile(pattern, ignoreCase: try switchArgument(ev, a, 2))
            return .value(.boolean(!(try TextRegex.matches(regex, text, limit: 1)).isEmpty))
        },
        // REGEXEXTRACT(text, pattern, [return_mode], [case_sensitivity]): 0 the first match, 1 every
        // match (a row), 2 the first match's groups (a row); no match #N/A, a pattern without groups in mode 2 #VALUE!.
        scalar("REGEXEXTRACT", 2, 4) { ev, a in
            let text = try ev.str(a[0]), pattern = try ev.str(a[1])
            let mode = try ev.int(a, 2, default: 0)
            guard (0...2).contains(mode) else { return .value(.error(.value)) }
            let regex = try TextRegex.compile(pattern, ignoreCase: try switchArgument(ev, a, 3))
            let found = try TextRegex.matches(regex, text, limit: mode == 1 ? .max : 1)
            guard let first = found.first else { return .value(.error(.notAvailable)) }
            let ns = text as NSString
            var values: [CalcValue]
            switch mode {
            case 0: return .value(TextRegex.substring(ns, first.range))
            case 1: values = found.map { TextRegex.substring(ns, $0.range) }
            default:
                // A match with no group to return is #VALUE! (calc-suite formulas__test EXTRA!K3).
                guard first.numberOfRanges > 1 else { return .value(.error(.value)) }
                values = (1..<first.numberOfRanges).map { TextRegex.substring(ns, first.range(at: $0)) }
            }
            if values.count == 1 { return .value(values[0]) }
            return .value(.array(CalcArray(rows: 1, columns: values.count, values: values)))
        },
        // REGEXREPLACE(text, pattern, replacement, [occurrence], [case_sensitivity]): $n in the
        // replacement is group n; occurrence 0 replaces every match, n the nth, -n the nth from the end.
        scalar("REGEXREPLACE", 3, 5) { ev, a in
            let text = try ev.str(a[0]), pattern = try ev.str(a[1]), replacement = try ev.str(a[2])
            let occurrence = try ev.int(a, 3, default: 0)
            let regex = try TextRegex.compile(pattern, ignoreCase: try switchArgument(ev, a, 4))
            let found = try TextRegex.matches(regex, text)
            let chosen: [NSTextCheckingResult]
            if occurrence == 0 {
                chosen = found
            } else {
                let k = occurrence > 0 ? occurrence - 1 : found.count + occurrence
                chosen = k >= 0 && k < found.count ? [found[k]] : []
            }
            let out = NSMutableString(string: text)
            for m in chosen.reversed() {
                let piece = regex.replacementString(for: m, in: text, offset: 0, template: replacement)
                out.replaceCharacters(in: m.range, with: piece)
            }
            let s = out as String
            guard s.utf16.count <= 32_767 else { return .value(.error(.value)) }
            return .value(.text(s))
        },
    ]
}
