#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore

/// FORECAST.ETS and its companions (.CONFINT, .SEASONALITY, .STAT): additive triple exponential
/// smoothing (Holt–Winters, AAA) over a timeline of constant step, the step found as the
/// smallest gap (gaps that are multiples of it filled, up to 30 % of the points), duplicates
/// aggregated, monthly dates on one day of the month counted in months. Initial values as in
/// the NIST Engineering Statistics Handbook (6.4.3.5), the smoothing constants by nested
/// interval halving on the one-step mean squared error, as LibreOffice's implementation does.
extension Functions {
    static let forecasting: [FunctionSpec] = [
        raw("FORECAST.ETS", 3, 6, arrays: true) { ev, a in
            try forecastETS(ev, a, values: 1, options: 3) { model, _ in
                try mapTargets(ev, a[0]) { try model.forecast(at: $0) }
            }
        },
        raw("FORECAST.ETS.CONFINT", 3, 7, arrays: true) { ev, a in
            let level = ev.isMissing(a, 3) ? 0.95 : try ev.num(a[3])
            return try forecastETS(ev, a, values: 1, options: 4) { model, _ in
                guard level > 0, level < 1 else { throw fail(.number) }
                return try mapTargets(ev, a[0]) { try model.interval(at: $0, level: level) }
            }
        },
        raw("FORECAST.ETS.SEASONALITY", 2, 4, arrays: true) { ev, a in
            // No season found is 0 here (Microsoft: "If a pattern cannot be detected ... returns zero").
            try forecastETS(ev, a, values: 0, options: 2) { model, _ in .value(.number(model.period > 1 ? Double(model.period) : 0)) }
        },
        raw("FORECAST.ETS.STAT", 3, 6, arrays: true) { ev, a in
            let type = (try ev.num(a[2])).rounded(.towardZero)
            return try forecastETS(ev, a, values: 0, options: 3) { model, _ in
                guard let value = model.statistic(Int(Swift.max(0, Swift.min(type, 99)))) else { throw fail(.number) }
                return number(value)
            }
        },
    ]

    /// Reads values and timeline (at argument `values` and the next), then seasonality,
    /// data completion and aggregation from argument `options`, and builds the model.
    static func forecastETS(_ ev: Evaluator, _ a: [Operand], values: Int, options: Int,
                            _ body: (ExponentialSmoothing, Int) throws -> Operand) throws -> Operand {
        let ys = try numericMatrix(ev, a[values]), xs = try numericMatrix(ev, a[values + 1])
        guard ys.values.count == xs.values.count else { return .value(.error(.notAvailable)) }
        let seasonality = ev.isMissing(a, options) ? 1 : (try ev.num(a[options])).rounded(.towardZero)
        let completion = ev.isMissing(a, options + 1) ? true : (try ev.num(a[options + 1])) != 0
        let aggregation = ev.isMissing(a, options + 2) ? 1 : (try ev.num(a[options + 2])).rounded(.towardZero)
        guard seasonality >= 0, seasonality <= 8760, aggregation >= 1, aggregation <= 7 else { return .value(.error(.number)) }
        let model = try ExponentialSmoothing(x: xs.values, y: ys.values, seasonality: Int(seasonality), completion: completion,
                                             aggregation: Int(aggregation), system: ev.dateSystem)
        return try body(model, 0)
    }

    /// The target argument as one value or an array of them, each mapped.
    static func mapTargets(_ ev: Evaluator, _ op: Operand, _ f: (Double) throws -> Double) throws -> Operand {
        func one(_ v: CalcValue) -> CalcValue {
            do {
                let y = try f(try ev.number(v))
                return y.isFinite ? .number(y) : .error(.number)
            } catch EvalInterrupt.error(let e) {
                return .error(e)
            } catch {
                return .error(.value)
            }
        }
        switch op {
        case .ref(let r) where !r.isSingleCell:
            let m = try ev.matrix(r)
            return .value(.array(CalcArray(rows: m.rows, columns: m.columns, values: m.values.map(one))))
        case .value(.array(let arr)):
            return .value(.array(CalcArray(rows: arr.rows, columns: arr.columns, values: arr.values.map(one))))
        default:
            let v = one(try ev.scalar(op))
            if case .error(let e) = v { throw fail(e) }
            return .value(v)
        }
    }
}

