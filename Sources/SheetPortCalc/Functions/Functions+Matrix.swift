/// Matrix functions (MMULT, MINVERSE, MDETERM) and the dynamic-array pickers CHOOSECOLS and CHOOSEROWS.
extension Functions {
    /// CHOOSECOLS (`columns`) and CHOOSEROWS: the array's columns or rows that the other
    /// arguments pick, in their order (`pickIndexes`), the other axis whole.
    static func choose(_ ev: Evaluator, _ a: [Operand], columns: Bool) throws -> Operand {
        let arr = try ev.pickable(a[0])
        let picks = try pickIndexes(ev, Array(a.dropFirst()), count: columns ? arr.columns : arr.rows)
        let rows = columns ? arr.rows : picks.count, width = columns ? picks.count : arr.columns
        var out: [CalcValue] = []
        out.reserveCapacity(try ev.arrayCells(rows, width))
        for r in 0..<rows { for c in 0..<width { out.append(columns ? arr[r, picks[c]] : arr[picks[r], c]) } }
        return .value(.array(CalcArray(rows: rows, columns: width, values: out)))
    }

    /// The largest matrix MINVERSE and MDETERM factor (n³ work; Excel's own limit is lower in practice).
    static let maxMatrixOrder = 512
    /// The most elements a matrix result may hold.
    static let maxMatrixElements = 4_000_000

    static let matrix: [FunctionSpec] = [
        raw("MMULT", 2, 2, arrays: true) { ev, a in
            let x = try numericMatrix(ev, a[0]), y = try numericMatrix(ev, a[1])
            guard x.columns == y.rows else { return .value(.error(.value)) }
            guard x.rows * y.columns <= maxMatrixElements, x.rows * y.columns * x.columns <= 512 * 512 * 512 else {
                return .value(.error(.number))
            }
            var out = [CalcValue](repeating: .empty, count: x.rows * y.columns)
            for i in 0..<x.rows {
                for j in 0..<y.columns {
                    var s = 0.0
                    for k in 0..<x.columns { s += x[i, k] * y[k, j] }
                    guard s.isFinite else { return .value(.error(.number)) }
                    out[i * y.columns + j] = .number(s == 0 ? 0 : s)
                }
            }
            return .value(.array(CalcArray(rows: x.rows, columns: y.columns, values: out)))
        },
        raw("MDETERM", 1, 1, arrays: true) { ev, a in
            let m = try numericMatrix(ev, a[0])
            guard m.rows == m.columns else { return .value(.error(.value)) }
            guard m.rows <= maxMatrixOrder else { return .value(.error(.number)) }
            // Rounded to 15 digits as Excel shows it: MDETERM({1,2;3,4}) is -2, not -1.9999999999999998.
            return number(Coercion.round15(LinearAlgebra.determinant(m)))
        },
        raw("MINVERSE", 1, 1, arrays: true) { ev, a in
            let m = try numericMatrix(ev, a[0])
            guard m.rows == m.columns else { return .value(.error(.value)) }
            guard m.rows <= maxMatrixOrder else { return .value(.error(.number)) }
            guard let inverse = LinearAlgebra.inverse(m) else { return .value(.error(.number)) }
            let values = inverse.map { x -> CalcValue in
                let r = Coercion.round15(x)
                return .number(r == 0 ? 0 : r)
            }
            return .value(.array(CalcArray(rows: m.rows, columns: m.rows, values: values)))
        },
        raw("CHOOSECOLS", 2, 255, arrays: true) { ev, a in try choose(ev, a, columns: true) },
        raw("CHOOSEROWS", 2, 255, arrays: true) { ev, a in try choose(ev, a, columns: false) },
    ]

    /// A dense matrix of numbers.
    struct NumericMatrix {
        let rows: Int
        let columns: Int
        var values: [Double]
        subscript(r: Int, c: Int) -> Double {
            get { values[r * columns + c] }
            set { values[r * columns + c] = newValue }
        }
    }

    /// An argument as a matrix of numbers: every element must be a number (an empty cell, text or a
    /// boolean is `#VALUE!`, as Excel's matrix functions answer); an error element is that error.
    static func numericMatrix(_ ev: Evaluator, _ op: Operand) throws -> NumericMatrix {
        let arr: CalcArray
        switch op {
        case .ref(let r):
            guard r.rows * r.columns <= maxMatrixElements else { throw fail(.value) }
            arr = try ev.matrix(r)
            // The range reaches past the stored cells: those are empty, which is #VALUE!.
            guard arr.rows == r.rows, arr.columns == r.columns else { throw fail(.value) }
        case .missing, .refs: throw fail(.value)
        default: arr = try ev.array(op)
        }
        var values: [Double] = []
        values.reserveCapacity(arr.values.count)
        for v in arr.values {
            switch v {
            case .number(let x): values.append(x)
            case .error(let e): throw fail(e)
            default: throw fail(.value)
            }
        }
        return NumericMatrix(rows: arr.rows, columns: arr.columns, values: values)
    }

