
extension Functions {
    /// A reciprocal of SIN, COS or TAN as Excel computes it: the argument reduced as SIN reduces it,
    /// #NUM! from 2^27 on, #DIV/0! where the function it inverts is 0.
    static func reciprocal(_ name: String, _ f: @escaping @Sendable (Double) -> Double?) -> FunctionSpec {
        scalar(name, 1, 1) { ev, a in
            let x = try ev.num(a[0])
            guard let y = f(x) else { return .value(.error(.number)) }
            guard y != 0 else { return .value(.error(.divisionByZero)) }
            return number(1 / y)
        }
    }

    static let trigonometry: [FunctionSpec] = [
        reciprocal("COT") { ExcelTrig.tan($0) },
        reciprocal("CSC") { ExcelTrig.sin($0) },
        reciprocal("SEC") { ExcelTrig.cos($0) },
        reciprocal("COTH") { Swift.abs($0) < ExcelTrig.limit ? cTanh($0) : nil },
        reciprocal("CSCH") { Swift.abs($0) < ExcelTrig.limit ? cSinh($0) : nil },
        reciprocal("SECH") { Swift.abs($0) < ExcelTrig.limit ? cCosh($0) : nil },
        unary("ACOT") { Double.pi / 2 - cAtan($0) },
        unary("ACOTH") { Swift.abs($0) <= 1 ? nil : 0.5 * cLog(($0 + 1) / ($0 - 1)) },
        unary("ASINH") { cAsinh($0) },
        unary("ACOSH") { $0 < 1 ? nil : cAcosh($0) },
        unary("ATANH") { Swift.abs($0) >= 1 ? nil : cAtanh($0) },
        // SQRTPI: sqrt(x * pi), #NUM! for a negative x (an Analysis ToolPak function: TRUE is #VALUE!).
        scalar("SQRTPI", 1, 1) { ev, a in
            let x = try analysisNumber(ev, a[0])
            guard x >= 0 else { return .value(.error(.number)) }
            return number((x * Double.pi).squareRoot())
        },
    ]
}
