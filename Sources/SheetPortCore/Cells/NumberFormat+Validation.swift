import Foundation

/// Validation of number format codes against Excel's grammar (ECMA-376 §18.8.31, and what
/// Excel's Format Cells dialog takes): the one check the server's writes, imports and `check` use.
extension NumberFormat {
    /// The longest format code Excel takes (characters, as Excel counts: UTF-16 code units).
    public static let maxCodeLength = 255

    /// Why a format code is not one Excel takes.
    public struct InvalidCode: Error, Equatable, CustomStringConvertible {
        /// A sentence naming what is wrong (and where, as a 1-based character position).
        public let reason: String

        public var description: String { reason }
    }

    /// Whether Excel takes `code` as a number format.
    public static func isValid(_ code: String) -> Bool {
        do { try validate(code); return true } catch { return false }
    }

    /// Throws unless `code` is a number format Excel takes: 1 to 255 characters; at most four
    /// sections (`positive;negative;zero;text`); quotes closed; `\`, `_` and `*` followed by
    /// the character they act on; brackets closed and holding a colour (`[Red]`, `[Color12]`),
    /// a condition (`[>=100]`), a currency or locale (`[$€-407]`), an elapsed time (`[h]`,
    /// `[mm]`, `[ss]`) or a numeral system (`[DBNum1]`, `[NatNum1]`); and outside quotes only
    /// format tokens (`0 # ? . , % / @ E+ E- General AM/PM A/P` and the date letters
    /// `y m d h s` with `a b e g` of the East Asian calendars), the characters Excel shows
    /// without quotes (`$ - + ( ) : ! ^ & ' ~ { } < > = space`, the digits 1-9 of a fixed
    /// denominator) and any character beyond ASCII (currency signs, `年`). Other ASCII
    /// letters must be quoted or escaped (`0 "kg"` or `0\k\g`, not `0 kg`), as Excel requires.
    public static func validate(_ code: String) throws(InvalidCode) {
        let length = code.utf16.count
        guard length > 0 else { throw InvalidCode(reason: "a number format code is empty") }
        guard length <= maxCodeLength else {
            throw InvalidCode(reason: "a number format code is \(length) characters, over Excel's \(maxCodeLength)")
        }
        let characters = Array(code.unicodeScalars)
        var index = 0
        var sections = 1
        func fail(_ what: String) -> InvalidCode { InvalidCode(reason: "\(what) at character \(index + 1) of the number format") }
        func matches(_ word: String) -> Bool {
            let scalars = Array(word.unicodeScalars)
            guard index + scalars.count <= characters.count else { return false }
            return zip(characters[index..<(index + scalars.count)], scalars).allSatisfy { lowered($0.0) == lowered($0.1) }
        }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case ";":
                sections += 1
                guard sections <= 4 else { throw fail("a fifth section (at most four: positive;negative;zero;text)") }
                index += 1
            case "\"":
                guard let close = characters[(index + 1)...].firstIndex(of: "\"") else { throw fail("a quote that is not closed") }
                index = close + 1
            case "\\", "_", "*":
                guard index + 1 < characters.count else { throw fail("\"\(character)\" with no character after it") }
                index += 2
            case "[":
                guard let close = characters[(index + 1)...].firstIndex(of: "]") else { throw fail("a \"[\" that is not closed") }
                let inside = String(String.UnicodeScalarView(characters[(index + 1)..<close]))
                guard isBracketed(inside) else { throw fail("[\(inside.prefix(40))] (not a colour, condition, currency or elapsed time)") }
                index = close + 1
            default:
                if matches("general") { index += 7; continue }
                if matches("am/pm") { index += 5; continue }
                if matches("a/p") { index += 3; continue }
                if character.value >= 0x80 || "0#?.,%/@$-+():!^&'~{}<>= 123456789".unicodeScalars.contains(character) {
                    index += 1
                } else if "eE".unicodeScalars.contains(character) {
                    // E+ / E- (scientific), or e alone: the era year of the East Asian calendars.
                    index += index + 1 < characters.count && "+-".unicodeScalars.contains(characters[index + 1]) ? 2 : 1
                } else if "yYmMdDhHsSaAbBgG".unicodeScalars.contains(character) {
                    index += 1
                } else {
                    throw fail("\"\(Character(character))\" (put literal text in quotes or after a backslash)")
                }
            }
        }
    }

    private static func lowered(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        (0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(scalar.value + 0x20)! : scalar
    }

    private static let colours: Set<String> = ["black", "blue", "cyan", "green", "magenta", "red", "white", "yellow"]

    /// Whether the text between `[` and `]` is one Excel takes.
    private static func isBracketed(_ inside: String) -> Bool {
        let lower = inside.lowercased()
        guard let first = lower.first else { return false }
        if colours.contains(lower) { return true }
        if lower.hasPrefix("color"), let number = Int(lower.dropFirst(5)), (1...56).contains(number) { return true }
        if first == "$" { return true } // currency symbol and locale: [$€-407], [$-F800]
        if lower.allSatisfy({ $0 == first }), "hms".contains(first) { return true } // [h] [mm] [ss]
        if "<>=".contains(first) {
            let op = lower.prefix { "<>=".contains($0) }
            guard ["<", ">", "=", "<=", ">=", "<>"].contains(String(op)) else { return false }
            let limit = lower.dropFirst(op.count).trimmingCharacters(in: .whitespaces)
            return Double(limit)?.isFinite == true
        }
        for system in ["dbnum", "natnum"] where lower.hasPrefix(system) {
            return Int(lower.dropFirst(system.count)).map { (0...99).contains($0) } == true
        }
        return first == "~" // a calendar: [~buddhist], [~gregorian]
    }
}
