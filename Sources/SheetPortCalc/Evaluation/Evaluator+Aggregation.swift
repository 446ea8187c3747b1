/// How aggregates read text and booleans found in ranges and arrays.
enum RangeValues {
    /// SUM, AVERAGE, MIN, ...: skip them.
    case numbersOnly
    /// AVERAGEA, MAXA, MINA: text counts 0, booleans 1 or 0.
    case textAsZero
}

extension Evaluator {
    /// Calls `body` with each number of the arguments as SUM reads them: direct arguments are
    /// coerced (text that is no number is `#VALUE!`), ranges and arrays give only their numbers
    /// (or, with `.textAsZero`, text as 0 and booleans as 1/0); errors are thrown. `rowMajor`
    /// reads ranges row by row (the order cash flows are discounted in), else column by column.
    func forEachNumber(_ args: [Operand], _ mode: RangeValues = .numbersOnly, rowMajor: Bool = false,
                       _ body: (Double) throws -> Void) throws {
        func fromRange(_ v: CalcValue) throws {
            switch v {
            case .number(let x): try body(x)
            case .error(let e): throw EvalInterrupt.error(e)
            case .text: if mode == .textAsZero { try body(0) }
            case .boolean(let b): if mode == .textAsZero { try body(b ? 1 : 0) }
            default: break
            }
        }
        for a in args {
            switch a {
            case .missing: continue
            case .value(.array(let arr)): for v in arr.values { try fromRange(v) }
            case .value(let v):
                if case .empty = v { continue }
                try body(try number(v))
            case .ref(let r):
                if rowMajor { try forEachCellRowMajor(r) { _, _, v in try fromRange(v) } } else { try forEachCell(r) { _, _, v in try fromRange(v) } }
            case .refs(let rs):
                for r in rs {
                    if rowMajor { try forEachCellRowMajor(r) { _, _, v in try fromRange(v) } } else { try forEachCell(r) { _, _, v in try fromRange(v) } }
                }
            case .lambda: throw EvalInterrupt.error(.value)
            }
        }
    }

    /// Excel reads a function's scalar arguments before its arrays: with errors in both, the
    /// scalar's wins (`LARGE(A1:A9,#N/A)` with `#VALUE!` in A1:A9 is `#N/A`; calc-suite
    /// formulas__test STATISTICAL rows 57, 78, 87, 95, 121), in argument order. Throws the first
    /// error among `scalars`; the function then reads its arguments as before.
    func scalarsBeforeArrays(_ scalars: Operand...) throws {
        for op in scalars { if case .error(let e) = try scalar(op) { throw EvalInterrupt.error(e) } }
    }

    /// The numbers of the arguments, in order.
    func numbers(_ args: [Operand], _ mode: RangeValues = .numbersOnly, rowMajor: Bool = false) throws -> [Double] {
        var out: [Double] = []
        try forEachNumber(args, mode, rowMajor: rowMajor) { out.append($0) }
        return out
    }

    /// Calls `body` with every value of the arguments (ranges: stored cells only, row by row).
    func forEachValue(_ args: [Operand], rowMajor: Bool = false, includeEmpty: Bool = false, _ body: (CalcValue, Bool) throws -> Void) throws {
        for a in args {
            switch a {
            case .missing: try body(.empty, true)
            case .value(.array(let arr)): for v in arr.values { try body(v, false) }
            case .value(let v): try body(v, true)
            case .ref(let r) where includeEmpty:
                // Every cell up to the stored extent, row by row (TEXTJOIN keeps empty ones).
                let c = clipped(r)
                for row in c.r1...c.r2 { for col in c.c1...c.c2 { try body(try cellValue(c.sheet, row, col), false) } }
            case .ref(let r):
                if rowMajor { try forEachCellRowMajor(r) { _, _, v in try body(v, false) } } else { try forEachCell(r) { _, _, v in try body(v, false) } }
            case .refs(let rs):
                for r in rs { try forEachCell(r) { _, _, v in try body(v, false) } }
            case .lambda: throw EvalInterrupt.error(.value)
            }
        }
    }

    /// The number of cells an operand covers (ranges by their size, arrays by their elements).
    func cellCount(_ op: Operand) -> Int {
        switch op {
        case .ref(let r): return r.rows * r.columns
        case .refs(let rs): return rs.reduce(0) { $0 + $1.rows * $1.columns }
        case .value(.array(let a)): return a.values.count
        default: return 1
        }
    }
}
