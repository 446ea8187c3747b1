import Testing
@testable import SheetPortCore
import SheetPortTestSupport

/// `SheetName`: the one rule the writer, the rename route and the import share.
@Suite struct SheetNameTests {
    /// Every rule, decided on scalars and counted in UTF-16 as Excel counts.
    @Test func violations() {
        #expect(SheetName.violation(of: "") == .empty)
        #expect(SheetName.violation(of: String(repeating: "a", count: 31)) == nil)
        #expect(SheetName.violation(of: String(repeating: "a", count: 32)) == .tooLong(32))
        #expect(SheetName.violation(of: "e\u{301}" + String(repeating: "a", count: 30)) == .tooLong(32)) // two scalars, one Character
        for refused in ["[", "]", ":", "*", "?", "/", "\\"] {
            #expect(SheetName.violation(of: "a" + refused + "\u{301}b") == .refusedCharacter(Unicode.Scalar(refused)!))
        }
        for control in ["\u{0}", "\t", "\n", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}", "\u{202E}", "\u{2066}"] {
            #expect(SheetName.violation(of: "a" + control) == .controlCharacter(Unicode.Scalar(control)!))
        }
        #expect(SheetName.violation(of: "'a") == .apostrophe && SheetName.violation(of: "a'") == .apostrophe)
        #expect(SheetName.violation(of: "a'b") == nil)
        #expect(SheetName.violation(of: "HISTORY") == .reserved && SheetName.violation(of: "History1") == nil)
    }

    /// `valid` gives a valid name for any input, keeps a valid one, and is stable.
    @Test func validNamesFromAnyInput() {
        var generator = SeededGenerator(state: 12)
        let pieces: [String] = ["a", "Z", " ", "'", "[", "]", ":", "*", "?", "/", "\\", "\u{0}", "\u{1B}", "\u{301}", "😀", "é",
                                "History", "\u{202E}", "\u{85}", "\r\n", "ß", "中"]
        for _ in 0..<2_000 {
            let name = (0..<Int.random(in: 0...40, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let valid = SheetName.valid(name)
            #expect(SheetName.violation(of: valid) == nil, "\(name.debugDescription) -> \(valid.debugDescription)")
            #expect(SheetName.valid(valid) == valid)
            if SheetName.violation(of: name) == nil { #expect(valid == name) }
        }
        #expect(SheetName.valid("History") == "History_" && SheetName.valid("'''") == "Sheet1")
        #expect(SheetName.valid(String(repeating: "😀", count: 20)) == String(repeating: "😀", count: 15)) // no split surrogate pair
    }
}
