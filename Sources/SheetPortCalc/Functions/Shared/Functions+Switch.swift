extension Functions {
    /// An optional argument that is 0 (the default) or 1, read as whether it is 1; #VALUE! for any
    /// other value. REGEXTEST's, REGEXEXTRACT's and REGEXREPLACE's case_sensitivity (1 ignores
    /// case), VALUETOTEXT's and ARRAYTOTEXT's format (1 strict).
    static func switchArgument(_ ev: Evaluator, _ a: [Operand], _ k: Int) throws -> Bool {
        let x = try ev.int(a, k, default: 0)
        guard x == 0 || x == 1 else { throw EvalInterrupt.error(.value) }
        return x == 1
    }
}
