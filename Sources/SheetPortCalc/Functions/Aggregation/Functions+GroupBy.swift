/// GROUPBY, PIVOTBY and PERCENTOF, after Microsoft's GROUPBY, PIVOTBY and PERCENTOF articles
/// (support.microsoft.com/office/groupby-function-5e08ae8c-6800-4b72-b623-c41773611505) and the
/// Excel-computed cells of the calculation suite (formulas__test LOOKUP!M25:AE41 and N93:AW111,
/// EXTRA!H96:Q103, MATH & TRIG!R49:AW49).
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
        raw("PIVOTBY", 4, 11, arrays: true) { ev, a in try pivotBy(ev, a) },
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

        /// The function of each value column over `subset` (data rows), as one cell each; a function
        /// of two parameters is also given `whole` (every row kept when nil).
        func results(_ ev: Evaluator, _ subset: [Int], whole: [Int]? = nil) throws -> [CalcValue] {
            // Only a function of exactly two parameters gets the second: `_xleta.IF` (two or three)
            // is called with one and is #VALUE! in every cell (EXTRA!H100).
            let twoArguments = lambda.arity == 2...2
            return try (0..<values.columns).map { c in
                let column = { (rows: [Int]) in Operand.value(.array(CalcArray(rows: rows.count, columns: 1, values: rows.map { values[$0, c] }))) }
                let args = twoArguments ? [column(subset), column(whole ?? rows)] : [column(subset)]
                return try ev.element(try ev.apply(lambda, args))
            }
        }
    }

    /// Reads the fields, values, function, headers and filter; `fields` are the grouping arrays.
    static func aggregation(_ ev: Evaluator, fields: [CalcArray], values valuesOp: Operand, function: Operand,
                            headers: Operand, filter: Operand) throws -> Aggregation {
        let values = try ev.arrayArgument(valuesOp)
        guard fields.allSatisfy({ $0.rows == values.rows }) else { throw EvalInterrupt.error(.value) }
        // A reference to a cell holding an error passes the error on (EXTRA!L96).
        if case .ref = function, case .error(let e) = try ev.scalar(function) { throw EvalInterrupt.error(e) }
        let lambda = try ev.lambdaArgument(function)
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
            // Only the first column of a wider filter counts (LOOKUP!N93 filters by K93:L111 as by K).
            guard keep.rows == values.rows else { throw EvalInterrupt.error(.value) }
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

    /// Orders `groups` (siblings at `level`, 0-based) by the keys that name this level's field or,
    /// on the deepest level, a value column (`fieldCount` fields come first in the output: PIVOTBY
    /// LOOKUP!AR96 sorts `a` before `b` by name and their children by value), then by the field.
    static func sortSiblings(_ groups: [Group], level: Int, fieldCount: Int, keys: [(Int, Bool)]?) -> [Group] {
        let keys = keys ?? [(level, false)]
        return groups.enumerated().sorted { p, q in
            for (column, descending) in keys {
                let x: CalcValue, y: CalcValue
                if column == level { x = p.element.key; y = q.element.key }
                else if column >= fieldCount, level == fieldCount - 1 { x = p.element.results[column - fieldCount]; y = q.element.results[column - fieldCount] }
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

    /// What Excel writes where an output cell has no label or no value: an empty string (the
    /// calculation suite's LOOKUP!AJ92, O28, AS98 are `t="str"` with an empty `<v/>`).
    static let blank = CalcValue.text("")

    /// One output line of a grouping: its labels (the fields down to its level, or the total's
    /// name), its group and the group above it.
    struct Line {
        let labels: [CalcValue]
        let group: Group
        let parent: Group?
    }

    /// The lines of a group tree in output order: groups sorted level by level (or as one table),
    /// subtotals for the first |depth|-1 levels and the grand total, below (depth > 0) or above.
    static func lines(_ root: Group, fieldCount: Int, depth: Int, keys: [(Int, Bool)]?, table: Bool) throws -> [Line] {
        guard Swift.abs(depth) <= fieldCount + 1 else { throw EvalInterrupt.error(.value) }
        let subtotalLevels = table ? 0 : min(Swift.abs(depth), fieldCount) - 1
        let above = depth < 0
        var out: [Line] = []
        let grand = Line(labels: [.text(subtotalLevels > 0 ? "Grand Total" : "Total")], group: root, parent: nil)
        if depth != 0, above { out.append(grand) }
        if table {
            // Leaves as one list, sorted by every key across the columns, then by the fields.
            var leaves: [Line] = []
            func collect(_ g: Group, _ path: [CalcValue]) {
                for child in g.children {
                    if child.children.isEmpty { leaves.append(Line(labels: path + [child.key], group: child, parent: g)) }
                    else { collect(child, path + [child.key]) }
                }
            }
            collect(root, [])
            let order = (keys ?? []) + (0..<fieldCount).map { ($0, false) }
            let cell = { (l: Line, column: Int) in column < fieldCount ? l.labels[column] : l.group.results[column - fieldCount] }
            out += leaves.enumerated().sorted { p, q in
                for (column, descending) in order {
                    let c = compareForSort(cell(p.element, column), cell(q.element, column))
                    if c != 0 { return descending ? c > 0 : c < 0 }
                }
                return p.offset < q.offset
            }.map(\.element)
        } else {
            func walk(_ g: Group, _ path: [CalcValue]) {
                for child in sortSiblings(g.children, level: path.count, fieldCount: fieldCount, keys: keys) {
                    let labels = path + [child.key]
                    let line = Line(labels: labels, group: child, parent: g)
                    let subtotal = !child.children.isEmpty && labels.count <= subtotalLevels
                    if subtotal, above { out.append(line) }
                    if child.children.isEmpty { out.append(line) } else { walk(child, labels) }
                    if subtotal, !above { out.append(line) }
                }
            }
            walk(root, [])
        }
        if depth != 0, !above { out.append(grand) }
        return out
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
        let body = try lines(root, fieldCount: fields.columns, depth: depth, keys: keys, table: table)
        let rows = body.count + (agg.showsHeaders ? 1 : 0)
        try ev.arrayCells(rows, width)
        var out: [CalcValue] = []
        out.reserveCapacity(rows * width)
        let pad = { (labels: [CalcValue]) in labels + Array(repeating: blank, count: fields.columns - labels.count) }
        if agg.showsHeaders {
            out += pad((0..<fields.columns).map { fields[0, $0] }) + (0..<agg.values.columns).map { agg.values[0, $0] }
        }
        for line in body { out += pad(line.labels) + line.group.results }
        return .value(.array(CalcArray(rows: rows, columns: width, values: out)))
    }

    /// PIVOTBY(row_fields, col_fields, values, function, [field_headers], [row_total_depth],
    /// [row_sort_order], [col_total_depth], [col_sort_order], [filter_array], [relative_to]): GROUPBY's
    /// rows against the column fields' groups laid out across (one column per value column each),
    /// the column labels in as many rows as there are column fields. A cell no row falls in is
    /// blank. A function of two parameters (PERCENTOF) is given, beside the cell's values, those of
    /// its column total (relative_to 0), row total (1), the grand total (2), or its parent column
    /// (3) or parent row (4) group.
    static func pivotBy(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        let rowFields = try ev.arrayArgument(a[0]), colFields = try ev.arrayArgument(a[1])
        let arg = { (k: Int) in k < a.count ? a[k] : Operand.missing }
        let agg = try aggregation(ev, fields: [rowFields, colFields], values: a[2], function: a[3], headers: arg(4), filter: arg(9))
        let m = agg.values.columns
        let rowKeys = try sortKeys(ev, arg(6), width: rowFields.columns + m)
        let colKeys = try sortKeys(ev, arg(8), width: colFields.columns + m)
        let relative = try ev.int(a, 10, default: 0)
        guard (0...4).contains(relative) else { return .value(.error(.value)) }
        let rowRoot = try groupTree(ev, rowFields, agg), colRoot = try groupTree(ev, colFields, agg)
        let rowLines = try lines(rowRoot, fieldCount: rowFields.columns, depth: try ev.int(a, 5, default: 1), keys: rowKeys, table: false)
        let colLines = try lines(colRoot, fieldCount: colFields.columns, depth: try ev.int(a, 7, default: 1), keys: colKeys, table: false)
        let width = rowFields.columns + colLines.count * m
        let headerRows = agg.showsHeaders ? 2 : 0
        let rows = colFields.columns + headerRows + rowLines.count
        try ev.arrayCells(rows, width)
        var out: [CalcValue] = []
        out.reserveCapacity(rows * width)
        if agg.showsHeaders {
            // Shown headers (EXTRA!BD95): the column fields' names joined above the labels.
            let names = try (0..<colFields.columns).map { try ev.text(colFields[0, $0]) }.joined(separator: ", ")
            out += Array(repeating: blank, count: rowFields.columns) + [.text(names)]
            out += Array(repeating: blank, count: width - rowFields.columns - 1)
        }
        for level in 0..<colFields.columns {
            out += Array(repeating: blank, count: rowFields.columns)
            for line in colLines {
                let label = level < line.labels.count ? line.labels[level] : blank
                out += Array(repeating: label, count: m)
            }
        }
        if agg.showsHeaders {
            // Then the row fields' names and each value column's under every column group.
            out += (0..<rowFields.columns).map { rowFields[0, $0] }
            for _ in colLines { out += (0..<m).map { agg.values[0, $0] } }
        }
        for rowLine in rowLines {
            out += rowLine.labels + Array(repeating: blank, count: rowFields.columns - rowLine.labels.count)
            let inRow = Set(rowLine.group.rows)
            for colLine in colLines {
                let subset = colLine.group.rows.filter { inRow.contains($0) }
                guard !subset.isEmpty else { out += Array(repeating: blank, count: m); continue }
                let whole: [Int]
                switch relative {
                case 0: whole = colLine.group.rows
                case 1: whole = rowLine.group.rows
                // The parent column's total within this row, the parent row's within this column
                // (LOOKUP!N106: relative_to 3 over one column field is the row total).
                case 3: whole = (colLine.parent ?? colRoot).rows.filter { inRow.contains($0) }
                case 4: let inColumn = Set(colLine.group.rows); whole = (rowLine.parent ?? rowRoot).rows.filter { inColumn.contains($0) }
                default: whole = agg.rows
                }
                try ev.charge(bytes: 0, steps: subset.count + m)
                out += try agg.results(ev, subset, whole: whole)
            }
        }
        return .value(.array(CalcArray(rows: rows, columns: width, values: out)))
    }
}
