#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Paired statistics and regression: CORREL, PEARSON, RSQ, SLOPE, INTERCEPT, STEYX, COVAR,
/// COVARIANCE.P/.S, FORECAST(.LINEAR), and the least-squares fits LINEST, LOGEST, TREND and
/// GROWTH, which answer arrays (as MMULT does: an array formula or a spill shows them).
extension Functions {
    static let regression: [FunctionSpec] = [
        raw("CORREL", 2, 2, arrays: true) { ev, a in try paired(ev, a[0], a[1]) { $0.correlation } },
        raw("PEARSON", 2, 2, arrays: true) { ev, a in try paired(ev, a[0], a[1]) { $0.correlation } },
        raw("RSQ", 2, 2, arrays: true) { ev, a in try paired(ev, a[0], a[1]) { s in s.correlation.map { $0 * $0 } } },
        raw("SLOPE", 2, 2, arrays: true) { ev, a in try paired(ev, a[0], a[1]) { $0.slope } },
        raw("INTERCEPT", 2, 2, arrays: true) { ev, a in try paired(ev, a[0], a[1]) { $0.intercept } },
        raw("STEYX", 2, 2, arrays: true) { ev, a in try paired(ev, a[0], a[1]) { $0.standardError } },
        raw("COVAR", 2, 2, arrays: true) { ev, a in try paired(ev, a[0], a[1]) { $0.covariance(sample: false) } },
        raw("COVARIANCE.P", 2, 2, arrays: true) { ev, a in try paired(ev, a[0], a[1]) { $0.covariance(sample: false) } },
        raw("COVARIANCE.S", 2, 2, arrays: true) { ev, a in try paired(ev, a[0], a[1]) { $0.covariance(sample: true) } },
        raw("FORECAST", 3, 3, arrays: true) { ev, a in try forecast(ev, a) },
        raw("FORECAST.LINEAR", 3, 3, arrays: true) { ev, a in try forecast(ev, a) },
        raw("LINEST", 1, 4, arrays: true) { ev, a in try linest(ev, a, logarithmic: false) },
        raw("LOGEST", 1, 4, arrays: true) { ev, a in try linest(ev, a, logarithmic: true) },
        raw("TREND", 1, 4, arrays: true) { ev, a in try trend(ev, a, logarithmic: false) },
        raw("GROWTH", 1, 4, arrays: true) { ev, a in try trend(ev, a, logarithmic: true) },
    ]

    /// The sums of a paired sample (y on x): means and centred sums of squares and products.
    struct PairedSample {
        let n: Double
        let meanX: Double, meanY: Double
        let sxx: Double, syy: Double, sxy: Double

        init(x: [Double], y: [Double]) {
            n = Double(x.count)
            meanX = x.isEmpty ? 0 : Statistics.mean(x)
            meanY = y.isEmpty ? 0 : Statistics.mean(y)
            var a = 0.0, b = 0.0, c = 0.0
            for k in 0..<x.count {
                let dx = x[k] - meanX, dy = y[k] - meanY
                a += dx * dx; b += dy * dy; c += dx * dy
            }
            sxx = a; syy = b; sxy = c
        }

        var correlation: Double? { n >= 1 && sxx > 0 && syy > 0 ? sxy / (sxx * syy).squareRoot() : nil }
        var slope: Double? { n >= 1 && sxx > 0 ? sxy / sxx : nil }
        var intercept: Double? { slope.map { meanY - $0 * meanX } }
        var standardError: Double? {
            guard n >= 3, sxx > 0 else { return nil }
            return Swift.max(0, (syy - sxy * sxy / sxx) / (n - 2)).squareRoot()
        }
        func covariance(sample: Bool) -> Double? {
            guard n >= (sample ? 2 : 1) else { return nil }
            return sxy / (sample ? n - 1 : n)
        }
    }

