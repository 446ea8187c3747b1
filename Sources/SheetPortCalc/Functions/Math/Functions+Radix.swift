
extension Functions {
    static let radixDigits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")

    /// The digits of a whole number 0 <= n < 2^53 in a radix 2...36, upper case.
    static func digits(of n: Double, radix: Int) -> String {
        var x = n
        var out: [Character] = []
        let r = Double(radix)
        repeat {
            let d = x.truncatingRemainder(dividingBy: r)
            out.append(radixDigits[Int(d)])
            x = ((x - d) / r).rounded(.towardZero)
        } while x > 0
        return String(out.reversed())
    }

    static let radix: [FunctionSpec] = [
        // BASE(number, radix, [min_length]): 0 <= number < 2^53, radix 2-36, length 0-255 (all truncated).
        scalar("BASE", 2, 3) { ev, a in
            let n = (try ev.num(a[0])).rounded(.towardZero), r = (try ev.num(a[1])).rounded(.towardZero)
            let length = ev.isMissing(a, 2) ? 0 : (try ev.num(a[2])).rounded(.towardZero)
            guard n >= 0, n < 9_007_199_254_740_992, r >= 2, r <= 36, length >= 0, length <= 255 else {
                return .value(.error(.number))
            }
            let s = digits(of: n, radix: Int(r))
            return .value(.text(String(repeating: "0", count: Swift.max(0, Int(length) - s.count)) + s))
        },
        // DECIMAL(text, radix): the text's digits in the radix (2-36, case-insensitive), at most
        // 255 characters, spaces around trimmed; a digit out of the radix is #NUM!.
        scalar("DECIMAL", 2, 2) { ev, a in
            var t = Substring(try ev.str(a[0]))
            let r = (try ev.num(a[1])).rounded(.towardZero)
            guard r >= 2, r <= 36, t.utf16.count <= 255 else { return .value(.error(.number)) }
            while t.first == " " { t = t.dropFirst() }
            while t.last == " " { t = t.dropLast() }
            var x = 0.0
            for ch in t.uppercased() {
                guard let d = radixDigits.firstIndex(of: ch), d < Int(r) else { return .value(.error(.number)) }
                x = x * r + Double(d)
            }
            return number(x)
        },
    ]
}
