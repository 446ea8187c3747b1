/// Excel's iterative calculation, as a workbook's `calcPr` turns it on (`iterate="1"`): circular
/// references are computed by repeating the calculation up to `maxIterations` times
/// (`iterateCount`, 100 by default, 32,767 at most in Excel's options) or until no value changes by
/// more than `maxChange` (`iterateDelta`, 0.001 by default).
public struct IterativeCalculation: Sendable, Equatable {
    /// The most repetitions.
    public var maxIterations: Int
    /// A repetition that changes no number by more than this ends the calculation.
    public var maxChange: Double

    /// The settings of `calcPr`; out-of-range or missing values are Excel's defaults (a count
    /// outside 1-32,767 is held to it; a change that is negative or not a number is 0.001).
    public init(iterateCount: Int? = nil, iterateDelta: Double? = nil) {
        maxIterations = min(max(iterateCount ?? 100, 1), 32_767)
        if let delta = iterateDelta, delta.isFinite, delta >= 0 { maxChange = delta } else { maxChange = 0.001 }
    }
}