    /// The numbers of two array arguments taken in pairs: as many cells in each (`#N/A`
    /// otherwise), a pair dropped when either cell is not a number, the first error returned.
    static func numberPairs(_ ev: Evaluator, _ first: Operand, _ second: Operand) throws -> (x: [Double], y: [Double]) {
        let a = try flatValues(ev, first), b = try flatValues(ev, second)
        guard ev.cellCount(first) == ev.cellCount(second) else { throw fail(.notAvailable) }
        var xs: [Double] = [], ys: [Double] = []
        for k in 0..<Swift.max(a.count, b.count) {
            let p = k < a.count ? a[k] : .empty, q = k < b.count ? b[k] : .empty
            if case .error = p { if let e = sampleError(p) { throw fail(e) }; continue }
            if let e = sampleError(q) { throw fail(e) }
            if case .number(let u) = p, case .number(let v) = q { xs.append(u); ys.append(v) }
        }
        return (xs, ys)
    }

    /// The error a cell of a sample throws, none for `#NULL!`: Excel's paired and sample
    /// statistics (CORREL ... STEYX, COVARIANCE, CHISQ.TEST, F.TEST, T.TEST) pass over it, as if
    /// its error code 0 were no error, and a pair whose first cell is `#NULL!` is passed over
    /// whole (calc-suite formulas__test STATISTICAL column AD: `INTERCEPT(O55:S55,K55:O55)`,
    /// pairs (`#NULL!`, `#VALUE!`), (`#NUM!`, `#N/A`), ..., is `#NUM!`).
    static func sampleError(_ v: CalcValue) -> ExcelError? {
        if case .error(let e) = v, e != .null { return e }
        return nil
    }

    /// A statistic of (y, x) pairs read as CORREL reads them; nil from the statistic is `#DIV/0!`.
    static func paired(_ ev: Evaluator, _ y: Operand, _ x: Operand, _ statistic: (PairedSample) -> Double?) throws -> Operand {
        let (ys, xs) = try numberPairs(ev, y, x)
        guard let value = statistic(PairedSample(x: xs, y: ys)) else { return .value(.error(.divisionByZero)) }
        return number(value)
    }

    /// FORECAST(x, known_y's, known_x's): the fitted line at x (x may be an array).
    static func forecast(_ ev: Evaluator, _ a: [Operand]) throws -> Operand {
        if case .value(.array) = a[0] {} else if case .ref(let r) = a[0], !r.isSingleCell, ev.arrayMode {} else { try ev.scalarsBeforeArrays(a[0]) }
        // A known_y or known_x that is one empty cell named alone is #VALUE!, where a range of
        // empty cells is #DIV/0! (calc-suite formulas__test STATISTICAL!V42 against Y42).
        for known in a[1...2] {
            if case .ref(let r) = known, r.isSingleCell, try ev.cellValue(r.sheet, r.r1, r.c1) == .empty { throw fail(.value) }
        }
        let (ys, xs) = try numberPairs(ev, a[1], a[2])
        let sample = PairedSample(x: xs, y: ys)
        func at(_ v: CalcValue) -> CalcValue {
            do {
                let x = try ev.number(v)
                guard let slope = sample.slope, let b = sample.intercept else { return .error(.divisionByZero) }
                let y = b + slope * x
                return y.isFinite ? .number(y) : .error(.number)
            } catch EvalInterrupt.error(let e) {
                return .error(e)
            } catch {
                return .error(.value)
            }
        }
        switch a[0] {
        case .value(.array(let arr)):
            return .value(.array(CalcArray(rows: arr.rows, columns: arr.columns, values: arr.values.map(at))))
        case .ref(let r) where !r.isSingleCell && ev.arrayMode:
            let arr = try ev.matrix(r)
            return .value(.array(CalcArray(rows: arr.rows, columns: arr.columns, values: arr.values.map(at))))
        default:
            return .value(at(try ev.scalar(a[0])))
        }
    }

    // MARK: least squares

    /// The data of a fit: y's observations, the x variables (one column each), and their shape.
    struct FitData {
        var y: [Double]
        var x: [[Double]]  // x[variable][observation]
        /// y is one column (observations down), else one row (across).
        var byColumns: Bool
        var rows: Int
        var columns: Int
    }

