import SheetPortCore

extension Functions {
    static func utf16(_ s: String) -> [UInt16] { Array(s.utf16) }
    static func string(_ u: ArraySlice<UInt16>) -> String { String(decoding: u, as: UTF16.self) }

    static let text: [FunctionSpec] = [
        scalar("CONCATENATE", 1, 255) { ev, a in
            var s = LimitedText()
            for x in a { try s.append(try ev.str(x)) }
            return .value(.text(s.text))
        },
        raw("CONCAT", 1, 255) { ev, a in
            var s = LimitedText()
            try ev.forEachValue(a, rowMajor: true) { v, _ in try s.append(try ev.text(v)) }
            return .value(.text(s.text))
        },
        raw("TEXTJOIN", 3, 255) { ev, a in
            let delimiter = try ev.str(a[0])
            let skipEmpty = try ev.flag(a[1])
            var s = LimitedText(), first = true
            try ev.forEachValue(Array(a.dropFirst(2)), rowMajor: true, includeEmpty: !skipEmpty) { v, _ in
                let t = try ev.text(v)
                guard !(skipEmpty && t.isEmpty) else { return }
                if !first { try s.append(delimiter) }
                first = false
                try s.append(t)
            }
            return .value(.text(s.text))
        },
        scalar("LEFT", 1, 2) { ev, a in
            let u = utf16(try ev.str(a[0]))
            let n = try ev.int(a, 1, default: 1)
            guard n >= 0 else { return .value(.error(.value)) }
            return .value(.text(string(u.prefix(n))))
        },
        scalar("RIGHT", 1, 2) { ev, a in
            let u = utf16(try ev.str(a[0]))
            let n = try ev.int(a, 1, default: 1)
            guard n >= 0 else { return .value(.error(.value)) }
            return .value(.text(string(u.suffix(n))))
        },
        scalar("MID", 3, 3) { ev, a in
            let u = utf16(try ev.str(a[0]))
            let start = try ev.int(a[1]), n = try ev.int(a[2])
            guard start >= 1, n >= 0 else { return .value(.error(.value)) }
            guard start <= u.count else { return .value(.text("")) }
            return .value(.text(string(u[(start - 1)..<min(u.count, start - 1 + n)])))
        },
        scalar("LEN", 1, 1) { ev, a in .value(.number(Double(try ev.str(a[0]).utf16.count))) },
        scalar("FIND", 2, 3) { ev, a in
            let needle = utf16(try ev.str(a[0])), hay = utf16(try ev.str(a[1]))
            let start = try ev.int(a, 2, default: 1)
            guard start >= 1, start <= hay.count + 1 else { return .value(.error(.value)) }
            if needle.isEmpty { return .value(.number(Double(start))) }
            var i = start - 1
            while i + needle.count <= hay.count {
                if hay[i..<(i + needle.count)].elementsEqual(needle) { return .value(.number(Double(i + 1))) }
                i += 1
            }
            return .value(.error(.value))
        },
        scalar("SEARCH", 2, 3) { ev, a in
            let needle = try ev.str(a[0]), hay = Array(try ev.str(a[1]).lowercased())
            let start = try ev.int(a, 2, default: 1)
            guard start >= 1, start <= hay.count + 1 else { return .value(.error(.value)) }
            if needle.isEmpty { return .value(.number(Double(start))) }
            // A trailing unpaired `~` escapes nothing (not the `*` added here): SEARCH("~","Hello") is 1
            // (calc-suite TEXT__FIND_SEARCH E29:E30).
            let tildes = needle.reversed().prefix { $0 == "~" }.count
            let pattern = WildcardPattern((tildes % 2 == 1 ? String(needle.dropLast()) : needle) + "*")
            var i = start - 1
            while i < hay.count {
                if pattern.matches(Array(hay[i...])) { return .value(.number(Double(i + 1))) }
                i += 1
            }
            return .value(.error(.value))
        },
        scalar("SUBSTITUTE", 3, 4) { ev, a in
            let text = try ev.str(a[0]), old = try ev.str(a[1]), new = try ev.str(a[2])
            guard !old.isEmpty else { return .value(.text(text)) }
            let instance = ev.isMissing(a, 3) ? 0 : try ev.int(a[3])
            if !ev.isMissing(a, 3) && instance < 1 { return .value(.error(.value)) }
            let t = utf16(text), o = utf16(old), n = utf16(new)
            var out: [UInt16] = []
            var i = 0, seen = 0
            while i < t.count {
                if i + o.count <= t.count, t[i..<(i + o.count)].elementsEqual(o) {
                    seen += 1
                    if instance == 0 || seen == instance {
                        // Measured before it grows: past 32,767 characters the result is #VALUE!.
                        guard out.count + n.count <= CalcLimits.maxTextLength else { return .value(.error(.value)) }
                        out.append(contentsOf: n); i += o.count; continue
                    }
                }
                out.append(t[i]); i += 1
            }
            return .value(.text(string(out[...])))
        },
        scalar("REPLACE", 4, 4) { ev, a in
            let t = utf16(try ev.str(a[0]))
            let start = try ev.int(a[1]), n = try ev.int(a[2])
            let new = utf16(try ev.str(a[3]))
            guard start >= 1, n >= 0 else { return .value(.error(.value)) }
            let s = min(start - 1, t.count), e = min(t.count, s + n)
            return .value(.text(string((Array(t[..<s]) + new + Array(t[e...]))[...])))
        },
        scalar("UPPER", 1, 1) { ev, a in .value(.text(try ev.str(a[0]).uppercased())) },
        scalar("LOWER", 1, 1) { ev, a in .value(.text(try ev.str(a[0]).lowercased())) },
        scalar("PROPER", 1, 1) { ev, a in
            var out = ""
            var previousLetter = false
            for ch in try ev.str(a[0]) {
                out += previousLetter ? String(ch).lowercased() : String(ch).uppercased()
                previousLetter = ch.isLetter
            }
            return .value(.text(out))
        },
        scalar("TRIM", 1, 1) { ev, a in
            let words = try ev.str(a[0]).split(separator: " ", omittingEmptySubsequences: true)
            return .value(.text(words.joined(separator: " ")))
        },
        scalar("CLEAN", 1, 1) { ev, a in
            .value(.text(String(String.UnicodeScalarView(try ev.str(a[0]).unicodeScalars.filter { $0.value >= 32 }))))
        },
        scalar("VALUE", 1, 1) { ev, a in
            switch try ev.scalar(a[0]) {
            case .number(let x): return .value(.number(x))
            case .empty: return .value(.number(0))
            case .error(let e): return .value(.error(e))
            case .boolean: return .value(.error(.value))
            case .text(let t):
                guard let x = Coercion.number(fromText: t, system: ev.dateSystem) else { return .value(.error(.value)) }
                return .value(.number(x))
            case .array: return .value(.error(.value))
            }
        },
        scalar("REPT", 2, 2) { ev, a in
            let t = try ev.str(a[0]), n = try ev.int(a[1])
            let (length, overflow) = t.utf16.count.multipliedReportingOverflow(by: n)
            guard n >= 0, !overflow, length <= CalcLimits.maxTextLength else { return .value(.error(.value)) }
            // An empty text repeated is empty however many times: no loop of n (REPT("",1E9) took 20 s).
            return .value(.text(t.isEmpty ? "" : String(repeating: t, count: n)))
        },
        scalar("EXACT", 2, 2) { ev, a in .value(.boolean(try ev.str(a[0]) == (try ev.str(a[1])))) },
        scalar("CHAR", 1, 1) { ev, a in
            // Truncated, and any number outside 1-255 (1E300 too) is #VALUE!, as in Excel.
            let x = try ev.num(a[0])
            guard x >= 1, x < 256 else { return .value(.error(.value)) }
            return .value(.text(String(Character(Unicode.Scalar(ev.engine.codePage.scalar(Int(x))) ?? "?"))))
        },
        scalar("CODE", 1, 1) { ev, a in
            guard let first = try ev.str(a[0]).unicodeScalars.first else { return .value(.error(.value)) }
            return .value(.number(Double(ev.engine.codePage.code(first.value))))
        },
        scalar("UNICHAR", 1, 1) { ev, a in
            let n = try ev.int(a[0])
            guard n >= 1, let s = Unicode.Scalar(UInt32(clamping: n)) else { return .value(.error(.value)) }
            return .value(.text(String(Character(s))))
        },
        scalar("UNICODE", 1, 1) { ev, a in
            guard let first = try ev.str(a[0]).unicodeScalars.first else { return .value(.error(.value)) }
            return .value(.number(Double(first.value)))
        },
        scalar("TEXT", 2, 2) { ev, a in
            let v = try ev.checked(a[0])
            let format = try ev.str(a[1])
            // Excel takes format codes of at most 255 characters, and gives no text longer than a cell holds.
            guard format.utf16.count <= NumberFormat.maxCodeLength else { return .value(.error(.value)) }
            // A quote left open is no format code: TEXT(1.23,"#""°F""""") is #VALUE! (calc-suite formulas__test EXTRA!A4).
            guard !leavesQuoteOpen(format) else { return .value(.error(.value)) }
            func shown(_ text: String) -> Operand {
                text.utf16.count <= NumberFormatRenderer.maxTextLength ? .value(.text(text)) : .value(.error(.value))
            }
            switch v {
            case .text(let t):
                if let x = Coercion.number(fromText: t, system: ev.dateSystem) {
                    return shown(ev.engine.numberFormatting.format(x, format, dateSystem: ev.dateSystem) ?? t)
                }
                return shown(BuiltInNumberFormatting.text(t, format, dateSystem: ev.dateSystem))
            case .boolean(let flag):
                // Excel shows a logical as TRUE or FALSE whatever the format: TEXT(TRUE,"#.###") is TRUE.
                return .value(.text(flag ? "TRUE" : "FALSE"))
            default:
                let x = try ev.number(v)
                guard let s = ev.engine.numberFormatting.format(x, format, dateSystem: ev.dateSystem) else { return .value(.error(.value)) }
                return shown(s)
            }
        },
        scalar("FIXED", 1, 3) { ev, a in
            let x = try ev.num(a[0]), d = try ev.int(a, 1, default: 2)
            // Excel takes at most 127 decimals (Microsoft: "Decimals can be as large as 127"); past
            // them the format code alone would be as long as the number asked for.
            guard d <= 127 else { return .value(.error(.value)) }
            let noCommas = ev.isMissing(a, 2) ? false : try ev.flag(a[2])
            let r = round(x, d, .toNearestOrAwayFromZero)
            return .value(.text(BuiltInNumberFormatting.fixed(r, decimals: max(d, 0), grouping: !noCommas)))
        },
        scalar("DOLLAR", 1, 2) { ev, a in
            let x = try ev.num(a[0]), d = try ev.int(a, 1, default: 2)
            guard d <= 127 else { return .value(.error(.value)) }
            let r = round(x, d, .toNearestOrAwayFromZero)
            let body = "$" + BuiltInNumberFormatting.fixed(Swift.abs(r), decimals: max(d, 0), grouping: true)
            return .value(.text(r < 0 ? "(" + body + ")" : body))
        },
    ]

    /// Whether a format code opens a quoted text it never closes (an escaped `\"` opens none).
    static func leavesQuoteOpen(_ format: String) -> Bool {
        var quoted = false, escaped = false
        for c in format.unicodeScalars {
            if escaped {
                escaped = false
            } else if c == "\"" {
                quoted.toggle()
            } else if c == "\\", !quoted {
                escaped = true
            }
        }
        return quoted
    }
}
