extension Functions {
    /// A lookup vector: a one-dimensional range (cached and indexed) or an array.
    enum Vector {
        case range(SheetRange)
        case array([CalcValue])
    }

    /// The position of `value` in a vector: exact (hashed once per pass; wildcards scan), or
    /// approximate by binary search (`mode` 1: largest <= value, -1: smallest >= value in descending data).
    static func position(_ ev: Evaluator, _ value: CalcValue, in vector: Vector, mode: Int, wildcards: Bool = true, reverse: Bool = false) throws -> Int? {
        let values: [CalcValue]
        switch vector {
        case .range(let r): values = try ev.vector(r)
        case .array(let a): values = a
        }
        var lookup = value
        if case .empty = lookup { lookup = .number(0) }
        if mode == 0 {
            if case .text(let t) = lookup, wildcards, WildcardPattern.hasWildcards(t) {
                let p = WildcardPattern(t)
                let order = reverse ? Array(values.indices.reversed()) : Array(values.indices)
                for k in order { if case .text(let s) = values[k], p.matches(s) { return k } }
                return nil
            }
            guard let key = LookupKey(lookup) else { return nil }
            if case .range(let r) = vector { return try ev.positionIndex(r, last: reverse)[key] }
            let order = reverse ? Array(values.indices.reversed()) : Array(values.indices)
            for k in order { if LookupKey(values[k]) == key { return k } }
            return nil
        }
        if mode == 1 { return binarySearch(values, lookup) }
        // Descending: smallest value >= lookup (linear, as the data is small in practice).
        var best: Int?
        for (k, v) in values.enumerated() where Compare.rank(v) == Compare.rank(lookup) {
            if Compare.values(v, lookup) >= 0 { best = k } else { break }
        }
        return best
    }

    /// Excel's approximate match: the last position whose value is <= lookup among values of the lookup's type.
    /// An equal value ends the search at the end of its run of equal neighbours, as Excel's probes do,
    /// so unsorted mixed data gives what they meet (`LOOKUP(4.1,{"b",4.1,"a",1.1})` is 4.1, not 1.1:
    /// calc-suite formulas__test LOOKUP!V60:V71).
    static func binarySearch(_ values: [CalcValue], _ lookup: CalcValue) -> Int? {
        let rank = Compare.rank(lookup)
        var lo = 0, hi = values.count - 1
        var found: Int?
        while lo <= hi {
            var mid = (lo + hi) / 2
            // Step over cells of another type (blanks, text among numbers).
            var probe = mid
            while probe <= hi, Compare.rank(values[probe]) != rank || values[probe] == .empty { probe += 1 }
            if probe > hi {
                hi = mid - 1
                continue
            }
            mid = probe
            let order = Compare.values(values[mid], lookup)
            if order == 0 {
                var last = mid
                while last < hi, values[last + 1] != .empty, Compare.rank(values[last + 1]) == rank, Compare.values(values[last + 1], lookup) == 0 { last += 1 }
                return last
            }
            if order < 0 {
                found = mid
                lo = mid + 1
            } else {
                hi = mid - 1
            }
        }
        return found
    }

    static func vectorArg(_ ev: Evaluator, _ op: Operand) throws -> (Vector, rows: Int, columns: Int) {
        switch op {
        case .ref(let r):
            guard r.rows == 1 || r.columns == 1 else { throw EvalInterrupt.error(.notAvailable) }
            return (.range(r), r.rows, r.columns)
        default:
            let a = try ev.array(op)
            guard a.rows == 1 || a.columns == 1 else { throw EvalInterrupt.error(.notAvailable) }
            return (.array(a.values), a.rows, a.columns)
        }
    }

    /// The element of a range or array at a zero-based row and column (an operand: a reference stays one).
    static func element(_ op: Operand, _ r: Int, _ c: Int) throws -> Operand {
        switch op {
        case .ref(let rg):
            guard r >= 0, c >= 0, r < rg.rows, c < rg.columns else { throw EvalInterrupt.error(.reference) }
            let rr = rg.r1 + Int32(r), cc = rg.c1 + Int32(c)
            return .ref(SheetRange(sheet: rg.sheet, r1: rr, c1: cc, r2: rr, c2: cc))
        case .value(.array(let a)):
            guard r >= 0, c >= 0, r < a.rows, c < a.columns else { throw EvalInterrupt.error(.reference) }
            return .value(a[r, c])
        default:
            guard r == 0, c == 0 else { throw EvalInterrupt.error(.reference) }
            return op
        }
    }

