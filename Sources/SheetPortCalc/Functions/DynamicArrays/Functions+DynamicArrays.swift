import SheetPortCore

/// The dynamic-array functions that build, reshape, order and pick arrays: SEQUENCE, RANDARRAY, SORT, SORTBY,
/// UNIQUE, FILTER, HSTACK, VSTACK, TAKE, DROP, EXPAND, TOCOL, TOROW, WRAPCOLS and WRAPROWS. Their
/// results spill (the engine's spill machinery places them); inside another function they are arrays.
/// A result with no cell left (FILTER matching nothing, DROP of every row, SEQUENCE(0)) is #CALC!,
/// Excel's "empty array" (the calculation suite stores it as `#VALUE!` with the rich-value error
/// type 13, subtype 3: LOOKUP_AND_REFERENCE__DROP_TAKE C2, MATH_AND_TRIGONOMETRY__SEQUENCE C16).
/// An error given where an array goes is that error; a flag or mode given as an array reads its first
/// element; TAKE's, DROP's and WRAPROWS's (WRAPCOLS's) counts given as arrays lift the function over
/// them, as Excel does (calculation suite formulas__test LOOKUP!AE16 `DROP({1,2,3;4,5,6;7,8,9},1.1,{1;2;1})`
/// spills {5;6;5}, O155 `WRAPROWS(...,{1,2},6)` {1,1}).
extension Functions {
    static let dynamicArrays: [FunctionSpec] = [
        // SEQUENCE(rows, [columns], [start], [step]): counts truncated, below 1 #VALUE!.
        raw("SEQUENCE", 1, 4, arrays: true) { ev, a in
            let rows = try sequenceCount(ev, a, 0), columns = try sequenceCount(ev, a, 1)
            let start = try ev.num(a, 2, default: 1), step = try ev.num(a, 3, default: 1)
            try ev.arrayCells(rows, columns)
            var out: [CalcValue] = []
            out.reserveCapacity(rows * columns)
            for k in 0..<(rows * columns) {
                let x = start + Double(k) * step
                guard x.isFinite else { return .value(.error(.number)) }
                out.append(.number(x))
            }
            return .value(.array(CalcArray(rows: rows, columns: columns, values: out)))
        },
        // RANDARRAY([rows], [columns], [min], [max], [whole_number]): min above max #VALUE!, and so are
        // bounds that are not whole when whole numbers are asked for (Microsoft's RANDARRAY reference).
        raw("RANDARRAY", 0, 5, volatile: true) { ev, a in
            let rows = try sequenceCount(ev, a, 0), columns = try sequenceCount(ev, a, 1)
            let low = try ev.num(a, 2, default: 0), high = try ev.num(a, 3, default: 1)
            let whole = ev.isMissing(a, 4) ? false : try ev.flag(a[4])
            guard low <= high else { return .value(.error(.value)) }
            if whole { guard low == low.rounded(), high == high.rounded() else { return .value(.error(.value)) } }
            try ev.arrayCells(rows, columns)
            var out: [CalcValue] = []
            out.reserveCapacity(rows * columns)
            for _ in 0..<(rows * columns) {
                let unit = Double(ev.engine.random.next() >> 11) / Double(1 << 53)
                if whole {
                    let span = (high - low + 1).rounded(.down)
                    out.append(.number(Swift.min(high, low + (unit * span).rounded(.down))))
                } else {
                    out.append(.number(low + unit * (high - low)))
                }
            }
            return .value(.array(CalcArray(rows: rows, columns: columns, values: out)))
        },
        // SORT(array, [sort_index], [sort_order], [by_col]).
        raw("SORT", 1, 4, arrays: true) { ev, a in
            let arr = try ev.arrayArgument(a[0])
            let byColumn = ev.isMissing(a, 3) ? false : try ev.flag(a[3])
            // sort_index and sort_order may be arrays (a key each); one order serves every index,
            // otherwise they pair up and other counts are #VALUE! (formulas test LOOKUP!AR118).
            let indexes = ev.isMissing(a, 1) ? [1] : try ev.array(a[1]).values.map { Int(try ev.number($0).rounded(.towardZero)) }
            var orders = ev.isMissing(a, 2) ? [1] : try ev.array(a[2]).values.map { Int(try ev.number($0).rounded(.towardZero)) }
            if orders.count == 1 { orders = Array(repeating: orders[0], count: indexes.count) }
            guard orders.count == indexes.count, orders.allSatisfy({ $0 == 1 || $0 == -1 }) else { return .value(.error(.value)) }
            let lines = byColumn ? arr.columns : arr.rows, width = byColumn ? arr.rows : arr.columns
            guard indexes.allSatisfy({ $0 >= 1 && $0 <= width }) else { return .value(.error(.value)) }
            let keys = zip(indexes, orders).map { index, order in
                ((0..<lines).map { byColumn ? arr[index - 1, $0] : arr[$0, index - 1] }, order == -1)
            }
            let sorted = sortedLines(lines, keys: keys)
            return .value(.array(picking(arr, lines: sorted, byColumn: byColumn)))
        },
        // SORTBY(array, by_array1, [sort_order1], ...): each key a row or column as long as the array.
        raw("SORTBY", 2, 253, arrays: true) { ev, a in
            let arr = try ev.arrayArgument(a[0])
            var keys: [([CalcValue], Bool)] = []
            var byColumn: Bool?
            var k = 1
            while k < a.count {
                let key = try ev.pickable(a[k])
                let order = k + 1 < a.count ? try ev.int(a, k + 1, default: 1) : 1
                guard order == 1 || order == -1 else { return .value(.error(.value)) }
                let column: Bool
                if key.columns == 1, key.rows == arr.rows { column = false }
                else if key.rows == 1, key.columns == arr.columns { column = true }
                else { return .value(.error(.value)) }
                if let b = byColumn, b != column { return .value(.error(.value)) }
                byColumn = column
                keys.append((key.values, order == -1))
                k += 2
            }
            let vertical = !(byColumn ?? false)
            let sorted = sortedLines(vertical ? arr.rows : arr.columns, keys: keys)
            return .value(.array(picking(arr, lines: sorted, byColumn: !vertical)))
        },
        // UNIQUE(array, [by_col], [exactly_once]): rows (or columns) compared as Excel's `=` does, text case-blind.
        raw("UNIQUE", 1, 3, arrays: true) { ev, a in
            let arr = try ev.arrayArgument(a[0])
            let byColumn = ev.isMissing(a, 1) ? false : try ev.flag(a[1])
            let exactlyOnce = ev.isMissing(a, 2) ? false : try ev.flag(a[2])
            let lines = byColumn ? arr.columns : arr.rows, width = byColumn ? arr.rows : arr.columns
            var firstOf: [[UniqueKey]: Int] = [:], counts: [Int] = [], order: [Int] = []
            for line in 0..<lines {
                let key = (0..<width).map { UniqueKey(byColumn ? arr[$0, line] : arr[line, $0]) }
                if let first = firstOf[key] { counts[first] += 1; continue }
                firstOf[key] = order.count
                order.append(line)
                counts.append(1)
            }
            let kept = order.indices.filter { !exactlyOnce || counts[$0] == 1 }.map { order[$0] }
            guard !kept.isEmpty else { return .value(.error(.calc)) }
            return .value(.array(picking(arr, lines: kept, byColumn: byColumn)))
        },
        // FILTER(array, include, [if_empty]): include is a column as tall as the array or a row as wide.
        raw("FILTER", 2, 3, arrays: true) { ev, a in
            let arr = try ev.arrayArgument(a[0]), include = try ev.pickable(a[1])
            let byColumn: Bool
            if include.columns == 1, include.rows == arr.rows { byColumn = false }
            else if include.rows == 1, include.columns == arr.columns { byColumn = true }
            else { return .value(.error(.value)) }
            var kept: [Int] = []
            for (k, v) in include.values.enumerated() {
                switch v {
                case .number(let x): if x != 0 { kept.append(k) }
                case .boolean(let b): if b { kept.append(k) }
                case .empty: continue
                case .error(let e): return .value(.error(e))
                case .text, .array: return .value(.error(.value))
                }
            }
            guard !kept.isEmpty else {
                return ev.isMissing(a, 2) ? .value(.error(.calc)) : a[2]
            }
            return .value(.array(picking(arr, lines: kept, byColumn: byColumn)))
        },
        raw("HSTACK", 1, 254, arrays: true) { ev, a in try stack(ev, a, horizontally: true) },
        raw("VSTACK", 1, 254, arrays: true) { ev, a in try stack(ev, a, horizontally: false) },
        // TAKE(array, rows, [columns]) and DROP(array, rows, [columns]): negative counts from the end.
        raw("TAKE", 2, 3, arrays: true) { ev, a in try liftingCounts(ev, a, [1, 2]) { try takeOrDrop(ev, $0, take: true) } },
        raw("DROP", 2, 3, arrays: true) { ev, a in try liftingCounts(ev, a, [1, 2]) { try takeOrDrop(ev, $0, take: false) } },
        // EXPAND(array, rows, [columns], [pad_with]): padded with #N/A unless told.
        raw("EXPAND", 2, 4, arrays: true) { ev, a in
            let arr = try ev.arrayArgument(a[0])
            let rows = ev.isMissing(a, 1) ? arr.rows : try ev.int(a[1])
            let columns = ev.isMissing(a, 2) ? arr.columns : try ev.int(a[2])
            let pad: CalcValue = ev.isMissing(a, 3) ? .error(.notAvailable) : try ev.scalar(a[3])
            guard rows >= arr.rows, columns >= arr.columns else { return .value(.error(.value)) }
            try ev.arrayCells(rows, columns)
            var out = [CalcValue](repeating: pad, count: rows * columns)
            for r in 0..<arr.rows { for c in 0..<arr.columns { out[r * columns + c] = arr[r, c] } }
            return .value(.array(CalcArray(rows: rows, columns: columns, values: out)))
        },
        raw("TOCOL", 1, 3, arrays: true) { ev, a in try flatten(ev, a, column: true) },
        raw("TOROW", 1, 3, arrays: true) { ev, a in try flatten(ev, a, column: false) },
        raw("WRAPCOLS", 2, 3, arrays: true) { ev, a in try liftingCounts(ev, a, [1]) { try wrap(ev, $0, columns: true) } },
        raw("WRAPROWS", 2, 3, arrays: true) { ev, a in try liftingCounts(ev, a, [1]) { try wrap(ev, $0, columns: false) } },
        // SINGLE is how a file stores the `@` operator: the implicit intersection of a range with the
        // formula's row or column (a reference, as `@A1:A9` is one), an array's first element.
        raw("SINGLE", 1, 1) { ev, a in
            switch a[0] {
            case .ref(let r):
                if r.isSingleCell { return a[0] }
                if r.c1 == r.c2, ev.row >= r.r1, ev.row <= r.r2 {
                    return .ref(SheetRange(sheet: r.sheet, r1: ev.row, c1: r.c1, r2: ev.row, c2: r.c1))
                }
                if r.r1 == r.r2, ev.column >= r.c1, ev.column <= r.c2 {
                    return .ref(SheetRange(sheet: r.sheet, r1: r.r1, c1: ev.column, r2: r.r1, c2: ev.column))
                }
                return .value(.error(.value))
            case .refs: return .value(.error(.value))
            case .value(.array(let arr)): return .value(arr.values.first ?? .empty)
            default: return a[0]
            }
        },
    ]

