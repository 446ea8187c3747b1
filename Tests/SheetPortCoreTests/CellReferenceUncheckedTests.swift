import Testing
import SheetPortCore

/// `CellReference.parseUnchecked`, which reads every cell's `r` in a worksheet: its one-pass
/// path for short references must give what the general path gives, on every input.
@Suite struct CellReferenceUncheckedTests {
    /// The rule written plainly: ASCII letters (the column, held at Int32.max), then digits
    /// (a row of at least 1 that fits an Int) and nothing after them but spaces.
    private static func expected(_ bytes: [UInt8]) -> (column: Int, row: Int)? {
        var index = 0, column = 0
        while index < bytes.count, let letter = Self.letter(bytes[index]) {
            column = min(column * 26 + letter, Int(Int32.max))
            index += 1
        }
        var end = bytes.count
        while end > index, bytes[end - 1] == 0x20 { end -= 1 }
        let digits = bytes[index..<end]
        guard index > 0, !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let row = Int(String(decoding: digits, as: UTF8.self)), row >= 1 else { return nil }
        return (column, row)
    }

    private static func letter(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x41...0x5A: Int(byte - 0x40)
        case 0x61...0x7A: Int(byte - 0x60)
        default: nil
        }
    }

    private static func parsed(_ bytes: [UInt8]) -> (column: Int, row: Int)? {
        bytes.withUnsafeBufferPointer { CellReference.parseUnchecked($0) }
    }

    private static func agree(_ bytes: [UInt8]) -> Bool {
        let got = parsed(bytes), want = expected(bytes)
        return got?.column == want?.column && got?.row == want?.row
    }

    @Test(arguments: [
        ("A1", 1, 1), ("a1", 1, 1), ("XFD1048576", 16_384, 1_048_576), ("xfd1", 16_384, 1), ("A0000001", 1, 1),
        ("ZZZ9999999", 18_278, 9_999_999), ("AAAA1", 18_279, 1), ("A12345678", 1, 12_345_678), ("A1 ", 1, 1),
        ("XFE1", 16_385, 1), ("A1048577", 1, 1_048_577),
    ])
    func readsLettersThenDigits(_ text: String, _ column: Int, _ row: Int) throws {
        let got = try #require(Self.parsed(Array(text.utf8)))
        #expect(got.column == column && got.row == row)
    }

    @Test(arguments: ["", "A", "AB", "ABC", "1", "12", "A0", "A000", "$A1", "A$1", "A 1", " A1", "A1B", "A-1", "A+1",
                      "@1", "[1", "`1", "{1", "A1\u{0}", "É1", "A１", "A99999999999999999999", "AB0000000"])
    func refusesWhatIsNoReference(_ text: String) {
        #expect(Self.parsed(Array(text.utf8)) == nil)
    }

    /// Every string of up to 5 bytes from letters, digits, and the bytes next to them
    /// (`@` `[` `` ` `` `{` `/` `:`), a space and a byte past ASCII: both paths agree on each.
    @Test func agreesWithTheRuleOnEveryShortInput() {
        let alphabet = Array("AZaz019@[`{/: ".utf8) + [0xC3]
        var input: [UInt8] = []
        var disagreements: [String] = []
        func extend(_ length: Int) {
            if !Self.agree(input) { disagreements.append(String(decoding: input, as: UTF8.self)) }
            guard length > 0 else { return }
            for byte in alphabet {
                input.append(byte)
                extend(length - 1)
                input.removeLast()
            }
        }
        extend(5)
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    /// Long and random references: 0 to 5 letters, 0 to 12 digits, sometimes a stray byte.
    @Test func agreesWithTheRuleOnRandomReferences() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            var bytes = (0..<Int.random(in: 0...5, using: &generator)).map { _ in UInt8.random(in: 0x41...0x5A, using: &generator) }
            bytes += (0..<Int.random(in: 0...12, using: &generator)).map { _ in UInt8.random(in: 0x30...0x39, using: &generator) }
            if Bool.random(using: &generator), !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            #expect(Self.agree(bytes), "\(bytes)")
        }
    }
}