/// Additive Holt–Winters over a regular timeline (or Holt's linear method without a season).
struct ExponentialSmoothing {
    private(set) var x: [Double] = []
    private(set) var y: [Double] = []
    private(set) var step = 0.0
    private(set) var period = 1
    /// Monthly dates: x counts months, and `monthDay` is the day of the month the dates share.
    private var monthDay = 0
    private let system: DateSystem
    private var alpha = 0.0, beta = 0.0, gamma = 0.0
    private var base: [Double] = [], trend: [Double] = [], season: [Double] = [], fitted: [Double] = []
    private var mse = 0.0

    init(x xs: [Double], y ys: [Double], seasonality: Int, completion: Bool, aggregation: Int, system: DateSystem) throws {
        self.system = system
        guard xs.count >= 2 else { throw EvalInterrupt.error(.value) }
        var points = zip(xs, ys).sorted { $0.0 < $1.0 }
        // Dates all on one day of the month step in months.
        if let first = DateSerial.civil(points[0].0, system: system), first.day <= 28,
           points.allSatisfy({ DateSerial.civil($0.0, system: system)?.day == first.day }),
           points.contains(where: { $0.0 - points[0].0 >= 28 }) {
            monthDay = first.day
            points = points.map { p in
                let c = DateSerial.civil(p.0, system: system)!
                return (Double(c.year * 12 + c.month), p.1)
            }
        }
        // Duplicates of x aggregate into one point.
        var merged: [(Double, [Double])] = []
        for p in points {
            if let last = merged.last, last.0 == p.0 { merged[merged.count - 1].1.append(p.1) } else { merged.append((p.0, [p.1])) }
        }
        let aggregated: [(Double, Double)] = merged.map { ($0.0, Self.aggregate($0.1, aggregation)) }
        guard aggregated.count >= 2 else { throw EvalInterrupt.error(.value) }
        var smallest = Double.infinity
        for k in 1..<aggregated.count { smallest = Swift.min(smallest, aggregated[k].0 - aggregated[k - 1].0) }
        step = smallest
        guard step > 0, step.isFinite else { throw EvalInterrupt.error(.number) }
        // A constant step, or gaps that are whole multiples of it (filled in, at most 30 % of the points).
        x = [aggregated[0].0]
        y = [aggregated[0].1]
        var missing = 0
        for k in 1..<aggregated.count {
            let gap = aggregated[k].0 - aggregated[k - 1].0
            let steps = (gap / step).rounded()
            guard Swift.abs(gap - steps * step) <= 1e-9 * Swift.abs(gap) else { throw EvalInterrupt.error(.number) }
            if steps > 1 {
                missing += Int(steps) - 1
                guard Double(missing) <= 0.3 * Double(aggregated.count) else { throw EvalInterrupt.error(.number) }
                let fill = completion ? (aggregated[k].1 + aggregated[k - 1].1) / 2 : 0
                for j in 1..<Int(steps) {
                    x.append(aggregated[k - 1].0 + Double(j) * step)
                    y.append(fill)
                }
            }
            x.append(aggregated[k].0)
            y.append(aggregated[k].1)
        }
        let n = y.count
        if seasonality == 1 {
            period = Self.detectPeriod(y)
        } else {
            period = seasonality == 0 ? 1 : seasonality
        }
        if period > 1 { guard n >= 2 * period else { throw EvalInterrupt.error(.number) } }
        fit()
    }

    static func aggregate(_ v: [Double], _ how: Int) -> Double {
        switch how {
        case 2, 3: return Double(v.count)
        case 4: return v.max() ?? 0
        case 5: return Statistics.median(v) ?? 0
        case 6: return v.min() ?? 0
        case 7: return v.reduce(0, +)
        default: return v.reduce(0, +) / Double(v.count)
        }
    }