    /// VLOOKUP and HLOOKUP.
    static func tableLookup(_ ev: Evaluator, _ a: [Operand], vertical: Bool) throws -> Operand {
        let value = try ev.checked(a[0])
        let index = try ev.int(a[2])
        let approximate = ev.isMissing(a, 3) ? true : try ev.flag(a[3])
        let key: Vector
        switch a[1] {
        case .ref(let r):
            key = .range(vertical ? SheetRange(sheet: r.sheet, r1: r.r1, c1: r.c1, r2: r.r2, c2: r.c1) : SheetRange(sheet: r.sheet, r1: r.r1, c1: r.c1, r2: r.r1, c2: r.c2))
        case .value(.array(let arr)):
            key = .array(vertical ? (0..<arr.rows).map { arr[$0, 0] } : (0..<arr.columns).map { arr[0, $0] })
        case .value(.error(let e)):
            throw EvalInterrupt.error(e)
        case .value(.text):
            // Text is no table (`VLOOKUP(x,"Nothing",1)` is #VALUE!, a number or boolean #N/A: calc-suite HVLOOKUP N12-N14).
            throw EvalInterrupt.error(.value)
        default:
            throw EvalInterrupt.error(.notAvailable)
        }
        guard let p = try position(ev, value, in: key, mode: approximate ? 1 : 0) else { throw EvalInterrupt.error(.notAvailable) }
        guard index >= 1 else { throw EvalInterrupt.error(.value) }
        let width: Int
        switch a[1] {
        case .ref(let r): width = vertical ? r.columns : r.rows
        case .value(.array(let arr)): width = vertical ? arr.columns : arr.rows
        default: width = 1
        }
        guard index <= width else { throw EvalInterrupt.error(.reference) }
        let found = try element(a[1], vertical ? p : index - 1, vertical ? index - 1 : p)
        return .value(try ev.scalar(found))
    }

    /// ROWS and COLUMNS: a range's or an array's count along one axis, 1 for a single value
    /// (an error argument stays an error), #REF! for several ranges.
    static func extent(_ ev: Evaluator, _ op: Operand, _ ofRange: KeyPath<SheetRange, Int>, _ ofArray: KeyPath<CalcArray, Int>) throws -> Operand {
        switch op {
        case .ref(let r): return .value(.number(Double(r[keyPath: ofRange])))
        case .value(.array(let arr)): return .value(.number(Double(arr[keyPath: ofArray])))
        case .refs: return .value(.error(.reference))
        default: _ = try ev.checked(op); return .value(.number(1))
        }
    }

