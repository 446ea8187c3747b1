import Testing
@testable import SheetPortCore

/// The number parsers the reader runs on every attribute and value.
@Suite struct ASCIITests {
    /// What `parseInt` has always accepted: spaces around, a sign, decimal digits, no overflow
    /// (of the magnitude: `Int.min` is refused).
    private static func oracle(_ text: String) -> Int? {
        var trimmed = Substring(text)
        while trimmed.first == " " { trimmed.removeFirst() }
        while trimmed.last == " " { trimmed.removeLast() }
        guard let first = trimmed.first, first != "+" || trimmed.count > 1 else { return nil }
        return Int(trimmed).flatMap { $0 == .min ? nil : $0 }
    }

    private static func parse(_ text: String) -> Int? {
        Array(text.utf8).withUnsafeBufferPointer { ASCII.parseInt($0) }
    }

    @Test func parseIntAgreesWithTheSlowPathOnHostileText() {
        var cases = ["", "0", "7", "42", "007", " 12 ", "+5", "-5", "-", "+", "1 2", "1a", "a1", "١٢",
                     "999999999999999999", "9999999999999999999", "9223372036854775807", "9223372036854775808",
                     "-9223372036854775808", "-9223372036854775809", String(repeating: "9", count: 40), "12\u{0}", "\u{0}"]
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789 +-x.\u{0}")
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...22, using: &generator)
            // Mostly digits: the fast path's ground.
            cases.append(String((0..<length).map { _ in Bool.random(using: &generator) ? alphabet[Int.random(in: 0...9)] : alphabet.randomElement()! }))
        }
        for text in cases {
            #expect(Self.parse(text) == Self.oracle(text), "\(text.debugDescription)")
        }
    }

    /// `parseDouble` against strtod (through `Double(String)`), bit for bit, on decimals around
    /// the fast path's bounds: 15 to 19 digits, mantissas near 2^53, up to 22 and more decimals.
    @Test func parseDoubleIsCorrectlyRounded() {
        var cases = ["0", "-0", "1", "0.1", "9007199254740992", "9007199254740993", "0.9007199254740993",
                     "900719925474099.3", "0.2857142857142857", "0.42857142857142855", "1.7976931348623157",
                     "0.0000000000000000000001", "0.00000000000000000000001", "123456789012345678901234",
                     "18446744073709551615", "18446744073709551616", "1e5", "-2.5E-3", ".5", "5.", "-.5"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50_000 {
            let digits = Int.random(in: 1...20, using: &generator)
            var text = String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            let point = Int.random(in: 0...digits, using: &generator)
            if point < digits { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
            if Bool.random(using: &generator) { text = "-" + text }
            cases.append(text)
        }
        for text in cases {
            let parsed = Array(text.utf8).withUnsafeBufferPointer { ASCII.parseDouble($0) }
            #expect(parsed?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }
}
