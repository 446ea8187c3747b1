
/// A complex number of the IM functions, written as Excel writes it: `3+4i`, `-2.5j`, `i`, `7`.
struct ComplexNumber: Sendable, Equatable {
    var re: Double
    var im: Double
    /// "i" or "j"; nil when the text named none (a real number takes the other's, else "i").
    var suffix: Character?

    init(_ re: Double, _ im: Double, suffix: Character? = nil) {
        self.re = re
        self.im = im
        self.suffix = suffix
    }

    /// Parses Excel's complex text: `[±]a`, `[±][b]i`, `[±]a±[b]i` (or `j`); nil when it is none.
    init?(text: String) {
        let u = Array(text.utf8)
        var k = 0
        func sign() -> Double {
            if k < u.count, u[k] == UInt8(ascii: "+") { k += 1; return 1 }
            if k < u.count, u[k] == UInt8(ascii: "-") { k += 1; return -1 }
            return 0
        }
        func unsignedNumber() -> Double? {
            let start = k
            var digits = false
            while k < u.count, (48...57).contains(u[k]) { k += 1; digits = true }
            if k < u.count, u[k] == UInt8(ascii: ".") {
                k += 1
                while k < u.count, (48...57).contains(u[k]) { k += 1; digits = true }
            }
            guard digits else { k = start; return nil }
            if k < u.count, u[k] == UInt8(ascii: "e") || u[k] == UInt8(ascii: "E") {
                var e = k + 1
                if e < u.count, u[e] == UInt8(ascii: "+") || u[e] == UInt8(ascii: "-") { e += 1 }
                let digitsStart = e
                while e < u.count, (48...57).contains(u[e]) { e += 1 }
                if e > digitsStart { k = e }
            }
            return Double(String(decoding: u[start..<k], as: UTF8.self))
        }
        func suffixHere() -> Character? {
            guard k < u.count, u[k] == UInt8(ascii: "i") || u[k] == UInt8(ascii: "j") else { return nil }
            k += 1
            return Character(Unicode.Scalar(u[k - 1]))
        }
        if u.isEmpty { self.init(0, 0); return }
        let s1 = sign()
        let a = unsignedNumber()
        if let sfx = suffixHere() {
            guard k == u.count else { return nil }
            self.init(0, (s1 == 0 ? 1 : s1) * (a ?? 1), suffix: sfx)
            return
        }
        guard let a else { return nil }
        let re = (s1 == 0 ? 1 : s1) * a
        if k == u.count { self.init(re, 0); return }
        let s2 = sign()
        guard s2 != 0 else { return nil }
        let b = unsignedNumber() ?? 1
        guard let sfx = suffixHere(), k == u.count else { return nil }
        self.init(re, s2 * b, suffix: sfx)
    }

    /// Excel's text: parts to 15 significant digits, written out in full up to 21 characters
    /// (`0.000000000000000001`, then `1E-20`: calc-suite ENGINEERING__COMPLEXs rows 16-19;
    /// `0.0000692442674613868`: formulas__test ENGINEERING!S35), longer ones in scientific form
    /// (`1.28233995888454E-06`: S37), an
    /// imaginary part that is 1 to 15 digits without its 1 (`3.82126757337684E-22-j`: R35).
    var text: String {
        let sfx = String(suffix ?? "i")
        func part(_ x: Double) -> String {
            let general = Coercion.text(x)
            let sign = x < 0 ? "-" : ""
            guard general.contains("E") || general.count - sign.count > 21 else { return general }
            let (digits, exponent) = Coercion.significantDigits(x, 15)
            var plain: String
            if exponent <= 0 {
                plain = "0." + String(repeating: "0", count: -exponent) + digits
            } else {
                plain = digits + String(repeating: "0", count: Swift.max(0, exponent - digits.count))
            }
            if plain.count <= 21 { return sign + plain }
            if general.contains("E") { return general }
            let power = exponent - 1
            let mantissa = String(digits.prefix(1)) + (digits.count > 1 ? "." + digits.dropFirst() : "")
            return sign + mantissa + "E" + (power < 0 ? "-" : "+") + (Swift.abs(power) < 10 ? "0" : "") + String(Swift.abs(power))
        }
        if im == 0 { return part(re) }
        let magnitude = part(Swift.abs(im))
        let imaginary = magnitude == "1" ? "" : magnitude
        if re == 0 { return (im < 0 ? "-" : "") + imaginary + sfx }
        return part(re) + (im < 0 ? "-" : "+") + imaginary + sfx
    }

    var isZero: Bool { re == 0 && im == 0 }
    var modulus: Double { cHypot(re, im) }
    var argument: Double { cAtan2(im, re) }