    static let lookup: [FunctionSpec] = [
        raw("VLOOKUP", 3, 4) { ev, a in try tableLookup(ev, a, vertical: true) },
        raw("HLOOKUP", 3, 4) { ev, a in try tableLookup(ev, a, vertical: false) },
        raw("MATCH", 2, 3, arrays: true) { ev, a in
            let value = try ev.checked(a[0])
            let mode = ev.isMissing(a, 2) ? 1 : try ev.int(a[2])
            let (v, _, _) = try vectorArg(ev, a[1])
            guard let p = try position(ev, value, in: v, mode: mode > 0 ? 1 : (mode < 0 ? -1 : 0)) else { return .value(.error(.notAvailable)) }
            return .value(.number(Double(p + 1)))
        },
        raw("XMATCH", 2, 4, arrays: true) { ev, a in
            let value = ev.isMissing(a, 0) ? .empty : try ev.checked(a[0])
            let (v, _, _) = try xvectorArg(ev, a[1])
            let matchMode = ev.isMissing(a, 2) ? 0 : try ev.int(a[2])
            let searchMode = try searchModeArg(ev, a, 3)
            guard let p = try xposition(ev, value, v, matchMode, searchMode) else { return .value(.error(.notAvailable)) }
            return .value(.number(Double(p + 1)))
        },
        raw("XLOOKUP", 3, 6, arrays: true) { ev, a in
            // An omitted lookup value is a blank, which finds a blank cell (calc-suite XLOOKUP Errors!N1).
            let value = ev.isMissing(a, 0) ? .empty : try ev.checked(a[0])
            let (v, rows, columns) = try xvectorArg(ev, a[1])
            let vertical = rows > 1 || columns == 1
            // The return array runs along the lookup array: another length is #VALUE! (calc-suite XLOOKUP Errors!D9, D11).
            let (returnRows, returnColumns): (Int, Int)
            switch a[2] {
            case .ref(let r): (returnRows, returnColumns) = (r.rows, r.columns)
            case .value(.array(let arr)): (returnRows, returnColumns) = (arr.rows, arr.columns)
            default: (returnRows, returnColumns) = (1, 1)
            }
            guard (vertical ? returnRows : returnColumns) == max(rows, columns) else { return .value(.error(.value)) }
            let matchMode = ev.isMissing(a, 4) ? 0 : try ev.int(a[4])
            let searchMode = try searchModeArg(ev, a, 5)
            guard let p = try xposition(ev, value, v, matchMode, searchMode) else {
                return ev.isMissing(a, 3) ? .value(.error(.notAvailable)) : a[3]
            }
            switch a[2] {
            case .ref(let r):
                if vertical {
                    return .ref(SheetRange(sheet: r.sheet, r1: r.r1 + Int32(p), c1: r.c1, r2: r.r1 + Int32(p), c2: r.c2))
                }
                return .ref(SheetRange(sheet: r.sheet, r1: r.r1, c1: r.c1 + Int32(p), r2: r.r2, c2: r.c1 + Int32(p)))
            default:
                let arr = try ev.array(a[2])
                if vertical {
                    return .value(.array(CalcArray(rows: 1, columns: arr.columns, values: Array(arr.values[(p * arr.columns)..<((p + 1) * arr.columns)]))))
                }
                return .value(.array(CalcArray(rows: arr.rows, columns: 1, values: (0..<arr.rows).map { arr[$0, p] })))
            }
        },
        raw("LOOKUP", 2, 3, arrays: true) { ev, a in
            let value = try ev.checked(a[0])
            var keys: Vector, results: Operand
            if a.count > 2 {
                (keys, _, _) = try vectorArg(ev, a[1])
                results = a[2]
            } else {
                let arr: CalcArray
                if case .ref(let r) = a[1] { arr = try ev.matrix(r) } else { arr = try ev.array(a[1]) }
                if arr.rows >= arr.columns {
                    keys = .array((0..<arr.rows).map { arr[$0, 0] })
                    results = .value(.array(CalcArray(rows: arr.rows, columns: 1, values: (0..<arr.rows).map { arr[$0, arr.columns - 1] })))
                } else {
                    keys = .array((0..<arr.columns).map { arr[0, $0] })
                    results = .value(.array(CalcArray(rows: 1, columns: arr.columns, values: (0..<arr.columns).map { arr[arr.rows - 1, $0] })))
                }
            }
            guard let p = try position(ev, value, in: keys, mode: 1) else { return .value(.error(.notAvailable)) }
            switch results {
            case .ref(let r):
                return .value(try ev.scalar(try element(results, r.rows > 1 ? p : 0, r.rows > 1 ? 0 : p)))
            default:
                let arr = try ev.array(results)
                return .value(try ev.scalar(try element(.value(.array(arr)), arr.rows > 1 ? p : 0, arr.rows > 1 ? 0 : p)))
            }
        },
        raw("INDEX", 1, 4, arrays: true) { ev, a in
            var source = a[0]
            let area = ev.isMissing(a, 3) ? 1 : try ev.int(a[3])
            if case .refs(let rs) = source {
                guard area >= 1, area <= rs.count else { return .value(.error(.reference)) }
                source = .ref(rs[area - 1])
            } else if area != 1 {
                // One area only (INDEX({1,2,3},1,0,2) is #REF!).
                return .value(.error(.reference))
            }
            let rows: Int, cols: Int
            switch source {
            case .ref(let r): rows = r.rows; cols = r.columns
            case .value(.array(let arr)): rows = arr.rows; cols = arr.columns
            default: rows = 1; cols = 1
            }
            var row = ev.isMissing(a, 1) ? 0 : try ev.int(a[1])
            var col = ev.isMissing(a, 2) ? 0 : try ev.int(a[2])
            guard row >= 0, col >= 0 else { return .value(.error(.value)) }
            // One index into a block of cells names no cell: INDEX(C52:E53,2) is #REF! (an array's row
            // is read instead: calc-suite formulas__test LOOKUP!R53 and INDEX({2,3;4,5},2) 4).
            if a.count == 2, case .ref = source, rows > 1, cols > 1 { return .value(.error(.reference)) }
            if a.count == 2 || ev.isMissing(a, 2) {
                // One index on a single row selects a column.
                if rows == 1 && cols > 1 && a.count == 2 { col = row; row = 1 }
            }
            guard row <= rows, col <= cols else { return .value(.error(.reference)) }
            if row == 0 && col == 0 { return source }
            if row == 0 || col == 0 {
                switch source {
                case .ref(let r):
                    if row == 0 { return .ref(SheetRange(sheet: r.sheet, r1: r.r1, c1: r.c1 + Int32(col - 1), r2: r.r2, c2: r.c1 + Int32(col - 1))) }
                    return .ref(SheetRange(sheet: r.sheet, r1: r.r1 + Int32(row - 1), c1: r.c1, r2: r.r1 + Int32(row - 1), c2: r.c2))
                case .value(.array(let arr)):
                    if row == 0 { return .value(.array(CalcArray(rows: arr.rows, columns: 1, values: (0..<arr.rows).map { arr[$0, col - 1] }))) }
                    return .value(.array(CalcArray(rows: 1, columns: arr.columns, values: (0..<arr.columns).map { arr[row - 1, $0] })))
                default: return source
                }
            }
            return try element(source, row - 1, col - 1)
        },
        raw("ROW", 0, 1) { ev, a in
            if a.isEmpty || ev.isMissing(a, 0) { return .value(.number(Double(ev.row + 1))) }
            if case .value(.error(let e)) = a[0] { return .value(.error(e)) }
            guard case .ref(let r) = a[0] else { return .value(.error(.value)) }
            if r.rows > 1 && ev.arrayMode {
                return .value(.array(CalcArray(rows: r.rows, columns: 1, values: (0..<r.rows).map { .number(Double(Int(r.r1) + $0 + 1)) })))
            }
            return .value(.number(Double(r.r1 + 1)))
        },
        raw("COLUMN", 0, 1) { ev, a in
            if a.isEmpty || ev.isMissing(a, 0) { return .value(.number(Double(ev.column + 1))) }
            if case .value(.error(let e)) = a[0] { return .value(.error(e)) }
            guard case .ref(let r) = a[0] else { return .value(.error(.value)) }
            if r.columns > 1 && ev.arrayMode {
                return .value(.array(CalcArray(rows: 1, columns: r.columns, values: (0..<r.columns).map { .number(Double(Int(r.c1) + $0 + 1)) })))
            }
            return .value(.number(Double(r.c1 + 1)))
        },
        raw("ROWS", 1, 1) { ev, a in try extent(ev, a[0], \.rows, \.rows) },
        raw("COLUMNS", 1, 1) { ev, a in try extent(ev, a[0], \.columns, \.columns) },
        raw("AREAS", 1, 1) { _, a in
            switch a[0] {
            case .ref: return .value(.number(1))
            case .refs(let rs): return .value(.number(Double(rs.count)))
            case .value(.error(let e)): return .value(.error(e))  // `AREAS((A1:B1 C1:D1))` is #NULL!
            default: return .value(.error(.value))
            }
        },
        raw("TRANSPOSE", 1, 1, arrays: true) { ev, a in
            let arr = try ev.array(a[0])
            var out: [CalcValue] = []
            out.reserveCapacity(arr.values.count)
            for c in 0..<arr.columns { for r in 0..<arr.rows { out.append(arr[r, c]) } }
            return .value(.array(CalcArray(rows: arr.columns, columns: arr.rows, values: out)))
        },
        raw("INDIRECT", 1, 2, volatile: true) { ev, a in
            let text = try ev.str(a[0])
            let a1 = ev.isMissing(a, 1) ? true : try ev.flag(a[1])
            guard let r = indirect(ev, text, a1: a1) else { return .value(.error(.reference)) }
            return r
        },
        raw("OFFSET", 3, 5, volatile: true) { ev, a in
            // An error passes on: OFFSET(#REF!,-1,0) is #REF!, as in Excel.
            if case .value(.error(let e)) = a[0] { return .value(.error(e)) }
            guard case .ref(let base) = a[0] else { return .value(.error(.value)) }
            let dr = try ev.int(a[1]), dc = try ev.int(a[2])
            // Sizes are truncated, but a fraction of one row or column is one: OFFSET(W39,2,2,3,0.9) is three
            // rows by one column, OFFSET(...,3.1,3.99) three by three (calc-suite ROW_COLUM OFFSET!K46, K48).
            func size(_ k: Int, _ whole: Int) throws -> Int {
                guard !ev.isMissing(a, k) else { return whole }
                let x = try ev.num(a[k])
                guard x.magnitude < 1, x != 0 else { return try ev.int(a[k]) }
                return x > 0 ? 1 : -1
            }
            let h = try size(3, base.rows), w = try size(4, base.columns)
            guard h != 0, w != 0 else { return .value(.error(.reference)) }
            var r1 = Int(base.r1) + dr, c1 = Int(base.c1) + dc
            var r2 = r1 + h - 1, c2 = c1 + w - 1
            if h < 0 { r2 = r1; r1 = r1 + h + 1 }
            if w < 0 { c2 = c1; c1 = c1 + w + 1 }
            guard r1 >= 0, c1 >= 0, r2 <= Int(maxRowIndex), c2 <= Int(maxColumnIndex) else { return .value(.error(.reference)) }
            return .ref(SheetRange(sheet: base.sheet, r1: Int32(r1), c1: Int32(c1), r2: Int32(r2), c2: Int32(c2)))
        },
        scalar("ADDRESS", 2, 5) { ev, a in
            let row = try ev.int(a[0]), col = try ev.int(a[1])
            let absKind = ev.isMissing(a, 2) ? 1 : try ev.int(a[2])
            let a1 = ev.isMissing(a, 3) ? true : try ev.flag(a[3])
            guard row >= 1, row <= 1_048_576, col >= 1, col <= 16_384, (1...4).contains(absKind) else { return .value(.error(.value)) }
            let rowAbs = absKind == 1 || absKind == 2, colAbs = absKind == 1 || absKind == 3
            var s: String
            if a1 {
                s = (colAbs ? "$" : "") + A1.columnName(Int32(col - 1)) + (rowAbs ? "$" : "") + String(row)
            } else {
                s = "R" + (rowAbs ? String(row) : "[\(row)]") + "C" + (colAbs ? String(col) : "[\(col)]")
            }
            if !ev.isMissing(a, 4) {
                // An empty sheet text leaves just the `!` (calc-suite formulas__test LOOKUP!S3:
                // ADDRESS(1.1,3,4,4.1,H3), H3 empty, is "!C1").
                let sheet = try ev.str(a[4])
                s = (sheet.isEmpty ? "!" : FormulaText.sheetPrefix(sheet)) + s
            }
            return .value(.text(s))
        },
    ]

