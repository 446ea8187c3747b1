/// GROUPBY and PERCENTOF, after Microsoft's GROUPBY and PERCENTOF articles
/// (support.microsoft.com/office/groupby-function-5e08ae8c-6800-4b72-b623-c41773611505) and the
/// Excel-computed cells of the calculation suite (formulas__test LOOKUP!M25:AE41, MATH & TRIG!R49:AW49).
///
/// GROUPBY(row_fields, values, function, [field_headers], [total_depth], [sort_order], [filter_array],
/// [field_relationship]) groups the rows by their row fields and applies the function (a LAMBDA or an
/// eta-reduced built-in, `_xleta.SUM`) to each value column of each group; a function of two
/// parameters (PERCENTOF) is also given the whole column. Field headers: 0 none, 1 present but
/// hidden, 2 none but generated (shown as none here), 3 present and shown; omitted, a first value
/// row of text over a number means hidden headers. Totals: 0 none, 1 a grand total, n subtotals
/// for the first n-1 fields too; negative puts them above their group. Sort keys are output column
/// indexes (negative descending); in a hierarchy (field_relationship 0) each level is sorted
/// among its siblings, in a table (1) the rows as one list.
extension Functions {
    static let grouping: [FunctionSpec] = [
        raw("GROUPBY", 3, 8, arrays: true) { ev, a in try groupBy(ev, a) },
        // PERCENTOF(data_subset, data_all): SUM(data_subset)/SUM(data_all); an error inside either is
        // #NUM! as Excel computes it (MATH & TRIG!W49:AF49), a zero total #DIV/0!.
        raw("PERCENTOF", 2, 2, arrays: true) { ev, a in
            var part = 0.0, whole = 0.0
            do {
                try ev.forEachNumber([a[0]]) { part += $0 }
                try ev.forEachNumber([a[1]]) { whole += $0 }
            } catch EvalInterrupt.error {
                return .value(.error(.number))
            }
            guard whole != 0 else { return .value(.error(.divisionByZero)) }
            return number(part / whole)
        },
    ]

    /// One group of rows: the key of its field at its level, its rows, and its subgroups.
    final class Group {
        let key: CalcValue
        var rows: [Int] = []
        var children: [Group] = []
        var index: [UniqueKey: Int] = [:]
        var results: [CalcValue] = []

        init(_ key: CalcValue) { self.key = key }

        func child(_ key: CalcValue) -> Group {
            let k = UniqueKey(key)
            if let i = index[k] { return children[i] }
            index[k] = children.count
            children.append(Group(key))
            return children[children.count - 1]
        }
    }

    /// The shared arguments of GROUPBY and PIVOTBY once read.
    struct Aggregation {
        let values: CalcArray
        let lambda: Lambda
        let rows: [Int]
        let hasHeaders: Bool
        let showsHeaders: Bool

        /// The function of each value column over `subset` (data rows), as one cell each.
        func results(_ ev: Evaluator, _ subset: [Int]) throws -> [CalcValue] {
            let twoArguments = !lambda.arity.contains(1) && lambda.arity.contains(2)
            return try (0..<values.columns).map { c in
                let column = { (rows: [Int]) in Operand.value(.array(CalcArray(rows: rows.count, columns: 1, values: rows.map { values[$0, c] }))) }
                let args = twoArguments ? [column(subset), column(rows)] : [column(subset)]
                return try ev.element(try ev.apply(lambda, args))
            }
        }
    }

    /// Reads the fields, values, function, headers and filter; `fields` are the grouping arrays.
    static func aggregation(_ ev: Evaluator, fields: [CalcArray], values valuesOp: Operand, function: Operand,
                            headers: Operand, filter: Operand) throws -> Aggregation {
        let values = try ev.arrayArgument(valuesOp)
        guard fields.allSatisfy({ $0.rows == values.rows }) else { throw EvalInterrupt.error(.value) }
        let lambda = try ev.lambdaArgument(function)
        // The function is called with a group's values, or with them and the whole column.
        guard lambda.arity.contains(1) || lambda.arity.contains(2) else { throw EvalInterrupt.error(.value) }
        let mode: Int
        if case .missing = headers {
            let textFirst = (0..<values.columns).allSatisfy { if case .text = values[0, $0] { return true } else { return false } }
            let numberNext = values.rows > 1 && (0..<values.columns).contains { if case .number = values[1, $0] { return true } else { return false } }
            mode = textFirst && numberNext ? 1 : 0
        } else {
            mode = try ev.int(headers)
            guard (0...3).contains(mode) else { throw EvalInterrupt.error(.value) }
        }
        let hasHeaders = mode == 1 || mode == 3
        var rows = Array((hasHeaders ? 1 : 0)..<values.rows)
        if case .missing = filter {} else {
            let keep = try ev.arrayArgument(filter)
            guard keep.rows == values.rows, keep.columns == 1 else { throw EvalInterrupt.error(.value) }
            rows = try rows.filter { r in
                switch keep[r, 0] {
                case .boolean(let b): return b
                case .number(let x): return x != 0
                case .error(let e): throw EvalInterrupt.error(e)
                default: return false
                }
            }
        }
        guard !rows.isEmpty else { throw EvalInterrupt.error(.calc) }
        return Aggregation(values: values, lambda: lambda, rows: rows, hasHeaders: hasHeaders, showsHeaders: mode == 3)
    }

