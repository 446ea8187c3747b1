
extension Functions {
    /// The math and trigonometry functions of this folder (the older ones: Functions+Math.swift,
    /// Functions+Trig.swift, Functions+Matrix.swift, Functions+Aggregates.swift).
    static let mathFamily: [FunctionSpec] = combinatorics + trigonometry + romanNumerals + radix + sums
}