    /// XLOOKUP's and XMATCH's lookup array: one row or one column (a table is #VALUE!, calc-suite XMATCH_arrays B14).
    static func xvectorArg(_ ev: Evaluator, _ op: Operand) throws -> (Vector, rows: Int, columns: Int) {
        do { return try vectorArg(ev, op) } catch EvalInterrupt.error(.notAvailable) { throw EvalInterrupt.error(.value) }
    }

    static func values(_ ev: Evaluator, _ v: Vector) throws -> [CalcValue] {
        switch v {
        case .range(let r): return try ev.vector(r)
        case .array(let arr): return arr
        }
    }

    /// XLOOKUP's and XMATCH's search mode, rounded down: -1.1 is -2, a binary search over descending
    /// data (calc-suite formulas__test LOOKUP!AH162 finds "R" where -1 would find "L").
    static func searchModeArg(_ ev: Evaluator, _ a: [Operand], _ k: Int) throws -> Int {
        guard !ev.isMissing(a, k) else { return 1 }
        let x = try ev.num(a[k])
        guard x.isFinite, Swift.abs(x) < 9e15 else { throw EvalInterrupt.error(.value) }
        return Int(x.rounded(.down))
    }

    /// XLOOKUP/XMATCH's order over every type: numbers < text < booleans (errors last).
    static func xcompare(_ a: CalcValue, _ b: CalcValue) -> Int {
        let ra = Compare.rank(a), rb = Compare.rank(b)
        return ra == rb ? Compare.values(a, b) : (ra < rb ? -1 : 1)
    }