    /// SEQUENCE's rows or columns: 1 when omitted, truncated; 0 is an empty array (#CALC!), negative #VALUE!.
    static func sequenceCount(_ ev: Evaluator, _ a: [Operand], _ k: Int) throws -> Int {
        let x = try ev.num(a, k, default: 1)
        guard x >= 0 else { throw EvalInterrupt.error(.value) }
        guard x >= 1 else { throw EvalInterrupt.error(.calc) }
        guard x <= Double(ev.limits.maxArrayCells) else { throw EvalInterrupt.error(.number) }
        return Int(x)
    }

    /// SORT's order: numbers, text (case-blind), booleans, errors (by code), blanks last either way.
    static func sortOrder(_ x: CalcValue, _ y: CalcValue) -> Int {
        if case .error(let e) = x, case .error(let f) = y { return e.typeNumber == f.typeNumber ? 0 : (e.typeNumber < f.typeNumber ? -1 : 1) }
        return xcompare(x, y)
    }

    /// Line indexes sorted by the keys, stably (equal lines keep their order), blanks last.
    static func sortedLines(_ lines: Int, keys: [([CalcValue], Bool)]) -> [Int] {
        let blankLast: (CalcValue) -> Bool = { $0 == .empty }
        return Array(0..<lines).enumerated().sorted { p, q in
            for (values, descending) in keys {
                let x = values[p.element], y = values[q.element]
                if blankLast(x) != blankLast(y) { return blankLast(y) }
                let c = sortOrder(x, y)
                if c != 0 { return descending ? c > 0 : c < 0 }
            }
            return p.offset < q.offset
        }.map(\.element)
    }

