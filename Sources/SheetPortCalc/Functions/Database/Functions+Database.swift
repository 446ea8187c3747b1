import SheetPortCore

/// The database functions' arguments: a database (a range whose first row holds the column
/// labels), a field (a label, matched without regard to case, or a 1-based column number) and a
/// criteria range (labels, then rows of conditions: the conditions of a row must all hold, any
/// row may; an empty condition holds for every record).
struct DatabaseQuery {
    let table: CalcArray
    /// The field's column, or nil when the field was omitted (DCOUNT, DCOUNTA).
    let column: Int?
    /// For each criteria row, the (column, criterion) conditions.
    let rows: [[(Int, Criterion)]]

    init(_ ev: Evaluator, _ a: [Operand], fieldRequired: Bool = true) throws {
        table = try ev.array(a[0])
        // Labels alone hold no record: #VALUE!.
        guard table.rows >= 2 else { throw EvalInterrupt.error(.value) }
        if ev.isMissing(a, 1) {
            guard !fieldRequired else { throw EvalInterrupt.error(.value) }
            column = nil
        } else {
            column = try Self.column(of: try ev.checked(a[1]), in: table, ev)
        }
        let criteria = try ev.array(a[2])
        guard criteria.rows >= 2 else { throw EvalInterrupt.error(.value) }
        var rows: [[(Int, Criterion)]] = []
        for r in 1..<criteria.rows {
            var conditions: [(Int, Criterion)] = []
            for c in 0..<criteria.columns {
                let condition = criteria[r, c]
                if case .empty = condition { continue }
                guard let col = try? Self.column(of: criteria[0, c], in: table, ev, byNumber: false) else {
                    // A label the database lacks: no record meets the condition.
                    conditions.append((-1, Criterion(.empty, system: ev.dateSystem)))
                    continue
                }
                conditions.append((col, Self.criterion(condition, ev.dateSystem)))
            }
            rows.append(conditions)
        }
        self.rows = rows
    }

    /// A condition as the database functions read it: text without an operator matches the
    /// values that begin with it ("Be" holds for "Beverages"), `=Be` only "Be" itself.
    static func criterion(_ v: CalcValue, _ system: DateSystem) -> Criterion {
        guard case .text(let t) = v, let first = t.first, !"=<>".contains(first) else { return Criterion(v, system: system) }
        let plain = Criterion(v, system: system)
        guard plain.text != nil else { return plain }
        return Criterion(.text(t + "*"), system: system)
    }

    /// The column of a field: a label (case-insensitive) or, when `byNumber`, a 1-based number.
    static func column(of field: CalcValue, in table: CalcArray, _ ev: Evaluator, byNumber: Bool = true) throws -> Int {
        // A number, or a boolean (TRUE is column 1: calc-suite DATABASE__DCOUNT_DCOUNTA B66), is a position.
        var position: Double?
        if case .number(let x) = field { position = x }
        if case .boolean(let b) = field { position = b ? 1 : 0 }
        if byNumber, let x = position {
            guard x >= 1, x < Double(table.columns + 1) else { throw EvalInterrupt.error(.value) }
            return Int(x) - 1
        }
        if case .empty = field { throw EvalInterrupt.error(.value) }
        let label = try ev.text(field).lowercased()
        for c in 0..<table.columns {
            let header = table[0, c]
            if case .empty = header { continue }
            if let h = try? ev.text(header), h.lowercased() == label { return c }
        }
        throw EvalInterrupt.error(.value)
    }

    /// The records (rows of the table after its labels) meeting the criteria, in order.
    var records: [Int] {
        var out: [Int] = []
        guard table.rows > 1 else { return out }
        for r in 1..<table.rows {
            let hit = rows.contains { conditions in
                conditions.allSatisfy { c, criterion in c >= 0 && criterion.matches(table[r, c]) }
            }
            if hit { out.append(r) }
        }
        return out
    }

    /// The field's values of the matching records.
    var values: [CalcValue] {
        guard let column else { return [] }
        return records.map { table[$0, column] }
    }

    /// The numbers among the field's values (an error among them is thrown).
    func numbers() throws -> [Double] {
        try values.compactMap { v in
            if case .error(let e) = v { throw EvalInterrupt.error(e) }
            if case .number(let x) = v { return x }
            return nil
        }
    }
}

extension Functions {
    static func databaseNumbers(_ name: String, _ f: @escaping @Sendable ([Double]) -> Operand) -> FunctionSpec {
        raw(name, 3, 3) { ev, a in f(try DatabaseQuery(ev, a).numbers()) }
    }

    /// The sample (or population) variance of numbers; nil when too few.
    static func variance(_ xs: [Double], sample: Bool) -> Double? {
        let n = Double(xs.count)
        guard n > (sample ? 1 : 0) else { return nil }
        let mean = xs.reduce(0, +) / n
        let ss = xs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        return ss / (sample ? n - 1 : n)
    }

    static func spread(_ name: String, sample: Bool, root: Bool) -> FunctionSpec {
        databaseNumbers(name) { xs in
            guard let v = variance(xs, sample: sample) else { return .value(.error(.divisionByZero)) }
            return number(root ? v.squareRoot() : v)
        }
    }

    static let database: [FunctionSpec] = [
        databaseNumbers("DSUM") { number($0.reduce(0, +)) },
        databaseNumbers("DAVERAGE") { $0.isEmpty ? .value(.error(.divisionByZero)) : number($0.reduce(0, +) / Double($0.count)) },
        databaseNumbers("DMAX") { number($0.max() ?? 0) },
        databaseNumbers("DMIN") { number($0.min() ?? 0) },
        databaseNumbers("DPRODUCT") { $0.isEmpty ? .value(.number(0)) : number($0.reduce(1, *)) },
        spread("DSTDEV", sample: true, root: true), spread("DSTDEVP", sample: false, root: true),
        spread("DVAR", sample: true, root: false), spread("DVARP", sample: false, root: false),
        // DCOUNT counts the numbers of the field (every matching record without a field), DCOUNTA
        // the values that are not empty.
        raw("DCOUNT", 3, 3) { ev, a in
            let q = try DatabaseQuery(ev, a, fieldRequired: false)
            guard q.column != nil else { return .value(.number(Double(q.records.count))) }
            return .value(.number(Double(q.values.filter { if case .number = $0 { return true }; return false }.count)))
        },
        raw("DCOUNTA", 3, 3) { ev, a in
            let q = try DatabaseQuery(ev, a, fieldRequired: false)
            guard q.column != nil else { return .value(.number(Double(q.records.count))) }
            return .value(.number(Double(q.values.filter { if case .empty = $0 { return false }; return true }.count)))
        },
        // DGET: the field of the one matching record; none is #VALUE!, more than one #NUM!.
        raw("DGET", 3, 3) { ev, a in
            let values = try DatabaseQuery(ev, a).values
            guard !values.isEmpty else { return .value(.error(.value)) }
            guard values.count == 1 else { return .value(.error(.number)) }
            return .value(values[0])
        },
    ]
}