    /// The position XLOOKUP and XMATCH find. Match modes: 0 exact, -1 exact or next smaller, 1 exact
    /// or next larger, 2 wildcards, 3 a regular expression; search modes: 1 first to last, -1 last
    /// to first, 2 and -2 binary over ascending and descending data. An empty lookup value finds an
    /// empty cell (calc-suite XLOOKUP ExactMatch!U12: Excel returns the blank row's value).
    static func xposition(_ ev: Evaluator, _ value: CalcValue, _ v: Vector, _ matchMode: Int, _ searchMode: Int) throws -> Int? {
        guard (-1...3).contains(matchMode), [1, -1, 2, -2].contains(searchMode) else { throw EvalInterrupt.error(.value) }
        if searchMode == 2 || searchMode == -2 {
            // Wildcards and patterns have no order to search by (calc-suite XLOOKUP Wildcards!E13).
            guard matchMode <= 1 else { throw EvalInterrupt.error(.value) }
            return xbinary(try values(ev, v), value, matchMode, descending: searchMode == -2)
        }
        let reverse = searchMode == -1
        let all = try values(ev, v)
        let order = reverse ? Array(all.indices.reversed()) : Array(all.indices)
        if case .empty = value, let k = order.first(where: { all[$0] == .empty }) { return k }
        switch matchMode {
        case 0: return try position(ev, value, in: v, mode: 0, wildcards: false, reverse: reverse)
        case 2: return try position(ev, value, in: v, mode: 0, wildcards: true, reverse: reverse)
        case 3:
            // A pattern matches text anywhere in a cell (REGEXTEST's reading); a number has no match (calc-suite XMATCH B14).
            guard case .text(let pattern) = value else { return nil }
            let regex = try TextRegex.compile(pattern, ignoreCase: false)
            for k in order {
                if case .text(let s) = all[k], !(try TextRegex.matches(regex, s, limit: 1)).isEmpty { return k }
            }
            return nil
        default:
            if let exact = try position(ev, value, in: v, mode: 0, wildcards: false, reverse: reverse) { return exact }
            // A blank lookup value sorts above every value: its next smaller is the largest one in
            // every type's order, it has no next larger (calc-suite formulas__test LOOKUP!W171:W197).
            if case .empty = value {
                guard matchMode == -1 else { return nil }
                var largest: Int?
                for k in order where all[k] != .empty {
                    if case .error = all[k] { continue }
                    if let b = largest, xcompare(all[k], all[b]) <= 0 { continue }
                    largest = k
                }
                return largest
            }
            // The nearest value on the asked side in every type's order (a number's next larger may be
            // text); the first met in search order wins a tie (calc-suite XLOOKUP ReturnSmaller!F8).
            var best: Int?
            for k in order {
                let x = all[k]
                if x == .empty { continue }
                if case .error = x { continue }
                let c = xcompare(x, value)
                guard matchMode == -1 ? c < 0 : c > 0 else { continue }
                if let b = best, matchMode == -1 ? xcompare(x, all[b]) <= 0 : xcompare(x, all[b]) >= 0 { continue }
                best = k
            }
            return best
        }
    }

