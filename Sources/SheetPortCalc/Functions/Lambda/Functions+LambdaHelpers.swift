/// The functions that call a LAMBDA over arrays: MAP, REDUCE, SCAN, BYROW, BYCOL, MAKEARRAY, and
/// ISOMITTED for a LAMBDA's own optional parameters (LET and LAMBDA themselves are compiled by the
/// parser: `FormulaParser+Lambda.swift`). A range argument is passed to the lambda as references
/// (a cell, a row, a column of it), so `ROW(x)` works inside as in Excel; an array as values.
/// A lambda answering an array where one value goes (MAP, BYROW, BYCOL, MAKEARRAY) gives `#CALC!`
/// there, Excel's "nested array"; the lambda's own errors stay in their cells.
extension Functions {
    static let lambdaHelpers: [FunctionSpec] = [
        // MAP(array1, [array2, …], lambda): the lambda of each array's element at one position.
        raw("MAP", 2, 254, arrays: true) { ev, a in
            let lambda = try ev.lambdaArgument(a[a.count - 1])
            let inputs = try a.dropLast().map { try LambdaInput(ev, $0) }
            let rows = inputs.map(\.rows).max() ?? 1, columns = inputs.map(\.columns).max() ?? 1
            try ev.arrayCells(rows, columns)
            var out: [CalcValue] = []
            out.reserveCapacity(rows * columns)
            for r in 0..<rows {
                for c in 0..<columns {
                    out.append(try ev.element(try ev.apply(lambda, inputs.map { $0.element(r, c) })))
                }
            }
            return .value(.array(CalcArray(rows: rows, columns: columns, values: out)))
        },
        // REDUCE([initial_value], array, lambda(accumulator, value)): row by row; without an initial
        // value the first element starts the accumulator (Microsoft's REDUCE article, its note).
        raw("REDUCE", 3, 3, arrays: true) { ev, a in
            let lambda = try ev.lambdaArgument(a[2])
            let input = try LambdaInput(ev, a[1])
            var accumulator = a[0]
            var skipFirst = false
            if case .missing = accumulator { accumulator = input.element(0, 0); skipFirst = true }
            for r in 0..<input.rows {
                for c in 0..<input.columns where !(skipFirst && r == 0 && c == 0) {
                    accumulator = try ev.apply(lambda, [accumulator, input.element(r, c)])
                }
            }
            return accumulator
        },
        // SCAN([initial_value], array, lambda(accumulator, value)): every accumulator, in the array's shape.
        raw("SCAN", 3, 3, arrays: true) { ev, a in
            let lambda = try ev.lambdaArgument(a[2])
            let input = try LambdaInput(ev, a[1])
            try ev.arrayCells(input.rows, input.columns)
            var accumulator = a[0]
            var out: [CalcValue] = []
            out.reserveCapacity(input.rows * input.columns)
            for r in 0..<input.rows {
                for c in 0..<input.columns {
                    accumulator = try ev.apply(lambda, [accumulator, input.element(r, c)])
                    out.append(try ev.element(accumulator))
                }
            }
            return .value(.array(CalcArray(rows: input.rows, columns: input.columns, values: out)))
        },
        // BYROW(array, lambda(row)): one value a row, in a column.
        raw("BYROW", 2, 2, arrays: true) { ev, a in
            let lambda = try ev.lambdaArgument(a[1])
            let input = try LambdaInput(ev, a[0])
            try ev.arrayCells(input.rows, 1)
            let out = try (0..<input.rows).map { try ev.element(try ev.apply(lambda, [try input.row($0)])) }
            return .value(.array(CalcArray(rows: input.rows, columns: 1, values: out)))
        },
        // BYCOL(array, lambda(column)): one value a column, in a row.
        raw("BYCOL", 2, 2, arrays: true) { ev, a in
            let lambda = try ev.lambdaArgument(a[1])
            let input = try LambdaInput(ev, a[0])
            try ev.arrayCells(1, input.columns)
            let out = try (0..<input.columns).map { try ev.element(try ev.apply(lambda, [try input.column($0)])) }
            return .value(.array(CalcArray(rows: 1, columns: input.columns, values: out)))
        },
        // MAKEARRAY(rows, columns, lambda(row, column)): 1-based indexes; a count below 1, or given
        // as text, is #VALUE! (calculation suite formulas__test LOGICAL!T15 `MAKEARRAY(E14,"1",…)`),
        // one past maxArrayCells #NUM! before anything is computed.
        raw("MAKEARRAY", 3, 3, arrays: true) { ev, a in
            for k in 0...1 { if case .text = try ev.checked(a[k]) { return .value(.error(.value)) } }
            let rows = try ev.int(a[0]), columns = try ev.int(a[1])
            guard rows >= 1, columns >= 1 else { return .value(.error(.value)) }
            let lambda = try ev.lambdaArgument(a[2])
            try ev.arrayCells(rows, columns)
            var out: [CalcValue] = []
            out.reserveCapacity(rows * columns)
            for r in 1...rows {
                for c in 1...columns {
                    out.append(try ev.element(try ev.apply(lambda, [.value(.number(Double(r))), .value(.number(Double(c)))])))
                }
            }
            return .value(.array(CalcArray(rows: rows, columns: columns, values: out)))
        },
        // ISOMITTED(argument): TRUE for a LAMBDA parameter the call left out.
        raw("ISOMITTED", 1, 1) { _, a in
            if case .missing = a[0] { return .value(.boolean(true)) }
            return .value(.boolean(false))
        },
    ]
}