    /// An argument of LINEST, LOGEST, TREND or GROWTH: an error in it is `#VALUE!`, whichever it
    /// is (calc-suite formulas__test STATISTICAL rows 51, 58, 59, 113: `LINEST(L58:N58,N58:P58,0,0)`
    /// over `#N/A`, `#DIV/0!`, ... and `LINEST(...,#N/A,0)` are all `#VALUE!`).
    static func fitInput<T>(_ read: () throws -> T) throws -> T {
        do { return try read() } catch EvalInterrupt.error { throw fail(.value) }
    }

    /// known_y's and known_x's as LINEST reads them: y a column (x's columns are the variables)
    /// or a row (x's rows are), or a rectangle with an x of the same shape; x omitted is 1, 2, 3, ...
    static func fitData(_ ev: Evaluator, _ a: [Operand], logarithmic: Bool) throws -> FitData {
        var y = try fitInput { try numericMatrix(ev, a[0]) }
        if logarithmic {
            guard y.values.allSatisfy({ $0 > 0 }) else { throw fail(.number) }
            y.values = y.values.map { log($0) }
        }
        let n = y.values.count
        let byColumns = y.columns == 1
        guard !ev.isMissing(a, 1) else {
            return FitData(y: y.values, x: [(1...n).map(Double.init)], byColumns: byColumns, rows: y.rows, columns: y.columns)
        }
        let x = try fitInput { try numericMatrix(ev, a[1]) }
        if y.columns == 1 && y.rows > 1 || (y.rows == 1 && y.columns == 1 && x.rows == 1) {
            guard x.rows == y.rows else { throw fail(.reference) }
            let vars = (0..<x.columns).map { j in (0..<x.rows).map { x[$0, j] } }
            return FitData(y: y.values, x: vars, byColumns: true, rows: y.rows, columns: 1)
        }
        if y.rows == 1 {
            guard x.columns == y.columns else { throw fail(.reference) }
            let vars = (0..<x.rows).map { i in (0..<x.columns).map { x[i, $0] } }
            return FitData(y: y.values, x: vars, byColumns: false, rows: 1, columns: y.columns)
        }
        guard x.rows == y.rows, x.columns == y.columns else { throw fail(.reference) }
        return FitData(y: y.values, x: [x.values], byColumns: byColumns, rows: y.rows, columns: y.columns)
    }

    /// LINEST and LOGEST: coefficients m_k ... m_1, b, and with `stats` the four rows below them
    /// (standard errors; r², the standard error of y; F, the degrees of freedom; the regression
    /// and residual sums of squares), `#N/A` where Excel leaves a cell without a statistic.
    static func linest(_ ev: Evaluator, _ a: [Operand], logarithmic: Bool) throws -> Operand {
        let data = try fitData(ev, a, logarithmic: logarithmic)
        let constant = ev.isMissing(a, 2) ? true : try fitInput { try ev.flag(a[2]) }
        let stats = ev.isMissing(a, 3) ? false : try fitInput { try ev.flag(a[3]) }
        guard let fit = LeastSquares.fit(y: data.y, x: data.x, constant: constant) else { return .value(.error(.number)) }
        let k = data.x.count
        let width = k + 1
        var out = [CalcValue](repeating: .error(.notAvailable), count: (stats ? 5 : 1) * width)
        func put(_ row: Int, _ column: Int, _ value: Double?) {
            guard let value else { out[row * width + column] = .error(.notAvailable); return }
            out[row * width + column] = value.isFinite ? .number(value) : .error(.number)
        }
        for j in 0..<k {
            let m = fit.coefficients[k - 1 - j]
            put(0, j, logarithmic ? exp(m) : m)
        }
        put(0, k, logarithmic ? exp(fit.intercept) : fit.intercept)
        if stats {
            for j in 0..<k { put(1, j, fit.standardErrors[k - 1 - j]) }
            put(1, k, constant ? fit.interceptError : nil)
            put(2, 0, fit.rSquared)
            put(2, 1, fit.standardErrorOfY)
            put(3, 0, fit.fStatistic)
            put(3, 1, fit.degreesOfFreedom)
            put(4, 0, fit.regressionSumOfSquares)
            put(4, 1, fit.residualSumOfSquares)
        }
        return .value(.array(CalcArray(rows: stats ? 5 : 1, columns: width, values: out)))
    }