    /// XLOOKUP/XMATCH's binary search, as Excel probes: between the first and the last position,
    /// the middle one rounded down; an equal value is kept and the search goes on towards the start
    /// of ascending data (the end of descending data), so duplicates give the first of a run going up
    /// and the last going down (calc-suite XLOOKUP MultipleElements), and unsorted data gives what
    /// those probes meet (formulas__test LOOKUP!V175:V186, EXTRA!K79:L94). Without an equal value,
    /// the neighbour on the asked side of where the search ended. Empty cells sort after everything
    /// (a whole column's blank tail) and an empty lookup value finds one.
    static func xbinary(_ values: [CalcValue], _ value: CalcValue, _ matchMode: Int, descending: Bool) -> Int? {
        func order(_ x: CalcValue) -> Int {
            switch (x, value) {
            case (.empty, .empty): return 0
            case (.empty, _): return descending ? -1 : 1
            // A blank lookup value sorts above every value, whichever way the data runs (calc-suite
            // formulas__test LOOKUP!W178: its next smaller in descending data is the first value).
            case (_, .empty): return -1
            default: return xcompare(x, value)
            }
        }
        let n = values.count
        let usable: (Int) -> Bool = { $0 >= 0 && $0 < n && (values[$0] != .empty || value == .empty) }
        var lo = 0, hi = n - 1
        var equal: Int?
        while lo <= hi {
            let mid = (lo + hi) / 2
            let c = order(values[mid])
            if c == 0, usable(mid) {
                equal = mid
                if descending { lo = mid + 1 } else { hi = mid - 1 }
            } else if descending ? c >= 0 : c < 0 {
                lo = mid + 1
            } else {
                hi = mid - 1
            }
        }
        if let equal { return equal }
        if descending {
            let p = lo - 1
            let k = matchMode == 1 ? p : (matchMode == -1 ? p + 1 : -1)
            return usable(k) ? k : nil
        }
        let k = matchMode == 1 ? lo : (matchMode == -1 ? lo - 1 : -1)
        return usable(k) ? k : nil
    }

