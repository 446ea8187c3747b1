import SheetPortCore
/// A COUNTIF-style criterion: `">=10"`, `"<>"`, `"="`, `"a*"`, `5`, `TRUE`, as Excel reads it.
struct Criterion {
    enum Op { case equal, notEqual, less, lessEqual, greater, greaterEqual }
    var op: Op
    var number: Double?
    /// The text a number was read from (`"29/02/1900"`): a cell holding that same text meets an
    /// equality criterion (calc-suite formulas__test STATISTICAL!X24, `COUNTIF(I24:J24,I24)`).
    var numberText: String?
    var text: String?
    var boolean: Bool?
    var error: ExcelError?
    var pattern: WildcardPattern?

    init(_ v0: CalcValue, system: DateSystem) {
        op = .equal
        var v = v0
        if case .array(let a) = v0 { v = a.values.first ?? .empty }
        switch v {
        case .number(let x): number = x
        case .boolean(let b): boolean = b
        case .error(let e): error = e
        case .empty: number = 0
        case .array: number = 0
        case .text(let raw):
            // The operator from the first bytes (no table, no allocation: SUMIF builds one per cell).
            let bytes = raw.utf8
            let first = bytes.first ?? 0, second = bytes.count > 1 ? bytes[bytes.index(after: bytes.startIndex)] : 0
            var length = 0
            switch (first, second) {
            case (UInt8(ascii: "<"), UInt8(ascii: "=")): op = .lessEqual; length = 2
            case (UInt8(ascii: ">"), UInt8(ascii: "=")): op = .greaterEqual; length = 2
            case (UInt8(ascii: "<"), UInt8(ascii: ">")): op = .notEqual; length = 2
            case (UInt8(ascii: "<"), _): op = .less; length = 1
            case (UInt8(ascii: ">"), _): op = .greater; length = 1
            case (UInt8(ascii: "="), _): op = .equal; length = 1
            default: break
            }
            let operand = length == 0 ? raw : String(Substring(raw).utf8.dropFirst(length))!
            if operand.isEmpty { text = ""; return }
            if let x = Coercion.number(fromText: operand, system: system) { number = x; numberText = operand; return }
            // Upper-cased only when it can be TRUE or FALSE (only t and f upper-case to their first
            // letters), an error only from '#': no upper-cased copies for each SUMIF cell's key.
            let lead = operand.utf8.first ?? 0
            if lead | 0x20 == UInt8(ascii: "t") || lead | 0x20 == UInt8(ascii: "f") {
                switch operand.uppercased() {
                case "TRUE": boolean = true; return
                case "FALSE": boolean = false; return
                default: break
                }
            }
            if lead == UInt8(ascii: "#"), let e = ExcelError(literal: operand) { error = e; return }
            text = operand
            if (op == .equal || op == .notEqual) && WildcardPattern.hasWildcards(operand) { pattern = WildcardPattern(operand) }
        }
    }

    /// True when an empty cell satisfies the criterion.
    var matchesEmpty: Bool { matches(.empty) }

    /// The hash key of an equality criterion without wildcards (for the criteria index).
    var equalityKey: LookupKey? {
        guard op == .equal, pattern == nil else { return nil }
        if let number {
            // The index keeps a date text under its text: such a criterion scans (it is rare).
            if let numberText, Coercion.plainNumber(Array(numberText.utf8)) == nil { return nil }
            return .number(Coercion.round15(number) + 0)
        }
        if let boolean { return .boolean(boolean) }
        if let error { return .error(error) }
        if let text, !text.isEmpty { return .text(text.lowercased()) }
        return nil
    }

    func compare(_ c: Int) -> Bool {
        switch op {
        case .equal: return c == 0
        case .notEqual: return c != 0
        case .less: return c < 0
        case .lessEqual: return c <= 0
        case .greater: return c > 0
        case .greaterEqual: return c >= 0
        }
    }