    /// TREND and GROWTH: the fitted values at new_x's (known_x's when omitted), in new_x's shape.
    static func trend(_ ev: Evaluator, _ a: [Operand], logarithmic: Bool) throws -> Operand {
        let data = try fitData(ev, a, logarithmic: logarithmic)
        let constant = ev.isMissing(a, 3) ? true : try fitInput { try ev.flag(a[3]) }
        guard let fit = LeastSquares.fit(y: data.y, x: data.x, constant: constant) else { return .value(.error(.number)) }
        let k = data.x.count
        // The new points: one per row (or column) of new_x, k values each.
        var points: [[Double]] = []
        var rows: Int, columns: Int
        if ev.isMissing(a, 2) {
            let n = data.y.count
            points = (0..<n).map { i in (0..<k).map { data.x[$0][i] } }
            rows = data.rows; columns = data.columns
        } else {
            let x = try fitInput { try numericMatrix(ev, a[2]) }
            if k == 1 {
                points = x.values.map { [$0] }
                rows = x.rows; columns = x.columns
            } else if data.byColumns {
                guard x.columns == k else { throw fail(.reference) }
                points = (0..<x.rows).map { i in (0..<k).map { x[i, $0] } }
                rows = x.rows; columns = 1
            } else {
                guard x.rows == k else { throw fail(.reference) }
                points = (0..<x.columns).map { j in (0..<k).map { x[$0, j] } }
                rows = 1; columns = x.columns
            }
        }
        let values: [CalcValue] = points.map { p in
            var y = fit.intercept
            for j in 0..<k { y += fit.coefficients[j] * p[j] }
            if logarithmic { y = exp(y) }
            return y.isFinite ? .number(y) : .error(.number)
        }
        return .value(.array(CalcArray(rows: rows, columns: columns, values: values)))
    }
}

/// Ordinary least squares by Householder QR on the centred data (the intercept then comes from
/// the means), dropping an x column that depends on the ones before it as Excel's LINEST does
/// (its coefficient and standard error are 0).
enum LeastSquares {
    struct Fit {
        var coefficients: [Double]
        var intercept: Double
        var standardErrors: [Double]
        var interceptError: Double?
        var rSquared: Double
        var standardErrorOfY: Double?
        var fStatistic: Double?
        var degreesOfFreedom: Double
        var regressionSumOfSquares: Double
        var residualSumOfSquares: Double
    }