    /// The rows (or columns) of an array at the given indexes, in that order.
    static func picking(_ arr: CalcArray, lines: [Int], byColumn: Bool) -> CalcArray {
        var out: [CalcValue] = []
        if byColumn {
            out.reserveCapacity(arr.rows * lines.count)
            for r in 0..<arr.rows { for c in lines { out.append(arr[r, c]) } }
            return CalcArray(rows: arr.rows, columns: lines.count, values: out)
        }
        out.reserveCapacity(arr.columns * lines.count)
        for r in lines { for c in 0..<arr.columns { out.append(arr[r, c]) } }
        return CalcArray(rows: lines.count, columns: arr.columns, values: out)
    }

    /// HSTACK and VSTACK: the arrays side by side (or one under another), short ones padded with #N/A.
    static func stack(_ ev: Evaluator, _ a: [Operand], horizontally: Bool) throws -> Operand {
        let parts = try a.map { op -> CalcArray in
            if case .missing = op { return CalcArray(rows: 1, columns: 1, values: [.empty]) }
            return try ev.pickable(op)
        }
        let rows = horizontally ? parts.map(\.rows).max() ?? 1 : parts.reduce(0) { $0 + $1.rows }
        let columns = horizontally ? parts.reduce(0) { $0 + $1.columns } : parts.map(\.columns).max() ?? 1
        try ev.arrayCells(rows, columns)
        var out = [CalcValue](repeating: .error(.notAvailable), count: rows * columns)
        var offset = 0
        for p in parts {
            for r in 0..<p.rows {
                for c in 0..<p.columns {
                    let (rr, cc) = horizontally ? (r, offset + c) : (offset + r, c)
                    out[rr * columns + cc] = p[r, c]
                }
            }
            offset += horizontally ? p.columns : p.rows
        }
        return .value(.array(CalcArray(rows: rows, columns: columns, values: out)))
    }