/// An array argument of the lambda helpers: a range (its stored extent) or an array of values.
struct LambdaInput {
    let rows: Int
    let columns: Int
    private let range: SheetRange?
    private let values: CalcArray?

    init(_ ev: Evaluator, _ op: Operand) throws {
        switch op {
        case .ref(let r):
            let clipped = ev.clipped(r)
            range = clipped
            values = nil
            rows = clipped.rows
            columns = clipped.columns
        case .value(.error(let e)):
            throw EvalInterrupt.error(e)
        case .lambda, .refs:
            throw EvalInterrupt.error(.value)
        default:
            let array = try ev.array(op)
            range = nil
            values = array
            rows = array.rows
            columns = array.columns
        }
    }

    /// The element at (r, c): a one-cell reference or a value; a single row or column repeats, and a
    /// position past a larger input's size is `#N/A`, as broadcasting does.
    func element(_ r: Int, _ c: Int) -> Operand {
        if let values { return .value(values.broadcast(r, c)) }
        guard let range else { return .missing }
        let rr = rows == 1 ? 0 : r, cc = columns == 1 ? 0 : c
        guard rr < rows, cc < columns else { return .value(.error(.notAvailable)) }
        let row = range.r1 + Int32(rr), column = range.c1 + Int32(cc)
        return .ref(SheetRange(sheet: range.sheet, r1: row, c1: column, r2: row, c2: column))
    }

    /// Row r, whole (a row of the range, or a 1-row array).
    func row(_ r: Int) throws -> Operand {
        if let range { return .ref(SheetRange(sheet: range.sheet, r1: range.r1 + Int32(r), c1: range.c1, r2: range.r1 + Int32(r), c2: range.c2)) }
        guard let values else { return .missing }
        return .value(.array(CalcArray(rows: 1, columns: columns, values: Array(values.values[(r * columns)..<((r + 1) * columns)]))))
    }

    /// Column c, whole.
    func column(_ c: Int) throws -> Operand {
        if let range { return .ref(SheetRange(sheet: range.sheet, r1: range.r1, c1: range.c1 + Int32(c), r2: range.r2, c2: range.c1 + Int32(c))) }
        guard let values else { return .missing }
        return .value(.array(CalcArray(rows: rows, columns: 1, values: (0..<rows).map { values[$0, c] })))
    }
}

extension Evaluator {
    /// One value of a lambda's result where a cell of the answer goes: a single cell's or a 1×1
    /// array's value; a larger array, or a lambda, is `#CALC!`.
    func element(_ result: Operand) throws -> CalcValue {
        switch result {
        case .value(.array(let a)):
            return a.rows == 1 && a.columns == 1 ? a.values[0] : .error(.calc)
        case .value(let v):
            return v
        case .ref(let r):
            return r.isSingleCell ? try cellValue(r.sheet, r.r1, r.c1) : .error(.calc)
        case .lambda:
            return .error(.calc)
        case .refs:
            return .error(.value)
        case .missing:
            return .number(0)
        }
    }
}