    /// The season length: the lag of the highest autocorrelation peak of the series less its
    /// straight-line trend, among lags 2 ... n/2, when that peak stands above the noise level
    /// 2/√n; 1 (no season) otherwise.
    static func detectPeriod(_ y: [Double]) -> Int {
        let n = y.count
        guard n >= 4 else { return 1 }
        let xs = (0..<n).map(Double.init)
        let sample = Functions.PairedSample(x: xs, y: y)
        let slope = sample.slope ?? 0
        let residual = (0..<n).map { y[$0] - (sample.meanY + slope * (Double($0) - sample.meanX)) }
        var total = 0.0
        for r in residual { total += r * r }
        guard total > 1e-20 * Swift.max(1, y.reduce(0) { $0 + $1 * $1 }) else { return 1 }
        let maxLag = n / 2
        var acf = [Double](repeating: 0, count: maxLag + 2)
        for lag in 1...(maxLag + 1) where lag < n {
            var s = 0.0
            for i in lag..<n { s += residual[i] * residual[i - lag] }
            acf[lag] = s / total
        }
        var best = 1
        var bestValue = 2 / Double(n).squareRoot()
        if maxLag >= 2 {
            for lag in 2...maxLag where acf[lag] > bestValue && acf[lag] >= acf[lag - 1] && acf[lag] >= acf[lag + 1] {
                best = lag
                bestValue = acf[lag]
            }
        }
        return best
    }

    // MARK: smoothing

    private mutating func initialise() {
        let n = y.count
        base = [Double](repeating: 0, count: n)
        trend = [Double](repeating: 0, count: n)
        fitted = [Double](repeating: 0, count: n)
        season = [Double](repeating: 0, count: n)
        fitted[0] = y[0]
        let m = period
        if m <= 1 {
            trend[0] = (y[n - 1] - y[0]) / Double(n - 1)
            base[0] = y[0]
            return
        }
        var sum = 0.0
        for i in 0..<m { sum += y[i + m] - y[i] }
        trend[0] = sum / Double(m * m)
        let periods = n / m
        var averages = [Double](repeating: 0, count: periods)
        for p in 0..<periods {
            for j in 0..<m { averages[p] += y[p * m + j] }
            averages[p] /= Double(m)
        }
        for j in 0..<m {
            var s = 0.0
            for p in 0..<periods { s += y[p * m + j] - (averages[p] + (Double(j) - 0.5 * Double(m - 1)) * trend[0]) }
            season[j] = s / Double(periods)
        }
        base[0] = y[0] - season[0]
    }

    /// One pass with the current constants: the one-step forecasts and their mean squared error.
    private mutating func run() {
        let n = y.count, m = period
        for i in 1..<n {
            if m <= 1 {
                base[i] = alpha * y[i] + (1 - alpha) * (base[i - 1] + trend[i - 1])
                trend[i] = beta * (base[i] - base[i - 1]) + (1 - beta) * trend[i - 1]
                fitted[i] = base[i - 1] + trend[i - 1]
            } else {
                let s = i >= m ? i - m : i
                base[i] = alpha * (y[i] - season[s]) + (1 - alpha) * (base[i - 1] + trend[i - 1])
                season[i] = gamma * (y[i] - base[i]) + (1 - gamma) * season[s]
                trend[i] = beta * (base[i] - base[i - 1]) + (1 - beta) * trend[i - 1]
                fitted[i] = base[i - 1] + trend[i - 1] + season[s]
            }
        }
        var e = 0.0
        for i in 1..<n { e += (fitted[i] - y[i]) * (fitted[i] - y[i]) }
        mse = e / Double(n - 1)
    }

    private enum Constant { case alpha, beta, gamma }

    private mutating func set(_ c: Constant, _ v: Double) {
        switch c {
        case .alpha: alpha = v
        case .beta: beta = v
        case .gamma: gamma = v
        }
    }

    /// Interval halving for one constant on [0, 1], the inner constants re-optimised at each
    /// trial (alpha, then the seasonal gamma, then the trend beta innermost).
    private mutating func optimise(_ order: ArraySlice<Constant>) {
        guard let c = order.first else { run(); return }
        let inner = order.dropFirst()
        func trial(_ v: Double) -> Double {
            set(c, v)
            optimise(inner)
            return mse
        }
        var f0 = 0.0, f2 = 1.0, f1 = 0.5
        var e0 = trial(f0), e2 = trial(f2)
        var e1 = trial(f1)
        if e0 == e1 && e1 == e2 { _ = trial(0); return }
        while f2 - f1 > 0.001 {
            if e2 > e0 { f2 = f1; e2 = e1; f1 = (f0 + f1) / 2 } else { f0 = f1; e0 = e1; f1 = (f1 + f2) / 2 }
            e1 = trial(f1)
        }
        if e2 > e0 { if e0 < e1 { _ = trial(f0) } } else if e2 < e1 { _ = trial(f2) }
    }

