/// A function body: the evaluator (for reading operands) and the arguments.
typealias FunctionImpl = @Sendable (Evaluator, [Operand]) throws -> Operand

/// One built-in function: its name, arity, volatility, how arguments are taken, and its body.
struct FunctionSpec: Sendable {
    /// The upper-cased name without storage prefixes.
    var name: String
    let minArgs: Int
    let maxArgs: Int
    /// Recomputed on every recalculation.
    let isVolatile: Bool
    /// Ranges inside its arguments evaluate as arrays (SUMPRODUCT, INDEX, MATCH, ...).
    let arrayArguments: Bool
    /// A scalar function: array arguments apply it element by element (except the raw ones).
    let lifts: Bool
    /// Bit k set: argument k is passed as it is (a reference stays one).
    let rawMask: UInt64
    let impl: FunctionImpl

    @inline(__always) func takesRaw(_ k: Int) -> Bool { rawMask & (1 << UInt64(min(k, 63))) != 0 }
}

/// Builders for the registry's tables.
enum Functions {
    /// A scalar function (arguments lifted over arrays); `raw` lists the arguments taken as they are.
    static func scalar(_ name: String, _ minArgs: Int, _ maxArgs: Int, raw: [Int] = [], volatile: Bool = false,
                       _ impl: @escaping FunctionImpl) -> FunctionSpec {
        var mask: UInt64 = 0
        for k in raw { mask |= 1 << UInt64(min(k, 63)) }
        return FunctionSpec(name: name, minArgs: minArgs, maxArgs: maxArgs, isVolatile: volatile, arrayArguments: false,
                            lifts: true, rawMask: mask, impl: impl)
    }

    /// A function taking its arguments as they are (references, arrays).
    static func raw(_ name: String, _ minArgs: Int, _ maxArgs: Int, arrays: Bool = false, volatile: Bool = false,
                    _ impl: @escaping FunctionImpl) -> FunctionSpec {
        FunctionSpec(name: name, minArgs: minArgs, maxArgs: maxArgs, isVolatile: volatile, arrayArguments: arrays,
                     lifts: false, rawMask: ~0, impl: impl)
    }

    /// Copies of functions of `specs` under second names: `names` maps each to the name it copies.
    static func renamed(_ names: KeyValuePairs<String, String>, in specs: [FunctionSpec]) -> [FunctionSpec] {
        names.map { name, original in
            guard var spec = specs.first(where: { $0.name == original }) else {
                preconditionFailure("\(name) is a second name of \(original), which is not a function here")
            }
            spec.name = name
            return spec
        }
    }

    /// A number result, `#NUM!` when not finite; a subnormal one is 0, as Excel keeps none (EXP(-745)).
    static func number(_ x: Double) -> Operand {
        x.isFinite ? .value(.number(Swift.abs(x) < Double.leastNormalMagnitude ? 0 : x)) : .value(.error(.number))
    }

    static func fail(_ e: ExcelError) -> EvalInterrupt { .error(e) }
}

/// The table of built-in functions, by name.
enum FunctionRegistry {
    static let specs: [FunctionSpec] = Functions.math + Functions.aggregates + Functions.statistical + Functions.distributions
        + Functions.descriptive + Functions.regression + Functions.hypothesisTests + Functions.forecasting + Functions.logical
        + Functions.text + Functions.numberValue + Functions.dateTime + Functions.lookup + Functions.information + Functions.financial
        + Functions.matrix + Functions.cell + Functions.mathFamily + Functions.engineering
        + Functions.database + Functions.textFamily + Functions.dateTimeFamily + Functions.formulaInformation
        + Functions.spillRange + Functions.pivotData
        + Functions.dynamicArrays + Functions.lambdaHelpers + Functions.trimRange + Functions.grouping

    static let byName: [String: Int32] = {
        var d: [String: Int32] = [:]
        for (k, s) in specs.enumerated() { d[s.name] = Int32(k) }
        return d
    }()

    /// SUBTOTAL and AGGREGATE, whose cells SUBTOTAL and AGGREGATE pass over.
    static let subtotals: Set<Int32> = Set(["SUBTOTAL", "AGGREGATE"].compactMap { byName[$0] })

    /// The functions that read a reference's formula, never its value.
    static let formulaReaders: Set<Int32> = Set(["FORMULATEXT", "ISFORMULA"].compactMap { byName[$0] })

    /// The functions that came from Excel's Analysis ToolPak add-in (and the complex and error
    /// functions Excel 2013 added beside them): a multi-cell range where they take one value is
    /// `#VALUE!` even in an array formula (calc-suite formulas__test: `{=ERF(C21:I21)}`,
    /// `{=EDATE(I9,C9:G9)}`, `{=IMABS(C29:Q29)}`, `{=YEARFRAC(C27:E27,D27:F27,E27:G27)}` are all `#VALUE!`).
    static let analysisToolPak: Set<String> = [
        "ACCRINT", "ACCRINTM", "AMORDEGRC", "AMORLINC", "BESSELI", "BESSELJ", "BESSELK", "BESSELY", "BIN2DEC", "BIN2HEX",
        "BIN2OCT", "COMPLEX", "CONVERT", "COUPDAYBS", "COUPDAYS", "COUPDAYSNC", "COUPNCD", "COUPNUM", "COUPPCD", "CUMIPMT",
        "CUMPRINC", "DEC2BIN", "DEC2HEX", "DEC2OCT", "DELTA", "DISC", "DOLLARDE", "DOLLARFR", "DURATION", "EDATE", "EFFECT",
        "EOMONTH", "ERF", "ERF.PRECISE", "ERFC", "ERFC.PRECISE", "FACTDOUBLE", "GESTEP", "HEX2BIN", "HEX2DEC", "HEX2OCT",
        "IMABS", "IMAGINARY", "IMARGUMENT", "IMCONJUGATE", "IMCOS", "IMCOSH", "IMCOT", "IMCSC", "IMCSCH", "IMDIV", "IMEXP",
        "IMLN", "IMLOG10", "IMLOG2", "IMPOWER", "IMREAL", "IMSEC", "IMSECH", "IMSIN", "IMSINH", "IMSQRT", "IMSUB", "IMTAN",
        "INTRATE", "ISEVEN", "ISODD", "MDURATION", "MROUND", "NOMINAL", "OCT2BIN", "OCT2DEC", "OCT2HEX", "ODDFPRICE",
        "ODDFYIELD", "ODDLPRICE", "ODDLYIELD", "PRICE", "PRICEDISC", "PRICEMAT", "QUOTIENT", "RECEIVED", "SQRTPI",
        "TBILLEQ", "TBILLPRICE", "TBILLYIELD", "WEEKNUM", "XIRR", "XNPV", "YEARFRAC", "YIELD", "YIELDDISC", "YIELDMAT",
    ]

    /// Functions the parser compiles into instructions of their own rather than calls (`FormulaParser+Lambda.swift`).
    static let compiledForms = ["LAMBDA", "LET"]

    /// The registry index of a function (upper-cased name without prefixes).
    static func index(of name: String) -> Int32? { byName[name] }
}