    /// Counts given as arrays (or ranges of several cells) lift `body` over them: one result a count,
    /// the arrays broadcast against each other (a missing element #N/A), each result reduced to its
    /// top-left value and each error kept in its place, as Excel spills `DROP(x,1,{1;2;1})`.
    static func liftingCounts(_ ev: Evaluator, _ a: [Operand], _ counts: [Int], _ body: ([Operand]) throws -> Operand) throws -> Operand {
        var lifted: [(k: Int, values: CalcArray)] = []
        for k in counts where k < a.count {
            switch a[k] {
            case .value(.array(let arr)): lifted.append((k, arr))
            case .ref(let r) where r.rows * r.columns > 1: lifted.append((k, try ev.array(a[k])))
            default: continue
            }
        }
        guard !lifted.isEmpty else { return try body(a) }
        let rows = lifted.map(\.values.rows).max()!, columns = lifted.map(\.values.columns).max()!
        try ev.arrayCells(rows, columns)
        var out: [CalcValue] = []
        out.reserveCapacity(rows * columns)
        for r in 0..<rows {
            for c in 0..<columns {
                var args = a
                for (k, arr) in lifted {
                    let (i, j) = (arr.rows == 1 ? 0 : r, arr.columns == 1 ? 0 : c)
                    args[k] = .value(i < arr.rows && j < arr.columns ? arr[i, j] : .error(.notAvailable))
                }
                do {
                    switch try body(args) {
                    case .value(.array(let x)): out.append(x[0, 0])
                    case let result: out.append(try ev.scalar(result))
                    }
                } catch EvalInterrupt.error(let e) {
                    out.append(.error(e))
                }
            }
        }
        return .value(.array(CalcArray(rows: rows, columns: columns, values: out)))
    }

