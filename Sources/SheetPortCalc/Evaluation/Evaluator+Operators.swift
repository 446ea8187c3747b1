extension Evaluator {
    /// An operator on arrays past the limits (`arrayCells`) is that error as a value, as a
    /// function's is, so IFERROR and the cells around it see it.
    func unary(_ op: UnaryOperator, _ x: Operand) throws -> Operand {
        do { return try unaryOperand(op, x) } catch EvalInterrupt.error(let e) { return .value(.error(e)) }
    }

    func unaryOperand(_ op: UnaryOperator, _ x: Operand) throws -> Operand {
        let v = try liftable(x)
        if case .value(.array(let a)) = v {
            try arrayCells(a.rows, a.columns)
            return .value(.array(CalcArray(rows: a.rows, columns: a.columns, values: a.values.map { unaryValue(op, $0) })))
        }
        if case .value(let s) = v { return .value(unaryValue(op, s)) }
        return .value(unaryValue(op, try scalar(v)))
    }

    func unaryValue(_ op: UnaryOperator, _ v: CalcValue) -> CalcValue {
        if case .error = v { return v }
        if op == .plus { return v }
        guard let x = try? number(v) else {
            if case .text = v { return .error(.value) }
            return .error(.value)
        }
        switch op {
        case .negate: return .number(x == 0 ? 0 : -x)
        case .percent: return .number(x / 100)
        case .plus: return v
        }
    }

    func binary(_ op: BinaryOperator, _ a: Operand, _ b: Operand) throws -> Operand {
        switch op {
        case .range: return rangeOperator(a, b)
        case .intersect: return intersectOperator(a, b)
        default: break
        }
        do { return try arithmetic(op, a, b) } catch EvalInterrupt.error(let e) { return .value(.error(e)) }
    }

    /// A binary operator other than `:` and space, element by element over arrays.
    func arithmetic(_ op: BinaryOperator, _ a: Operand, _ b: Operand) throws -> Operand {
        let x = try liftable(a), y = try liftable(b)
        var xa: CalcArray?, ya: CalcArray?
        if case .value(.array(let arr)) = x { xa = arr }
        if case .value(.array(let arr)) = y { ya = arr }
        if xa == nil && ya == nil {
            let v = binaryValue(op, try scalar(x), try scalar(y))
            if case .text(let t) = v { try charge(bytes: t.utf8.count) }
            return .value(v)
        }
        let xs = numeric(op, try scalar(x)), ys = numeric(op, try scalar(y))
        let rows = max(xa?.rows ?? 1, ya?.rows ?? 1)
        let cols = max(xa?.columns ?? 1, ya?.columns ?? 1)
        var out: [CalcValue] = []
        out.reserveCapacity(try arrayCells(rows, cols))
        for r in 0..<rows {
            for c in 0..<cols {
                let v = binaryValue(op, xa?.broadcast(r, c) ?? xs, ya?.broadcast(r, c) ?? ys)
                if case .text(let t) = v { try charge(bytes: t.utf8.count) }
                out.append(v)
            }
        }
        return .value(.array(CalcArray(rows: rows, columns: cols, values: out)))
    }

    /// A scalar text operand of an arithmetic operator, read as a number once rather than once per
    /// element it is broadcast over (a 32,767-character text against a 44,000-cell range was
    /// 1.4 billion character reads: the calc-bombs fuzz target's 93-second input). The same result:
    /// a text that is no number is `#VALUE!` wherever it meets an element.
    func numeric(_ op: BinaryOperator, _ v: CalcValue) -> CalcValue {
        guard case .text = v else { return v }
        switch op {
        case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual, .concat: return v
        default: return (try? number(v)).map(CalcValue.number) ?? .error(.value)
        }
    }

    func binaryValue(_ op: BinaryOperator, _ a: CalcValue, _ b: CalcValue) -> CalcValue {
        switch op {
        case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual:
            if case .error = a { return a }
            if case .error = b { return b }
            let c = Compare.values(a, b)
            switch op {
            case .equal: return .boolean(c == 0)
            case .notEqual: return .boolean(c != 0)
            case .less: return .boolean(c < 0)
            case .lessEqual: return .boolean(c <= 0)
            case .greater: return .boolean(c > 0)
            default: return .boolean(c >= 0)
            }
        case .concat:
            // Measured before joining: a text over Excel's 32,767 characters is #VALUE!.
            do {
                let x = try text(a), y = try text(b)
                return CalcLimits.fits(x, y) ? .text(x + y) : .error(.value)
            } catch EvalInterrupt.error(let e) { return .error(e) } catch { return .error(.value) }
        default:
            // Left to right: the left operand's error or failed conversion comes first.
            if case .error = a { return a }
            guard let x = try? number(a) else { return .error(.value) }
            if case .error = b { return b }
            guard let y = try? number(b) else { return .error(.value) }
            return Arithmetic.apply(op, x, y)
        }
    }

    /// Whether the range operator at `position` joins a reference to a reference naming a sheet the
    /// engine does not hold (`A2:'[2]MISSING'!A2`): two sheets, `#VALUE!` as for two held ones, where
    /// the missing sheet's reference alone is `#REF!` (calc-suite formulas__test CORE!P17:P18).
    /// Only operands of one instruction are looked at (the stored forms of such formulas).
    func spansSheetsNotHeld(_ code: [Instruction], before position: Int, _ start: Int, _ a: Operand, _ b: Operand) -> Bool {
        func notHeld(_ k: Int) -> Bool {
            guard k >= start else { return false }
            switch code[k] {
            case .cell(_, let name?), .area(_, let name?): return engine.sheetSpan(name, home: sheet) == nil
            default: return false
            }
        }
        func isReference(_ k: Int) -> Bool {
            guard k >= start else { return false }
            switch code[k] {
            case .cell, .area: return true
            default: return false
            }
        }
        if case .ref = a, notHeld(position - 1) { return true }
        if case .ref = b, isReference(position - 1), notHeld(position - 2) { return true }
        return false
    }

    func rangeOperator(_ a: Operand, _ b: Operand) -> Operand {
        guard case .ref(let x) = a, case .ref(let y) = b else {
            if case .value(.error(let e)) = a { return .value(.error(e)) }
            if case .value(.error(let e)) = b { return .value(.error(e)) }
            return .value(.error(.value))
        }
        guard x.sheet == y.sheet else { return .value(.error(.value)) }
        return .ref(SheetRange(sheet: x.sheet, r1: min(x.r1, y.r1), c1: min(x.c1, y.c1), r2: max(x.r2, y.r2), c2: max(x.c2, y.c2)))
    }

    /// `a b`: the cells both hold. A union meets the other side area by area, keeping each
    /// non-empty piece, repeats included (calc-suite formulas__test: `AREAS(((F4:G4,G4:I4,F6:G6,
    /// G6:I6) G3:G11))` is 4, `SUM(E3:G4 (B2:E5,G2:H5))` sums E3:E4 and G3:G4); nothing in common
    /// is `#NULL!`.
    func intersectOperator(_ a: Operand, _ b: Operand) -> Operand {
        func areas(_ op: Operand) -> [SheetRange]? {
            switch op {
            case .ref(let r): return [r]
            case .refs(let rs): return rs
            default: return nil
            }
        }
        guard let xs = areas(a), let ys = areas(b) else {
            if case .value(.error(let e)) = a { return .value(.error(e)) }
            if case .value(.error(let e)) = b { return .value(.error(e)) }
            return .value(.error(.value))
        }
        var pieces: [SheetRange] = []
        for x in xs {
            for y in ys {
                if let r = x.intersection(y) { pieces.append(r) }
            }
        }
        guard let first = pieces.first else { return .value(.error(.null)) }
        return pieces.count == 1 ? .ref(first) : .refs(pieces)
    }
}

