import Testing
@testable import SheetPort

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
}