    static func + (a: Self, b: Self) -> Self { Self(a.re + b.re, a.im + b.im) }
    static func - (a: Self, b: Self) -> Self { Self(a.re - b.re, a.im - b.im) }
    static func * (a: Self, b: Self) -> Self { Self(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re) }
    static func / (a: Self, b: Self) -> Self {
        let d = b.re * b.re + b.im * b.im
        return Self((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d)
    }

    var sin: Self { Self(cSin(re) * cCosh(im), cCos(re) * cSinh(im)) }
    var cos: Self { Self(cCos(re) * cCosh(im), -cSin(re) * cSinh(im)) }
    var sinh: Self { Self(cSinh(re) * cCos(im), cCosh(re) * cSin(im)) }
    var cosh: Self { Self(cCosh(re) * cCos(im), cSinh(re) * cSin(im)) }
    var exp: Self { let m = cExp(re); return Self(m * cCos(im), m * cSin(im)) }
    var log: Self { Self(cLog(modulus), argument) }

    /// z^n by the polar form.
    func power(_ n: Double) -> Self {
        let r = cPow(modulus, n), t = argument * n
        return Self(r * cCos(t), r * cSin(t))
    }
}

extension Functions {
    /// A complex argument: text in Excel's form, or a number (#NUM! for other text, #VALUE! for a boolean).
    static func complex(_ ev: Evaluator, _ op: Operand) throws -> ComplexNumber {
        let v = try ev.checked(op)
        return try complex(ev, v)
    }

    static func complex(_ ev: Evaluator, _ v: CalcValue) throws -> ComplexNumber {
        switch v {
        case .boolean: throw EvalInterrupt.error(.value)
        case .number(let x): return ComplexNumber(x, 0)
        case .error(let e): throw EvalInterrupt.error(e)
        default:
            guard let z = ComplexNumber(text: try ev.text(v)) else { throw EvalInterrupt.error(.number) }
            return z
        }
    }

    /// The suffix of a result from its operands': `mixed` when they mix i and j.
    static func suffix(_ zs: [ComplexNumber], mixed: ExcelError = .value) throws -> Character? {
        var s: Character?
        for z in zs {
            guard let t = z.suffix else { continue }
            if let s, s != t { throw EvalInterrupt.error(mixed) }
            s = t
        }
        return s
    }

    /// A complex result (#NUM! when a part is not finite; `mixed` when the operands mix i and j).
    static func complexResult(_ z: ComplexNumber, _ from: [ComplexNumber], mixed: ExcelError = .value) throws -> Operand {
        guard z.re.isFinite, z.im.isFinite else { return .value(.error(.number)) }
        var r = z
        r.suffix = try suffix(from, mixed: mixed)
        if r.re == 0 { r.re = 0 }
        if r.im == 0 { r.im = 0 }
        return .value(.text(r.text))
    }

    static func imaginary(_ name: String, _ f: @escaping @Sendable (ComplexNumber) throws -> ComplexNumber) -> FunctionSpec {
        scalar(name, 1, 1) { ev, a in
            let z = try complex(ev, a[0])
            return try complexResult(try f(z), [z])
        }
    }

    /// 1 / w, #NUM! when w is 0.
    static func inverse(_ w: ComplexNumber) throws -> ComplexNumber {
        guard !w.isZero else { throw EvalInterrupt.error(.number) }
        return ComplexNumber(1, 0) / w
    }

    /// Each complex value of IMSUM's and IMPRODUCT's arguments: a range's empty cells are skipped,
    /// an empty cell named alone is 0 (calc-suite ENGINEERING__COMPLEXs Sheet2 C8, C10).
    static func complexes(_ ev: Evaluator, _ args: [Operand]) throws -> [ComplexNumber] {
        var out: [ComplexNumber] = []
        for a in args {
            if case .ref(let r) = a, r.isSingleCell {
                out.append(try complex(ev, try ev.cellValue(r.sheet, r.r1, r.c1)))
                continue
            }
            try ev.forEachValue([a], rowMajor: true) { v, direct in
                if case .empty = v, !direct { return }
                out.append(try complex(ev, v))
            }
        }
        return out
    }

