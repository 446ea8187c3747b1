
extension Functions {
    /// The pairs of numbers of two same-sized arrays (SUMX2MY2 and kin): #N/A when the sizes differ,
    /// an error in either is thrown, a pair with text, a boolean or an empty cell is skipped.
    static func numberPairs(_ ev: Evaluator, _ a: Operand, _ b: Operand, _ body: (Double, Double) -> Void) throws {
        let x = try ev.array(a), y = try ev.array(b)
        guard x.values.count == y.values.count else { throw EvalInterrupt.error(.notAvailable) }
        for (u, v) in zip(x.values, y.values) {
            if case .error(let e) = u { throw EvalInterrupt.error(e) }
            if case .error(let e) = v { throw EvalInterrupt.error(e) }
            if case .number(let p) = u, case .number(let q) = v { body(p, q) }
        }
    }

    static func pairSum(_ name: String, _ term: @escaping @Sendable (Double, Double) -> Double) -> FunctionSpec {
        raw(name, 2, 2, arrays: true) { ev, a in
            var s = 0.0
            try numberPairs(ev, a[0], a[1]) { s += term($0, $1) }
            return number(s)
        }
    }

    static let sums: [FunctionSpec] = [
        pairSum("SUMX2MY2") { $0 * $0 - $1 * $1 },
        pairSum("SUMX2PY2") { $0 * $0 + $1 * $1 },
        pairSum("SUMXMY2") { ($0 - $1) * ($0 - $1) },
        // SERIESSUM(x, n, m, coefficients): sum of c_i x^(n + i m) (an Analysis ToolPak function:
        // a boolean is #VALUE!; 0 to a power <= 0 is #NUM!; text among the coefficients #VALUE!).
        raw("SERIESSUM", 4, 4, arrays: true) { ev, a in
            let x = try analysisNumber(ev, a[0]), n = try analysisNumber(ev, a[1]), m = try analysisNumber(ev, a[2])
            var s = 0.0
            for (i, c) in try ev.array(a[3]).values.enumerated() {
                let coefficient: Double
                switch c {
                case .number(let v): coefficient = v
                case .empty: coefficient = 0
                case .error(let e): throw EvalInterrupt.error(e)
                default: throw EvalInterrupt.error(.value)
                }
                let p = n + Double(i) * m
                if x == 0 && p <= 0 { throw EvalInterrupt.error(.number) }
                s += coefficient * cPow(x, p)
            }
            return number(s)
        },
        // MUNIT(n): the n x n identity matrix; n truncated, below 1 #VALUE!.
        scalar("MUNIT", 1, 1) { ev, a in
            let n = (try ev.num(a[0])).rounded(.towardZero)
            guard n >= 1 else { return .value(.error(.value)) }
            guard n <= 1e9 else { return .value(.error(.number)) }
            let k = Int(n)
            var values = [CalcValue](repeating: .number(0), count: try ev.arrayCells(k, k))
            for i in 0..<k { values[i * k + i] = .number(1) }
            return .value(.array(CalcArray(rows: k, columns: k, values: values)))
        },
    ]
}
