
/// Finding delimiters in text, for TEXTBEFORE, TEXTAFTER and TEXTSPLIT: positions count
/// characters; a delimiter argument may be one text or an array of them (each may match).
struct DelimiterSearch {
    let text: [Character]
    let delimiters: [[Character]]
    let ignoreCase: Bool

    init(_ text: String, _ delimiters: [String], ignoreCase: Bool) {
        self.ignoreCase = ignoreCase
        self.text = ignoreCase ? Array(text).map { Character($0.lowercased()) } : Array(text)
        self.delimiters = delimiters.map { ignoreCase ? Array($0).map { Character($0.lowercased()) } : Array($0) }
    }

    /// The length of the longest delimiter found at `k`, or nil.
    func match(at k: Int) -> Int? {
        var best: Int?
        for d in delimiters where !d.isEmpty && k + d.count <= text.count {
            var hit = true
            for (i, ch) in d.enumerated() where text[k + i] != ch { hit = false; break }
            if hit, d.count > (best ?? 0) { best = d.count }
        }
        return best
    }

    /// Every occurrence, left to right, not overlapping: (start, end) in characters.
    var occurrences: [(Int, Int)] {
        var out: [(Int, Int)] = []
        var k = 0
        while k < text.count {
            if let n = match(at: k) { out.append((k, k + n)); k += n } else { k += 1 }
        }
        return out
    }
}

extension Functions {
    /// The texts of a delimiter argument (a text, or every element of an array or range); #VALUE!
    /// when there is none.
    static func delimiterTexts(_ ev: Evaluator, _ op: Operand) throws -> [String] {
        var out: [String] = []
        switch op {
        case .missing: break
        case .value(.array(let a)): for v in a.values { out.append(try ev.text(v)) }
        case .ref(let r) where !r.isSingleCell: for v in try ev.matrix(r).values { out.append(try ev.text(v)) }
        default: out.append(try ev.str(op))
        }
        return out
    }

    /// TEXTBEFORE and TEXTAFTER(text, delimiter, [instance_num], [match_mode], [match_end], [if_not_found]).
    static func textAround(_ name: String, before: Bool) -> FunctionSpec {
        raw(name, 2, 6) { ev, a in
            let text = try ev.str(a[0])
            let delimiters = try delimiterTexts(ev, a[1])
            guard !delimiters.isEmpty else { return .value(.error(.value)) }
            // instance_num is floored (-1.2 is -2: calc-suite TEXT__TEXTBEFORE_TEXTAFTER row 17).
            let instanceNumber = try ev.num(a, 2, default: 1).rounded(.down)
            guard instanceNumber.magnitude < 1e9 else { return .value(.error(.value)) }
            let instance = Int(instanceNumber)
            let ignoreCase = ev.isMissing(a, 3) ? false : try ev.int(a[3]) != 0
            // match_end is 0 or 1 (2 and -12 are #VALUE!: rows 39-40).
            if !ev.isMissing(a, 4), case .number(let x) = try ev.scalar(a[4]), x != 0, x != 1 { return .value(.error(.value)) }
            let matchEnd = ev.isMissing(a, 4) ? false : try ev.flag(a[4])
            let chars = Array(text)
            guard instance != 0, Swift.abs(instance) <= Swift.max(chars.count, 1) else { return .value(.error(.value)) }
            // An instance asked for past the delimiter's last possible place is #VALUE! (TEXTAFTER("del","deli",1)
            // is #VALUE!, without the instance #N/A: rows 19-20).
            let shortest = delimiters.map(\.count).min() ?? 0
            if !ev.isMissing(a, 2), shortest > 0, Swift.abs(instance) > chars.count - shortest + 1 { return .value(.error(.value)) }
            if let mode = ev.isMissing(a, 3) ? nil : try ev.int(a[3]), mode != 0 && mode != 1 { return .value(.error(.value)) }
            let search = DelimiterSearch(text, delimiters, ignoreCase: ignoreCase)
            var found = search.occurrences
            if delimiters.contains(where: \.isEmpty) {
                // An empty delimiter matches at the start (and, counting from the end, at the end).
                found = instance > 0 ? [(0, 0)] + found : found + [(chars.count, chars.count)]
            }
            if matchEnd {
                if instance > 0 { found.append((chars.count, chars.count)) } else { found.insert((0, 0), at: 0) }
            }
            let k = instance > 0 ? instance - 1 : found.count + instance
            guard k >= 0, k < found.count else {
                guard !ev.isMissing(a, 5) else { return .value(.error(.notAvailable)) }
                // A blank if_not_found cell gives "" (row 25), not 0.
                let fallback = try ev.scalar(a[5])
                return .value(fallback == .empty ? .text("") : fallback)
            }
            let (start, end) = found[k]
            return .value(.text(String(before ? chars[..<start] : chars[end...])))
        }
    }

    static let textSplitting: [FunctionSpec] = [
        textAround("TEXTBEFORE", before: true),
        textAround("TEXTAFTER", before: false),
        // TEXTSPLIT(text, col_delimiter, [row_delimiter], [ignore_empty], [match_mode], [pad_with]).
        raw("TEXTSPLIT", 2, 6) { ev, a in
            let text = try ev.str(a[0])
            let columns = try delimiterTexts(ev, a[1])
            let rows = ev.isMissing(a, 2) ? [] : try delimiterTexts(ev, a[2])
            guard !(columns.isEmpty && rows.isEmpty), !columns.contains(""), !rows.contains("") else { return .value(.error(.value)) }
            let ignoreEmpty = ev.isMissing(a, 3) ? false : try ev.flag(a[3])
            let ignoreCase = ev.isMissing(a, 4) ? false : try ev.int(a[4]) != 0
            let pad: CalcValue = ev.isMissing(a, 5) ? .error(.notAvailable) : try ev.scalar(a[5])
            func split(_ s: String, _ ds: [String]) -> [String] {
                guard !ds.isEmpty else { return [s] }
                let search = DelimiterSearch(s, ds, ignoreCase: ignoreCase)
                let chars = Array(s)
                var parts: [String] = [], start = 0
                for (b, e) in search.occurrences { parts.append(String(chars[start..<b])); start = e }
                parts.append(String(chars[start...]))
                return ignoreEmpty ? parts.filter { !$0.isEmpty } : parts
            }
            let lines = split(text, rows).map { split($0, columns) }.filter { !ignoreEmpty || !$0.isEmpty }
            guard !lines.isEmpty else { return .value(.error(.calc)) }
            let width = lines.map(\.count).max() ?? 1
            var values: [CalcValue] = []
            values.reserveCapacity(try ev.arrayCells(lines.count, width))
            for line in lines {
                values += line.map { .text($0) }
                values += [CalcValue](repeating: pad, count: width - line.count)
            }
            if lines.count == 1 && width == 1 { return .value(values[0]) }
            return .value(.array(CalcArray(rows: lines.count, columns: width, values: values)))
        },
    ]
}
