
/// The number systems of BIN2DEC and kin: at most 10 digits, the 10-digit numbers with the top
/// digit's high bit set being negative (two's complement over 10, 30 and 40 bits).
enum NumberSystem: Int, Sendable {
    case binary = 2
    case octal = 8
    case hexadecimal = 16

    /// The bits of the 10 digits.
    var bits: Int {
        switch self {
        case .binary: return 10
        case .octal: return 30
        case .hexadecimal: return 40
        }
    }
    var smallest: Int64 { -(Int64(1) << Int64(bits - 1)) }
    var largest: Int64 { (Int64(1) << Int64(bits - 1)) - 1 }

    /// The value of the digits (upper or lower case), or nil: more than 10 digits or a digit out of the radix.
    func value(_ text: String) -> Int64? {
        guard text.count <= 10 else { return nil }
        var x: Int64 = 0
        for ch in text.uppercased() {
            guard let d = Functions.radixDigits.firstIndex(of: ch), d < rawValue else { return nil }
            x = x * Int64(rawValue) + Int64(d)
        }
        if text.count == 10, x > largest { x -= Int64(1) << Int64(bits) }
        return x
    }

    /// The digits of a value in range, a negative one as 10 digits of two's complement; `places`
    /// pads a non-negative one with zeros (#NUM! when it holds fewer digits than needed).
    func digits(_ x: Int64, places: Int?) throws -> String {
        guard x >= smallest, x <= largest else { throw EvalInterrupt.error(.number) }
        if x < 0 { return Functions.digits(of: Double(x + (Int64(1) << Int64(bits))), radix: rawValue) }
        let s = Functions.digits(of: Double(x), radix: rawValue)
        guard let places else { return s }
        guard places >= s.count, places <= 10 else { throw EvalInterrupt.error(.number) }
        return String(repeating: "0", count: places - s.count) + s
    }
}

extension Functions {
    /// The number argument of BIN2DEC and kin as Excel reads it: its text (a number as General shows
    /// it, so 1.5 or 1E+11 are no digits); a boolean is #VALUE!.
    static func numberSystemText(_ ev: Evaluator, _ op: Operand) throws -> String {
        let v = try ev.checked(op)
        if case .boolean = v { throw EvalInterrupt.error(.value) }
        return try ev.text(v)
    }

    /// The places argument: truncated, #NUM! outside 1...10 (a negative number too, whose places
    /// are otherwise ignored: calc-suite ENGINEERING__NUMBER_SYSTEMS Binary!D14), #VALUE! when not a number.
    static func places(_ ev: Evaluator, _ a: [Operand], _ k: Int) throws -> Int? {
        guard !ev.isMissing(a, k) else { return nil }
        let x = try analysisNumber(ev, a[k]).rounded(.towardZero)
        guard x >= 1, x <= 10 else { throw EvalInterrupt.error(.number) }
        return Int(x)
    }

    /// X2DEC.
    static func toDecimal(_ name: String, _ from: NumberSystem) -> FunctionSpec {
        scalar(name, 1, 1) { ev, a in
            guard let x = from.value(try numberSystemText(ev, a[0])) else { return .value(.error(.number)) }
            return .value(.number(Double(x)))
        }
    }

    /// DEC2X: a number truncated to a whole one.
    static func fromDecimal(_ name: String, _ to: NumberSystem) -> FunctionSpec {
        scalar(name, 1, 2) { ev, a in
            let x = try analysisNumber(ev, a[0]).rounded(.towardZero)
            let p = try places(ev, a, 1)
            guard x >= Double(to.smallest), x <= Double(to.largest) else { return .value(.error(.number)) }
            return .value(.text(try to.digits(Int64(x), places: p)))
        }
    }

    /// X2Y between two systems of digits.
    static func between(_ name: String, _ from: NumberSystem, _ to: NumberSystem) -> FunctionSpec {
        scalar(name, 1, 2) { ev, a in
            guard let x = from.value(try numberSystemText(ev, a[0])) else { return .value(.error(.number)) }
            let p = try places(ev, a, 1)
            return .value(.text(try to.digits(x, places: p)))
        }
    }

    static let baseConversion: [FunctionSpec] = [
        toDecimal("BIN2DEC", .binary), toDecimal("OCT2DEC", .octal), toDecimal("HEX2DEC", .hexadecimal),
        fromDecimal("DEC2BIN", .binary), fromDecimal("DEC2OCT", .octal), fromDecimal("DEC2HEX", .hexadecimal),
        between("BIN2OCT", .binary, .octal), between("BIN2HEX", .binary, .hexadecimal),
        between("OCT2BIN", .octal, .binary), between("OCT2HEX", .octal, .hexadecimal),
        between("HEX2BIN", .hexadecimal, .binary), between("HEX2OCT", .hexadecimal, .octal),
    ]
}
