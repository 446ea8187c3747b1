extension Functions {
    static let cashFlows: [FunctionSpec] = [
        raw("NPV", 2, 255) { ev, a in
            let rate = try ev.num(a[0])
            guard rate != -1 else { return .value(.error(.divisionByZero)) }
            return number(npv(rate, try ev.numbers(Array(a.dropFirst()), rowMajor: true), fromPeriod: 1))
        },
        raw("IRR", 1, 2) { ev, a in
            // An error among the values is #VALUE!, whichever it is; an error value given as the
            // values, or as the guess, passes on (calc-suite formulas__test FINANCIAL!Z26:AF26 and
            // Z27, AA27:AF27).
            if case .value(.error(let e)) = a[0] { return .value(.error(e)) }
            let values: [Double]
            do { values = try rangeFlows(ev, a[0]) } catch EvalInterrupt.error { return .value(.error(.value)) }
            let guess = try ev.num(a, 1, default: 0.1)
            guard guess > -1 else { return .value(.error(.value)) }
            guard values.contains(where: { $0 > 0 }), values.contains(where: { $0 < 0 }) else { return .value(.error(.number)) }
            guard let r = rateOfReturn(guess: guess, { npv($0, values, fromPeriod: 0) }, derivative: { npvDerivative($0, values) }) else {
                return .value(.error(.number))
            }
            return number(r)
        },
        raw("MIRR", 3, 3) { ev, a in
            let values = try rangeFlows(ev, a[0])
            let finance = try ev.num(a[1]), reinvest = try ev.num(a[2])
            guard values.count > 1 else { return .value(.error(.divisionByZero)) }
            var positive = 0.0, negative = 0.0, reinvestFactor = 1.0, financeFactor = 1.0
            for v in values {
                if v > 0 { positive += v * reinvestFactor } else if v < 0 { negative += v * financeFactor }
                reinvestFactor /= 1 + reinvest
                financeFactor /= 1 + finance
            }
            guard negative != 0 else { return .value(.error(.divisionByZero)) }
            let n = Double(values.count)
            let ratio = -positive / negative * cPow(1 + reinvest, n - 1)
            return number(cPow(ratio, 1 / (n - 1)) - 1)
        },
        // XNPV and XIRR came from the Analysis ToolPak: a boolean rate or guess is #VALUE!, a range
        // for one in an array formula too; a rate of 0 or less is #NUM!; the guess is read before
        // the cash flows (calc-suite formulas__test FINANCIAL!Y54:Z54, S54, AH55, S56:AH56).
        raw("XNPV", 3, 3) { ev, a in
            let rate = try analysisNumber(ev, a[0])
            let (values, days) = try datedFlows(ev, a[1], a[2], skipEmpty: false)
            guard rate > 0 else { return .value(.error(.number)) }
            return number(xnpv(rate, values, days))
        },
        raw("XIRR", 2, 3) { ev, a in
            let guess = ev.isMissing(a, 2) ? 0.1 : try analysisNumber(ev, a[2])
            let (values, days) = try datedFlows(ev, a[0], a[1], skipEmpty: true)
            guard guess > -1 else { return .value(.error(.number)) }
            guard values.contains(where: { $0 > 0 }), values.contains(where: { $0 < 0 }) else { return .value(.error(.number)) }
            guard let r = rateOfReturn(guess: guess, { xnpv($0, values, days) }, derivative: { xnpvDerivative($0, values, days) }) else {
                return .value(.error(.number))
            }
            return number(r)
        },
    ]

    /// The values argument of IRR and MIRR, read as a range row by row: its text, booleans and
    /// empty cells are skipped, a single value's too.
    static func rangeFlows(_ ev: Evaluator, _ op: Operand) throws -> [Double] {
        if case .value(let v) = op {
            if case .array = v {} else { return try ev.numbers([.value(.array(CalcArray(rows: 1, columns: 1, values: [v])))]) }
        }
        return try ev.numbers([op], rowMajor: true)
    }

    /// Σ values[k] / (1 + rate)^(k + fromPeriod).
    static func npv(_ rate: Double, _ values: [Double], fromPeriod: Int) -> Double {
        var s = 0.0
        for (k, x) in values.enumerated() { s += x / growth(1 + rate, Double(k + fromPeriod)) }
        return s
    }

    static func npvDerivative(_ rate: Double, _ values: [Double]) -> Double {
        var s = 0.0
        for (k, x) in values.enumerated() where k > 0 { s -= Double(k) * x / growth(1 + rate, Double(k + 1)) }
        return s
    }

    /// The values and day offsets from the first date of XNPV/XIRR: as many numbers as dates
    /// (#NUM! otherwise), text or booleans in the values #NUM! for XNPV and #VALUE! for XIRR (whose
    /// empty values drop out with their dates), no date before the first (#NUM!).
    static func datedFlows(_ ev: Evaluator, _ valuesOp: Operand, _ datesOp: Operand, skipEmpty: Bool) throws -> ([Double], [Double]) {
        let values = try cells(ev, valuesOp), dates = try cells(ev, datesOp)
        guard values.count == dates.count, !values.isEmpty else { throw EvalInterrupt.error(.number) }
        var flows: [Double] = [], days: [Double] = []
        for (v, d) in zip(values, dates) {
            // A pair's date error comes first (XIRR({-10,#N/A,1},{3,#REF!,7}) is #REF!: FINANCIAL!U54).
            if case .error(let e) = d { throw EvalInterrupt.error(e) }
            switch v {
            case .number(let x): flows.append(x)
            case .error(let e): throw EvalInterrupt.error(e)
            case .empty where skipEmpty: continue
            case .text, .boolean: throw EvalInterrupt.error(skipEmpty ? .value : .number)
            default: throw EvalInterrupt.error(.number)
            }
            switch d {
            case .number(let x): days.append(x.rounded(.down))
            case .error(let e): throw EvalInterrupt.error(e)
            case .text, .boolean: throw EvalInterrupt.error(.value)
            default: throw EvalInterrupt.error(.number)
            }
        }
        guard let first = days.first, first >= 0, days.allSatisfy({ $0 >= first }) else { throw EvalInterrupt.error(.number) }
        return (flows, days.map { $0 - first })
    }

    /// Every cell of a range or array argument, row by row, empty ones included.
    static func cells(_ ev: Evaluator, _ op: Operand) throws -> [CalcValue] {
        switch op {
        case .ref(let r):
            guard r.rows * r.columns <= 1_000_000 else { throw EvalInterrupt.error(.number) }
            var out: [CalcValue] = []
            out.reserveCapacity(r.rows * r.columns)
            for row in r.r1...r.r2 { for col in r.c1...r.c2 { out.append(try ev.cellValue(r.sheet, row, col)) } }
            return out
        case .refs: throw EvalInterrupt.error(.value)
        default: return try ev.array(op).values
        }
    }

    static func xnpv(_ rate: Double, _ values: [Double], _ days: [Double]) -> Double {
        var s = 0.0
        for (x, d) in zip(values, days) { s += x / cPow(1 + rate, d / 365) }
        return s
    }

    static func xnpvDerivative(_ rate: Double, _ values: [Double], _ days: [Double]) -> Double {
        var s = 0.0
        for (x, d) in zip(values, days) where d > 0 { s -= d / 365 * x / cPow(1 + rate, d / 365 + 1) }
        return s
    }

    /// The rate where `f` is zero, from the guess by Newton's method, else the root above -1 found
    /// by bracketing; nil when there is none.
    static func rateOfReturn(guess: Double, _ f: (Double) -> Double, derivative: (Double) -> Double) -> Double? {
        var x = guess
        for _ in 0..<100 {
            let y = f(x), d = derivative(x)
            guard y.isFinite, d.isFinite, d != 0 else { break }
            let next = x - y / d
            guard next.isFinite, next > -1 else { break }
            if Swift.abs(next - x) <= 1e-15 * Swift.max(1, Swift.abs(next)) { return next }
            x = next
        }
        return bracketedRoot(f)
    }

    /// A root of `f` above -1 by bisection on the first sign change of a scan.
    static func bracketedRoot(_ f: (Double) -> Double) -> Double? {
        var grid: [Double] = [-0.999999, -0.99, -0.9, -0.75, -0.5, -0.25, 0]
        var x = 0.05
        while x < 1e6 { grid.append(x); x *= 1.6 }
        var lo = grid[0], flo = f(lo)
        for hi in grid.dropFirst() {
            let fhi = f(hi)
            if flo.isFinite, fhi.isFinite, flo * fhi <= 0 {
                var a = lo, b = hi, fa = flo
                for _ in 0..<200 {
                    let m = (a + b) / 2, fm = f(m)
                    if fm == 0 || b - a <= 1e-16 * Swift.max(1, Swift.abs(m)) { return m }
                    if (fa < 0) == (fm < 0) { a = m; fa = fm } else { b = m }
                }
                return (a + b) / 2
            }
            lo = hi
            flo = fhi
        }
        return nil
    }
}