    static func fit(y: [Double], x: [[Double]], constant: Bool) -> Fit? {
        let n = y.count, k = x.count
        guard n > 0, k > 0, x.allSatisfy({ $0.count == n }) else { return nil }
        let meanY = constant ? Statistics.mean(y) : 0
        let means = x.map { constant ? Statistics.mean($0) : 0 }
        // Columns of the (centred) design matrix, and the (centred) response.
        var a = (0..<k).map { j in x[j].map { $0 - means[j] } }
        var r = y.map { $0 - meanY }
        var kept = [Bool](repeating: true, count: k)
        var diagonal = [Double](repeating: 0, count: k)
        // Householder reflections column by column, applied to the later columns and to r.
        var row = 0
        for j in 0..<k {
            guard row < n else { kept[j] = false; continue }
            var norm = 0.0
            for i in row..<n { norm += a[j][i] * a[j][i] }
            norm = norm.squareRoot()
            var original = 0.0
            for i in 0..<n { original += (x[j][i] - means[j]) * (x[j][i] - means[j]) }
            if norm <= 1e-13 * Swift.max(original.squareRoot(), 1e-300) || norm == 0 { kept[j] = false; continue }
            let alpha = a[j][row] > 0 ? -norm : norm
            var v = [Double](repeating: 0, count: n)
            for i in row..<n { v[i] = a[j][i] }
            v[row] -= alpha
            var vv = 0.0
            for i in row..<n { vv += v[i] * v[i] }
            if vv > 0 {
                for c in j..<k where c == j || kept[c] {
                    var dot = 0.0
                    for i in row..<n { dot += v[i] * a[c][i] }
                    let f = 2 * dot / vv
                    for i in row..<n { a[c][i] -= f * v[i] }
                }
                var dot = 0.0
                for i in row..<n { dot += v[i] * r[i] }
                let f = 2 * dot / vv
                for i in row..<n { r[i] -= f * v[i] }
            }
            diagonal[j] = a[j][row]
            // Record the pivot row of column j in its own entry.
            a[j][row] = alpha
            row += 1
        }
        // Back substitution on the kept columns: R β = Qᵀ r.
        let used = (0..<k).filter { kept[$0] }
        let p = used.count
        var beta = [Double](repeating: 0, count: k)
        var rInverse = [[Double]](repeating: [Double](repeating: 0, count: p), count: p)
        // R's entries: column used[c], row index c.
        func R(_ i: Int, _ c: Int) -> Double { a[used[c]][i] }
        for c in stride(from: p - 1, through: 0, by: -1) {
            var s = r[c]
            for c2 in (c + 1)..<Swift.max(p, c + 1) { s -= R(c, c2) * beta[used[c2]] }
            beta[used[c]] = s / R(c, c)
        }
        // R⁻¹ for the standard errors: (XᵀX)⁻¹ = R⁻¹ R⁻ᵀ.
        for c in stride(from: p - 1, through: 0, by: -1) {
            rInverse[c][c] = 1 / R(c, c)
            for c2 in (c + 1)..<Swift.max(p, c + 1) {
                var s = 0.0
                for m in (c + 1)...c2 { s += R(c, m) * rInverse[m][c2] }
                rInverse[c][c2] = -s / R(c, c)
            }
        }
        var residual = 0.0
        for i in p..<Swift.max(n, p) { residual += r[i] * r[i] }
        // Sums of squares on the original scale: total about the mean (or about 0 without a constant).
        var total = 0.0
        for v in y { total += (v - meanY) * (v - meanY) }
        let regression = Swift.max(0, total - residual)
        let df = Double(n - p - (constant ? 1 : 0))
        let seY: Double? = df > 0 ? (residual / df).squareRoot() : nil
        var errors = [Double](repeating: 0, count: k)
        if let seY {
            for c in 0..<p {
                var s = 0.0
                for m in c..<p { s += rInverse[c][m] * rInverse[c][m] }
                errors[used[c]] = seY * s.squareRoot()
            }
        }
        var intercept = meanY
        for j in 0..<k { intercept -= beta[j] * means[j] }
        var interceptError: Double?
        if constant, let seY {
            // Var(b) = σ² (1/n + x̄ᵀ (XcᵀXc)⁻¹ x̄), with (XcᵀXc)⁻¹ = R⁻¹R⁻ᵀ over the kept columns.
            var quadratic = 0.0
            for c in 0..<p {
                var s = 0.0
                for m in c..<p { s += rInverse[c][m] * means[used[m]] }
                quadratic += s * s
            }
            interceptError = seY * (1 / Double(n) + quadratic).squareRoot()
        }
        let rSquared = total > 0 ? regression / total : (residual == 0 ? 1 : 0)
        let f: Double? = df > 0 && p > 0 && residual > 0 ? (regression / Double(p)) / (residual / df) : nil
        return Fit(coefficients: beta, intercept: intercept, standardErrors: errors, interceptError: interceptError,
                   rSquared: rSquared, standardErrorOfY: seY, fStatistic: f, degreesOfFreedom: df,
                   regressionSumOfSquares: regression, residualSumOfSquares: residual)
    }
}