    static let complexNumbers: [FunctionSpec] = [
        // COMPLEX(real, imaginary, [suffix]): the suffix "i" (default, or "") or "j", lower case.
        scalar("COMPLEX", 2, 3) { ev, a in
            let re = try analysisNumber(ev, a[0]), im = try analysisNumber(ev, a[1])
            var sfx: Character = "i"
            if !ev.isMissing(a, 2) {
                let v = try ev.checked(a[2])
                if case .boolean = v { return .value(.error(.value)) }
                switch try ev.text(v) {
                case "", "i": sfx = "i"
                case "j": sfx = "j"
                default: return .value(.error(.value))
                }
            }
            return try complexResult(ComplexNumber(re, im), [ComplexNumber(0, 0, suffix: sfx)])
        },
        scalar("IMREAL", 1, 1) { ev, a in number(try complex(ev, a[0]).re) },
        scalar("IMAGINARY", 1, 1) { ev, a in number(try complex(ev, a[0]).im) },
        scalar("IMABS", 1, 1) { ev, a in number(try complex(ev, a[0]).modulus) },
        scalar("IMARGUMENT", 1, 1) { ev, a in
            let z = try complex(ev, a[0])
            guard !z.isZero else { return .value(.error(.divisionByZero)) }
            return number(z.argument)
        },
        imaginary("IMCONJUGATE") { ComplexNumber($0.re, -$0.im) },
        imaginary("IMSIN") { $0.sin },
        imaginary("IMCOS") { $0.cos },
        // tan(a+bi) = (sin 2a + i sinh 2b) / (cos 2a + cosh 2b), the denominator as
        // 2 (cos^2 a + sinh^2 b): no cancellation for a large b or a tiny a.
        imaginary("IMTAN") { z in
            let c = cCos(z.re), s = cSinh(z.im)
            let d = 2 * (c * c + s * s)
            guard d != 0 else { throw EvalInterrupt.error(.number) }
            return ComplexNumber(cSin(2 * z.re) / d, cSinh(2 * z.im) / d)
        },
        // cot(a+bi) = (sin 2a - i sinh 2b) / (cosh 2b - cos 2a), the denominator as 2 (sin^2 a + sinh^2 b).
        imaginary("IMCOT") { z in
            let c = cSin(z.re), s = cSinh(z.im)
            let d = 2 * (c * c + s * s)
            guard d != 0 else { throw EvalInterrupt.error(.number) }
            return ComplexNumber(cSin(2 * z.re) / d, -cSinh(2 * z.im) / d)
        },
        imaginary("IMSEC") { try inverse($0.cos) },
        imaginary("IMCSC") { try inverse($0.sin) },
        imaginary("IMSINH") { $0.sinh },
        imaginary("IMCOSH") { $0.cosh },
        imaginary("IMSECH") { try inverse($0.cosh) },
        imaginary("IMCSCH") { try inverse($0.sinh) },
        imaginary("IMEXP") { $0.exp },
        imaginary("IMLN") { z in
            guard !z.isZero else { throw EvalInterrupt.error(.number) }
            return z.log
        },
        imaginary("IMLOG10") { z in
            guard !z.isZero else { throw EvalInterrupt.error(.number) }
            let l = z.log
            return ComplexNumber(l.re / cLog(10), l.im / cLog(10))
        },
        imaginary("IMLOG2") { z in
            guard !z.isZero else { throw EvalInterrupt.error(.number) }
            let l = z.log
            return ComplexNumber(l.re / cLog(2), l.im / cLog(2))
        },
        imaginary("IMSQRT") { $0.isZero ? $0 : $0.power(0.5) },
        scalar("IMPOWER", 2, 2) { ev, a in
            let z = try complex(ev, a[0])
            let n = try analysisNumber(ev, a[1])
            if z.isZero {
                guard n > 0 else { return .value(.error(.number)) }
                return try complexResult(ComplexNumber(0, 0), [z])
            }
            return try complexResult(z.power(n), [z])
        },
        scalar("IMDIV", 2, 2) { ev, a in
            let x = try complex(ev, a[0]), y = try complex(ev, a[1])
            guard !y.isZero else { return .value(.error(.number)) }
            return try complexResult(x / y, [x, y], mixed: .number)
        },
        // IMDIV and IMSUB of an i and a j number are #NUM!, where IMSUM and IMPRODUCT are #VALUE!
        // (calc-suite formulas__test ENGINEERING!T38:U38, T51:U51 against T44:U44, S52:U52).
        scalar("IMSUB", 2, 2) { ev, a in
            let x = try complex(ev, a[0]), y = try complex(ev, a[1])
            return try complexResult(x - y, [x, y], mixed: .number)
        },
        raw("IMSUM", 1, 255) { ev, a in
            let zs = try complexes(ev, a)
            return try complexResult(zs.reduce(ComplexNumber(0, 0), +), zs)
        },
        raw("IMPRODUCT", 1, 255) { ev, a in
            let zs = try complexes(ev, a)
            return try complexResult(zs.reduce(ComplexNumber(1, 0), *), zs)
        },
    ]
}