    static func takeOrDrop(_ ev: Evaluator, _ a: [Operand], take: Bool) throws -> Operand {
        let arr = try ev.arrayArgument(a[0])
        func span(_ k: Int, _ size: Int) throws -> Range<Int> {
            guard !ev.isMissing(a, k) else { return 0..<size }
            let n = try ev.int(a[k])
            if take {
                guard n != 0 else { throw EvalInterrupt.error(.calc) }
                return n > 0 ? 0..<min(n, size) : max(0, size + n)..<size
            }
            guard n.magnitude < size else { throw EvalInterrupt.error(.calc) }
            return n >= 0 ? n..<size : 0..<(size + n)
        }
        let rows = try span(1, arr.rows), columns = try span(2, arr.columns)
        var out: [CalcValue] = []
        out.reserveCapacity(rows.count * columns.count)
        for r in rows { for c in columns { out.append(arr[r, c]) } }
        return .value(.array(CalcArray(rows: rows.count, columns: columns.count, values: out)))
    }

    /// TOCOL and TOROW: ignore 0 keeps all, 1 blanks out, 2 errors out, 3 both; by row unless scan_by_column.
    static func flatten(_ ev: Evaluator, _ a: [Operand], column: Bool) throws -> Operand {
        let arr = try ev.arrayArgument(a[0])
        let ignore = try ev.int(a, 1, default: 0)
        guard (0...3).contains(ignore) else { return .value(.error(.value)) }
        let byColumn = ev.isMissing(a, 2) ? false : try ev.flag(a[2])
        var out: [CalcValue] = []
        out.reserveCapacity(arr.values.count)
        let (outer, inner) = byColumn ? (arr.columns, arr.rows) : (arr.rows, arr.columns)
        for i in 0..<outer {
            for j in 0..<inner {
                let v = byColumn ? arr[j, i] : arr[i, j]
                if v == .empty, ignore & 1 != 0 { continue }
                if case .error = v, ignore & 2 != 0 { continue }
                out.append(v)
            }
        }
        guard !out.isEmpty else { return .value(.error(.calc)) }
        return .value(.array(CalcArray(rows: column ? out.count : 1, columns: column ? 1 : out.count, values: out)))
    }

    /// WRAPCOLS and WRAPROWS: a row or column cut into columns (rows) of wrap_count, padded with #N/A.
    static func wrap(_ ev: Evaluator, _ a: [Operand], columns: Bool) throws -> Operand {
        let arr = try ev.arrayArgument(a[0])
        guard arr.rows == 1 || arr.columns == 1 else { return .value(.error(.value)) }
        let count = try ev.int(a[1])
        guard count >= 1 else { return .value(.error(.number)) }
        let pad: CalcValue = ev.isMissing(a, 2) ? .error(.notAvailable) : try ev.scalar(a[2])
        let n = arr.values.count
        let lines = (n + count - 1) / count
        let (rows, cols) = columns ? (min(count, n), lines) : (lines, min(count, n))
        try ev.arrayCells(rows, cols)
        var out = [CalcValue](repeating: pad, count: rows * cols)
        for (k, v) in arr.values.enumerated() {
            let (line, place) = (k / count, k % count)
            if columns { out[place * cols + line] = v } else { out[line * cols + place] = v }
        }
        return .value(.array(CalcArray(rows: rows, columns: cols, values: out)))
    }
}

/// UNIQUE's key for one value: numbers to 15 digits, text case-blind, blanks their own.
enum UniqueKey: Hashable {
    case blank
    case value(LookupKey)

    init(_ v: CalcValue) {
        if let key = LookupKey(v) { self = .value(key) } else { self = .blank }
    }
}

extension Evaluator {
    /// A dynamic-array function's array argument: a range at its own size, an array, a value as a
    /// 1×1 array; an error value is that error.
    func arrayArgument(_ op: Operand) throws -> CalcArray {
        if case .value(.error(let e)) = op { throw EvalInterrupt.error(e) }
        return try pickable(op)
    }
}