/// Excel's arithmetic on numbers.
enum Arithmetic {
    static func apply(_ op: BinaryOperator, _ x: Double, _ y: Double) -> CalcValue {
        let r: Double
        switch op {
        case .add: r = snap(x + y, x, y)
        case .subtract: r = snap(x - y, x, -y)
        case .multiply: r = x * y
        case .divide:
            guard y != 0 else { return .error(.divisionByZero) }
            r = x / y
        case .power: return power(x, y)
        default: return .error(.value)
        }
        guard r.isFinite else { return .error(.number) }
        return .number(r == 0 ? 0 : r)
    }

    /// Excel returns 0 when a sum cancels to within the last bits of its operands.
    @inline(__always) static func snap(_ r: Double, _ x: Double, _ y: Double) -> Double {
        if r != 0, (x > 0) != (y > 0), Swift.abs(r) < max(Swift.abs(x), Swift.abs(y)) * 1e-15 { return 0 }
        return r
    }

    static func power(_ x: Double, _ y: Double) -> CalcValue {
        if x == 0 && y == 0 { return .error(.number) }
        if x == 0 && y < 0 { return .error(.divisionByZero) }
        if x < 0 && y != y.rounded() {
            // Odd roots of negative numbers (1/3) are allowed by Excel.
            let inv = 1 / y
            if inv == inv.rounded(), Int(inv) % 2 != 0 { return .number(-cPow(-x, y)) }
            return .error(.number)
        }
        let r = cPow(x, y)
        guard r.isFinite else { return .error(.number) }
        return .number(r)
    }
}

/// Excel's ordering of values: numbers < text < booleans; text case-insensitive; empty as 0, "" or FALSE.
enum Compare {
    static func rank(_ v: CalcValue) -> Int {
        switch v {
        case .number, .empty: return 0
        case .text: return 1
        case .boolean: return 2
        case .error: return 3
        case .array: return 4
        }
    }

    /// -1, 0 or 1.
    static func values(_ a0: CalcValue, _ b0: CalcValue) -> Int {
        var a = a0, b = b0
        if case .array(let arr) = a { a = arr.values.first ?? .empty }
        if case .array(let arr) = b { b = arr.values.first ?? .empty }
        if case .empty = a {
            switch b {
            case .text: a = .text("")
            case .boolean: a = .boolean(false)
            default: a = .number(0)
            }
        }
        if case .empty = b {
            switch a {
            case .text: b = .text("")
            case .boolean: b = .boolean(false)
            default: b = .number(0)
            }
        }
        switch (a, b) {
        case (.number(let x), .number(let y)):
            if x == y { return 0 }
            // Equal to 15 significant digits counts as equal.
            if Swift.abs(x - y) <= Swift.max(Swift.abs(x), Swift.abs(y)) * 1e-15 && Coercion.round15(x) == Coercion.round15(y) { return 0 }
            return x < y ? -1 : 1
        case (.text(let x), .text(let y)):
            return text(x, y)
        case (.boolean(let x), .boolean(let y)):
            return x == y ? 0 : (!x ? -1 : 1)
        case (.error(let x), .error(let y)):
            return x == y ? 0 : (x.typeNumber < y.typeNumber ? -1 : 1)
        default:
            let ra = rank(a), rb = rank(b)
            return ra == rb ? 0 : (ra < rb ? -1 : 1)
        }
    }

    /// Case-insensitive text order.
    static func text(_ x: String, _ y: String) -> Int {
        let a = x.lowercased(), b = y.lowercased()
        if a == b { return 0 }
        return a < b ? -1 : 1
    }
}