    private mutating func fit() {
        initialise()
        optimise(period > 1 ? [.alpha, .gamma, .beta] : [.alpha, .beta])
    }

    // MARK: answers

    /// The timeline position of a target date (months for a monthly timeline).
    private func position(_ target: Double) -> Double {
        guard monthDay > 0, let c = DateSerial.civil(target, system: system) else { return target }
        let lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        let leap = c.year % 4 == 0 && (c.year % 100 != 0 || c.year % 400 == 0)
        let days = Double(c.month == 2 && leap ? 29 : lengths[c.month - 1])
        return Double(c.year * 12 + c.month) + Double(c.day - monthDay) / days
    }

    /// The forecast h steps past the last point (h ≥ 0 whole), with the latest seasonal index of
    /// the target's place in the period.
    private func ahead(_ h: Int) -> Double {
        let n = y.count
        var v = base[n - 1] + Double(h) * trend[n - 1]
        if period > 1 { v += h == 0 ? season[n - 1] : season[n - period + (h - 1) % period] }
        return v
    }

    func forecast(at target: Double) throws -> Double {
        let t = position(target)
        guard t >= x[0] else { throw EvalInterrupt.error(.number) }
        let n = y.count
        if t <= x[n - 1] {
            // Within the data: the value there, toward the next one-step forecast between points.
            let k = Int(((t - x[0]) / step).rounded(.down))
            let fraction = (t - x[k]) / step
            if fraction < 0.001 || k + 1 >= n { return y[k] }
            return y[k] + fraction * (fitted[k + 1] - y[k])
        }
        let steps = (t - x[n - 1]) / step
        let h = Int(steps.rounded(.down))
        guard h < 100_000_000 else { throw EvalInterrupt.error(.number) }
        let fraction = steps - Double(h)
        let v = ahead(h)
        return fraction < 0.001 ? v : v + fraction * (ahead(h + 1) - v)
    }

    /// Half the width of the prediction interval at a target (the additive model's forecast
    /// variance, σ²(1 + Σ c_j²) with c_j = α(1 + jβ) + γ at whole seasons).
    func interval(at target: Double, level: Double) throws -> Double {
        let t = position(target)
        let n = y.count
        guard t >= x[n - 1] else { throw EvalInterrupt.error(.number) }
        let h = Swift.max(1, Int(((t - x[n - 1]) / step).rounded(.up)))
        guard h < 1_000_000 else { throw EvalInterrupt.error(.number) }
        var variance = 1.0
        if h > 1 {
            for j in 1..<h {
                var c = alpha * (1 + Double(j) * beta)
                if period > 1 && j % period == 0 { c += gamma }
                variance += c * c
            }
        }
        let p = 0.5 + level / 2
        return SpecialFunctions.normalQuantile(lower: p, upper: 1 - p) * (mse * variance).squareRoot()
    }

    /// FORECAST.ETS.STAT: 1 alpha, 2 beta (trend), 3 gamma (season), 4 MASE, 5 SMAPE, 6 MAE, 7 RMSE, 8 step.
    func statistic(_ type: Int) -> Double? {
        let n = y.count
        var absolute = 0.0, symmetric = 0.0, naive = 0.0
        for i in 1..<n {
            let e = fitted[i] - y[i]
            absolute += Swift.abs(e)
            let d = Swift.abs(fitted[i]) + Swift.abs(y[i])
            if d > 0 { symmetric += Swift.abs(e) / d }
        }
        for i in 2..<Swift.max(n, 2) { naive += Swift.abs(y[i] - y[i - 1]) }
        let count = Double(n - 1)
        switch type {
        case 1: return alpha
        case 2: return beta
        case 3: return gamma
        case 4: return naive > 0 && count > 1 ? absolute / (count * naive / (count - 1)) : nil
        case 5: return symmetric * 2 / count
        case 6: return absolute / count
        case 7: return mse.squareRoot()
        case 8: return step
        default: return nil
        }
    }
}