    /// INDIRECT's reference text: `A1`, `$B$2:C9`, `Sheet2!A1`, `'My Sheet'!A:A`, a defined name, or R1C1 (`R2C3`).
    static func indirect(_ ev: Evaluator, _ text: String, a1: Bool) -> Operand? {
        var t = text.trimmingFormulaSpaces()
        guard !t.isEmpty else { return nil }
        if !a1 {
            // Absolute R1C1 only: R2C3 or R2C3:R4C5
            let parts = t.uppercased().split(separator: ":")
            var cells: [(Int32, Int32)] = []
            for p in parts {
                guard p.hasPrefix("R"), let cIdx = p.firstIndex(of: "C"),
                      let r = Int32(p[p.index(after: p.startIndex)..<cIdx]), let c = Int32(p[p.index(after: cIdx)...]),
                      r >= 1, c >= 1, r <= 1_048_576, c <= 16_384 else { return nil }
                cells.append((r - 1, c - 1))
            }
            guard let first = cells.first, let last = cells.last else { return nil }
            return .ref(SheetRange(sheet: ev.sheet, r1: min(first.0, last.0), c1: min(first.1, last.1), r2: max(first.0, last.0), c2: max(first.1, last.1)))
        }
        if t.hasPrefix("=") { t.removeFirst() }
        guard let ins = try? FormulaParser.parse(t, at: CellIndex(row: ev.row, column: ev.column)), ins.count == 1 else { return nil }
        switch ins[0] {
        case .cell(let r, let s): return ev.resolveCell(r, s)
        case .area(let r, let s): return ev.resolveArea(r, s)
        case .name(let n, let s):
            guard let v = try? ev.evaluateName(n, s) else { return nil }
            if case .ref = v { return v }
            return nil
        case .structured(let s): return ev.resolveStructured(s)
        default: return nil
        }
    }
}