    func matches(_ v: CalcValue) -> Bool {
        if let number {
            switch v {
            case .number(let x): return compare(Compare.values(.number(x), .number(number)))
            case .text(let t):
                // "=23" matches the text "23"; "<>23" counts it as different (Excel's COUNTIF).
                if op == .equal, let x = Coercion.plainNumber(Array(t.utf8)) {
                    return compare(Compare.values(.number(x), .number(number)))
                }
                // "<>" still counts it as different, as it does "23" against "<>23".
                if op == .equal, let numberText, Compare.text(t, numberText) == 0 { return true }
                return op == .notEqual
            default: return op == .notEqual
            }
        }
        if let boolean {
            if case .boolean(let b) = v { return compare(b == boolean ? 0 : (b ? 1 : -1)) }
            return op == .notEqual
        }
        if let error {
            if case .error(let e) = v { return compare(e == error ? 0 : 1) }
            return op == .notEqual
        }
        let t = text ?? ""
        if t.isEmpty {
            // "" and "=" match empty cells (and ""), "<>" matches anything not empty.
            let isEmpty: Bool
            switch v {
            case .empty: isEmpty = true
            // A formula's "" is blank for "" and "=", yet not empty for "<>" (COUNTIF(r,"<>") counts it).
            case .text(let s): isEmpty = s.isEmpty && op == .equal
            default: isEmpty = false
            }
            switch op {
            case .equal: return isEmpty
            case .notEqual: return !isEmpty
            default: return false
            }
        }
        if let pattern {
            let hit: Bool
            if case .text(let s) = v { hit = pattern.matches(s) } else if case .empty = v { hit = pattern.matches("") } else { hit = false }
            return op == .equal ? hit : !hit
        }
        switch v {
        case .text(let s): return compare(Compare.text(s, t))
        default: return op == .notEqual
        }
    }
}

extension Evaluator {
    /// The row-major offsets (in the clipped first range) of the cells meeting every (range, criterion) pair;
    /// ranges must have one shape. `total` is the number of cells of the unclipped range.
    func matchingOffsets(_ pairs: [(SheetRange, Criterion)]) throws -> (offsets: [Int], clipped: SheetRange, emptyBeyond: Int) {
        guard let (first, _) = pairs.first else { return ([], SheetRange(sheet: 0, r1: 0, c1: 0, r2: 0, c2: 0), 0) }
        for (r, _) in pairs where r.rows != first.rows || r.columns != first.columns { throw EvalInterrupt.error(.value) }
        // Clip all ranges to the same shape: the largest stored extent among them.
        var rows = 1, cols = 1
        for (r, _) in pairs {
            let c = clipped(r)
            rows = max(rows, c.rows); cols = max(cols, c.columns)
        }
        let shape = SheetRange(sheet: first.sheet, r1: first.r1, c1: first.c1, r2: first.r1 + Int32(rows - 1), c2: first.c1 + Int32(cols - 1))
        let beyond = first.rows * first.columns - rows * cols
        var candidates: [Int]?
        // The comparison whose sorted numbers gave the candidates: they meet it already.
        var driver = -1
        // Equality criteria use the per-range hash, numeric comparisons the sorted numbers; the
        // most selective drives.
        for (index, (r, crit)) in pairs.enumerated() {
            let sub = SheetRange(sheet: r.sheet, r1: r.r1, c1: r.c1, r2: r.r1 + Int32(rows - 1), c2: r.c1 + Int32(cols - 1))
            let hits: [Int]
            var exact = false
            if let key = crit.equalityKey {
                hits = try criteriaIndex(sub)[key] ?? []
            } else if clipped(sub).columns == cols, let matches = try comparisonMatches(sub, crit, cells: rows * cols) {
                // Decided by the criterion's own test: no cell of it is tested again.
                (hits, exact) = (matches, true)
            } else {
                continue
            }
            if candidates == nil || hits.count < candidates!.count { (candidates, driver) = (hits, exact ? index : -1) }
        }
        // Each cell tested is a step, charged before the walk (a range over the grid's far
        // corners is billions of cells: #NUM!, not hours); the offsets are never all listed.
        try charge(bytes: 0, steps: candidates?.count ?? rows * cols)
        var out: [Int] = []
        func test(_ off: Int) throws {
            let dr = Int32(off / cols), dc = Int32(off % cols)
            for (index, (r, crit)) in pairs.enumerated() where index != driver {
                let v = try cellValue(r.sheet, r.r1 + dr, r.c1 + dc)
                if !crit.matches(v) { return }
            }
            out.append(off)
        }
        if let candidates {
            for off in candidates { try test(off) }
        } else {
            for off in 0..<(rows * cols) { try test(off) }
        }
        return (out, shape, beyond)
    }
}
