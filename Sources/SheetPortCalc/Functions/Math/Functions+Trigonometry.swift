
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
        // The hyperbolic ones have no argument limit: COTH(9999999999999) is 1, CSCH and SECH 0
        // (calc-suite MATH_AND_TRIGONOMETRY__TRIGONOMETRIC COTH_CSCH_SECH!B7:D7).
        reciprocal("COTH") { cTanh($0) },
        reciprocal("CSCH") { cSinh($0) },
        reciprocal("SECH") { cCosh($0) },
        // Through 1/x, as Excel: ACOT(9999999999999) and ACOTH of it are 1.0000000000001E-13 (ACOT_ACOTH!B13:C13).
        unary("ACOT") { $0 == 0 ? Double.pi / 2 : ($0 > 0 ? cAtan(1 / $0) : Double.pi + cAtan(1 / $0)) },
        unary("ACOTH") { Swift.abs($0) <= 1 ? nil : cAtanh(1 / $0) },
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