    /// CHOOSECOLS/CHOOSEROWS indexes (1-based, negative from the end; arrays of indexes flatten) as
    /// zero-based positions; zero or beyond `count` is `#VALUE!`.
    static func pickIndexes(_ ev: Evaluator, _ args: [Operand], count: Int) throws -> [Int] {
        var picks: [Int] = []
        for op in args {
            let values: [CalcValue]
            switch op {
            case .missing, .lambda: throw fail(.value)
            case .ref, .refs, .value(.array):
                // A row or a column of indexes; a block of rows and columns is #VALUE! (calc-suite
                // formulas__test LOOKUP!AH6: CHOOSECOLS({...},D6:E7), while D6:D7 and C6:D6 pick).
                let given = try ev.array(op)
                guard given.rows == 1 || given.columns == 1 else { throw fail(.value) }
                values = given.values
            case .value(let v): values = [v]
            }
            for v in values {
                let x = try ev.number(v)
                guard x.isFinite, Swift.abs(x) < 1e9 else { throw fail(.value) }
                let k = Int(x.rounded(.towardZero))
                guard k != 0, Swift.abs(k) <= count else { throw fail(.value) }
                picks.append(k > 0 ? k - 1 : count + k)
            }
        }
        guard !picks.isEmpty, picks.count <= maxMatrixElements else { throw fail(.value) }
        return picks
    }
}

extension Evaluator {
    /// An argument of CHOOSECOLS/CHOOSEROWS (and the dynamic-array functions) as an array: a range
    /// keeps its own width and height (empty cells included); whole columns and rows are cut at the
    /// stored extent.
    func pickable(_ op: Operand) throws -> CalcArray {
        guard case .ref(let r) = op else { return try array(op) }
        return try fullMatrix(r, limit: Functions.maxMatrixElements)
    }

    /// A range's values at its own size (a trailing blank row counts: `FILTER(A2:A12,A2:A12>10)`
    /// over six filled rows compares eleven), whole columns and rows cut at the stored extent; past
    /// `limit` cells #NUM!.
    func fullMatrix(_ r: SheetRange, limit: Int) throws -> CalcArray {
        let c = clipped(r)
        let rows = r.rows > Int(maxRowIndex) ? c.rows : r.rows
        let columns = r.columns > Int(maxColumnIndex) ? c.columns : r.columns
        guard rows * columns <= limit else { throw EvalInterrupt.error(.number) }
        let inner = try matrix(r)
        if inner.rows == rows, inner.columns == columns { return inner }
        var values = [CalcValue](repeating: .empty, count: try arrayCells(rows, columns))
        for i in 0..<Swift.min(rows, inner.rows) {
            for j in 0..<Swift.min(columns, inner.columns) { values[i * columns + j] = inner[i, j] }
        }
        return CalcArray(rows: rows, columns: columns, values: values)
    }
}

/// Gaussian elimination with partial pivoting, as LAPACK's getrf (Excel's MDETERM of
/// {1,2,3;4,5,6;7,8,9} is 6.66133814775094E-16, the value this elimination gives, not 0).
enum LinearAlgebra {
    static func determinant(_ m: Functions.NumericMatrix) -> Double {
        var a = m
        let n = a.rows
        var det = 1.0
        for k in 0..<n {
            var p = k
            for i in (k + 1)..<Swift.max(n, k + 1) where Swift.abs(a[i, k]) > Swift.abs(a[p, k]) { p = i }
            if a[p, k] == 0 { return 0 }
            if p != k {
                for j in 0..<n { let t = a[k, j]; a[k, j] = a[p, j]; a[p, j] = t }
                det = -det
            }
            let pivot = a[k, k]
            det *= pivot
            for i in (k + 1)..<Swift.max(n, k + 1) {
                let f = a[i, k] / pivot
                if f == 0 { continue }
                for j in (k + 1)..<n { a[i, j] -= f * a[k, j] }
            }
        }
        return det
    }

    /// The inverse by Gauss-Jordan with partial pivoting, row by row; nil when singular (a zero pivot).
    static func inverse(_ m: Functions.NumericMatrix) -> [Double]? {
        let n = m.rows
        var a = m
        var inv = Functions.NumericMatrix(rows: n, columns: n, values: [Double](repeating: 0, count: n * n))
        for i in 0..<n { inv[i, i] = 1 }
        for k in 0..<n {
            var p = k
            for i in (k + 1)..<Swift.max(n, k + 1) where Swift.abs(a[i, k]) > Swift.abs(a[p, k]) { p = i }
            if a[p, k] == 0 { return nil }
            if p != k {
                for j in 0..<n {
                    var t = a[k, j]; a[k, j] = a[p, j]; a[p, j] = t
                    t = inv[k, j]; inv[k, j] = inv[p, j]; inv[p, j] = t
                }
            }
            let pivot = a[k, k]
            for j in 0..<n { a[k, j] /= pivot; inv[k, j] /= pivot }
            for i in 0..<n where i != k {
                let f = a[i, k]
                if f == 0 { continue }
                for j in 0..<n { a[i, j] -= f * a[k, j]; inv[i, j] -= f * inv[k, j] }
            }
        }
        guard inv.values.allSatisfy(\.isFinite) else { return nil }
        return inv.values
    }
}