    /// The tree of groups of `rows` by the columns of `fields`, level by level, with the results of each group.
    static func groupTree(_ ev: Evaluator, _ fields: CalcArray, _ agg: Aggregation) throws -> Group {
        let root = Group(.empty)
        root.rows = agg.rows
        for r in agg.rows {
            var node = root
            for c in 0..<fields.columns {
                node = node.child(fields[r, c])
                node.rows.append(r)
            }
        }
        func compute(_ g: Group) throws {
            g.results = try agg.results(ev, g.rows)
            for child in g.children { try compute(child) }
        }
        try compute(root)
        return root
    }

    /// Sort keys as (output column, descending); nil when omitted. An index past `width` or 0 is #VALUE!.
    static func sortKeys(_ ev: Evaluator, _ op: Operand, width: Int) throws -> [(Int, Bool)]? {
        if case .missing = op { return nil }
        let keys = try ev.array(op).values.map { v -> (Int, Bool) in
            let x = Int(try ev.number(v).rounded(.towardZero))
            guard x != 0, Swift.abs(x) <= width else { throw EvalInterrupt.error(.value) }
            return (Swift.abs(x) - 1, x < 0)
        }
        return keys
    }

    /// Orders `groups` (siblings at `level`, 0-based) by the keys that name this level's field or a
    /// value column (`fieldCount` fields come first in the output), then by the field ascending.
    static func sortSiblings(_ groups: [Group], level: Int, fieldCount: Int, keys: [(Int, Bool)]?) -> [Group] {
        let keys = keys ?? [(level, false)]
        return groups.enumerated().sorted { p, q in
            for (column, descending) in keys {
                let x: CalcValue, y: CalcValue
                if column == level { x = p.element.key; y = q.element.key }
                else if column >= fieldCount { x = p.element.results[column - fieldCount]; y = q.element.results[column - fieldCount] }
                else { continue }
                let c = compareForSort(x, y)
                if c != 0 { return descending ? c > 0 : c < 0 }
            }
            let c = compareForSort(p.element.key, q.element.key)
            if c != 0 { return c < 0 }
            return p.offset < q.offset
        }.map(\.element)
    }

    /// SORT's order with blanks last.
    static func compareForSort(_ x: CalcValue, _ y: CalcValue) -> Int {
        if (x == .empty) != (y == .empty) { return x == .empty ? 1 : -1 }
        return sortOrder(x, y)
    }

    static func groupBy(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let fields = try ev.arrayArgument(a[0])
        let arg = { (k: Int) in k < a.count ? a[k] : Operand.missing }
        let agg = try aggregation(ev, fields: [fields], values: a[1], function: a[2], headers: arg(3), filter: arg(6))
        let depth = ev.isMissing(a, 4) ? 1 : try ev.int(a[4])
        let width = fields.columns + agg.values.columns
        let keys = try sortKeys(ev, arg(5), width: width)
        let table = ev.isMissing(a, 7) ? false : try ev.int(a[7]) == 1
        let root = try groupTree(ev, fields, agg)
        let subtotalLevels = table ? 0 : min(Swift.abs(depth), fields.columns) - 1
        let above = depth < 0

        var out: [CalcValue] = []
        func emit(_ labels: [CalcValue], _ results: [CalcValue]) throws {
            try ev.charge(bytes: width * MemoryLayout<CalcValue>.stride, steps: width)
            out.append(contentsOf: labels + Array(repeating: .empty, count: fields.columns - labels.count) + results)
        }
        if agg.showsHeaders {
            try emit((0..<fields.columns).map { fields[0, $0] }, (0..<agg.values.columns).map { agg.values[0, $0] })
        }
        let grand = CalcValue.text(subtotalLevels > 0 ? "Grand Total" : "Total")
        if depth != 0, above { try emit([grand], root.results) }
        if table {
            // Leaves as one list, sorted by every key across the columns.
            var leaves: [([CalcValue], Group)] = []
            func collect(_ g: Group, _ path: [CalcValue]) {
                if g.children.isEmpty { leaves.append((path, g)); return }
                for child in g.children { collect(child, path + [child.key]) }
            }
            collect(root, [])
            let order = keys ?? (0..<fields.columns).map { ($0, false) }
            leaves = leaves.enumerated().sorted { p, q in
                let line = { (l: ([CalcValue], Group), column: Int) in column < fields.columns ? l.0[column] : l.1.results[column - fields.columns] }
                for (column, descending) in order + (0..<fields.columns).map({ ($0, false) }) {
                    let c = compareForSort(line(p.element, column), line(q.element, column))
                    if c != 0 { return descending && order.contains(where: { $0.0 == column }) ? c > 0 : c < 0 }
                }
                return p.offset < q.offset
            }.map(\.element)
            for (path, g) in leaves { try emit(path, g.results) }
        } else {
            func walk(_ g: Group, _ path: [CalcValue]) throws {
                let level = path.count
                for child in sortSiblings(g.children, level: level, fieldCount: fields.columns, keys: keys) {
                    let labels = path + [child.key]
                    let subtotal = !child.children.isEmpty && labels.count <= subtotalLevels
                    if subtotal, above { try emit(labels, child.results) }
                    if child.children.isEmpty { try emit(labels, child.results) } else { try walk(child, labels) }
                    if subtotal, !above { try emit(labels, child.results) }
                }
            }
            try walk(root, [])
        }
        if depth != 0, !above { try emit([grand], root.results) }
        let rows = out.count / width
        try ev.arrayCells(rows, width)
        return .value(.array(CalcArray(rows: rows, columns: width, values: out)))
    }
}
