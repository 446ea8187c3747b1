/// Seeded random cell JSONL lines for the differential tests of `CellObjectParser`: every
/// member of Docs/Reference/Formats.md's cell JSONL with right and wrong types, strings with every escape and
/// literal Unicode, numbers at the edges of a double, unknown nested members, escaped keys
/// and random spacing. No line has a duplicate key, a trailing comma or a literal U+FEFF
/// (where the parser differs from `JSONSerialization` on purpose; tested apart).
package struct CellJSONGenerator {
    /// SplitMix64: the same seed gives the same lines on every run.
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    package mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    package mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    package mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    /// Numbers at the edges: zeros, the largest and smallest doubles, halfway cases, long
    /// mantissas, huge and tiny exponents that still fit.
    package static let edgeNumbers = [
        "0", "-0", "0.0", "-0.0", "1", "-1", "1.0", "1e0", "0e5", "2", "1.5", "0.1", "0.2", "0.3",
        "0.30000000000000004", "0.1e1", "1e308", "-1e308", "1.7976931348623157e308", "5e-324", "-5e-324",
        "4.9406564584124654e-324", "2.2250738585072014e-308", "2.2250738585072011e-308", "1e-400", "-1e-400",
        "9007199254740993", "9007199254740992", "123456789012345678", "18446744073709551615",
        "0.1234567890123456789", "1E5", "1e+5", "1E-5", "100000000000000000000", "3.141592653589793",
        "2.718281828459045", "1.00000000000000011102230246251565", "45322.57291666667", "-0e-0",
    ]

    /// A JSON number's text.
    package mutating func numberText() -> String {
        if chance(30) { return pick(Self.edgeNumbers) }
        var text = chance(30) ? "-" : ""
        if chance(20) {
            text += "0"
        } else {
            text += String(int(1...9))
            for _ in 0..<int(0...17) { text += String(int(0...9)) }
        }
        if chance(50) {
            text += "."
            for _ in 0..<int(1...20) { text += String(int(0...9)) }
        }
        if chance(30) {
            text += pick(["e", "E"]) + pick(["", "+", "-"]) + String(int(0...280))
        }
        return text
    }

    /// A JSON string literal (quotes included) mixing plain text, every escape, `\u` escapes
    /// (surrogate pairs too) and literal UTF-8; with `broken`, sometimes one flaw that JSON
    /// refuses (a raw control character, a lone surrogate, a bad escape).
    package mutating func stringLiteral(broken: Bool = true) -> String {
        var text = "\""
        for _ in 0..<int(0...12) {
            switch int(0...9) {
            case 0, 1, 2:
                text += pick(["a", "Total", "B2*2", " ", "#N/A", "x y", "'", "{", "}", "[", ":", ",", "\u{7F}"])
            case 3:
                text += pick(["\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"])
            case 4:
                var scalar = UInt32(int(0...0xFFFF))
                if (0xD800...0xDFFF).contains(scalar) { scalar = 0xE9 }
                let hex = String(scalar, radix: 16, uppercase: chance(50))
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            case 5:
                let scalar = UInt32(int(0x10000...0x10FFFF)) - 0x10000
                let high = String(0xD800 + (scalar >> 10), radix: 16, uppercase: chance(50))
                let low = String(0xDC00 + (scalar & 0x3FF), radix: 16, uppercase: chance(50))
                text += "\\u" + high + "\\u" + low
            case 6, 7:
                text += pick(["é", "naïve", "ß", "中文", "😀", "e\u{301}", "\u{FFFF}", "\u{10FFFF}", "Ω", "\u{212A}"])
            default:
                guard broken, chance(15) else { text += "z"; break }
                text += pick(["\t", "\u{01}", "\\ud800", "\\udc00", "\\ud800x", "\\ud800\\u0041", "\\x", "\\u12", "\\U0041", "\\'"])
            }
        }
        return text + "\""
    }

    /// Any JSON value, nested up to `depth` levels.
    package mutating func anyValue(depth: Int) -> String {
        switch int(0...(depth > 0 ? 7 : 5)) {
        case 0: return "null"
        case 1: return pick(["true", "false"])
        case 2, 3: return numberText()
        case 4, 5: return stringLiteral()
        case 6: return "[" + (0..<int(0...3)).map { _ in space() + anyValue(depth: depth - 1) + space() }.joined(separator: ",") + "]"
        default:
            let members = (0..<int(0...3)).map { index in "\"k\(index)\"" + space() + ":" + space() + anyValue(depth: depth - 1) }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    /// JSON white space, usually none.
    package mutating func space() -> String {
        chance(85) ? "" : pick([" ", "  ", "\t", " \t ", "\r"])
    }

    /// A key, sometimes spelled with `\u` escapes (never `value`: JSONSerialization's reader
    /// found the exact number of `value` only when its key was spelled plainly).
    package mutating func key(_ name: String) -> String {
        guard name != "value", chance(5) else { return "\"" + name + "\"" }
        return "\"" + name.unicodeScalars.map { chance(50) ? String($0) : String(format4: $0.value) }.joined() + "\""
    }

    /// One cell object line.
    package mutating func line() -> String {
        var members: [(String, String)] = []
        let type = pick(["number", "number", "string", "string", "boolean", "error", "date", "empty", "texte"])
        if chance(97) { members.append(("ref", chance(92) ? "\"\(reference())\"" : pick(["\"A0\"", "\"XFE1\"", "\"b2\"", "12", "null", "\"A1:B2\"", "\"\""]))) }
        if chance(97) { members.append(("type", chance(95) ? "\"\(type)\"" : anyValue(depth: 1))) }
        if chance(97) { members.append(("value", value(for: type))) }
        if chance(30) { members.append(("formula", chance(85) ? stringLiteral() : anyValue(depth: 1))) }
        if chance(6) { members.append(("arrayRange", pick(["\"A1:A3\"", "\"B2:B4\"", "\"C7:D9\"", "\"nope\"", "null", "3"]))) }
        if chance(35) { members.append(("style", style())) }
        if chance(20) { members.append(("col", String(int(1...16384)))) }
        if chance(20) { members.append(("input", stringLiteral())) }
        if chance(15) { members.append(("extra", anyValue(depth: 4))) }
        shuffle(&members)
        let body = members.map { key($0.0) + space() + ":" + space() + $0.1 }.joined(separator: space() + "," + space())
        return space() + "{" + space() + body + space() + "}" + space()
    }

    private mutating func reference() -> String {
        let column = pick([1, 2, 3, 26, 27, 702, 703, 16384, int(1...16384)])
        let row = pick([1, 2, 3, 1_048_576, int(1...1_048_576)])
        return CellReferenceText.name(column) + String(row)
    }

    private mutating func value(for type: String) -> String {
        guard chance(85) else { return anyValue(depth: 2) }
        switch type {
        case "number": return numberText()
        case "boolean": return pick(["true", "false", "0", "1", "1.0", "-0", "2", "0.5"])
        case "error": return pick(["\"#N/A\"", "\"#DIV/0!\"", "\"#REF!\"", "\"N/A\""])
        case "date":
            let month = String(format2: int(1...12)), day = String(format2: int(1...31))
            return "\"\(int(1899...2100))-\(month)-\(day)T\(String(format2: int(0...23))):\(String(format2: int(0...59))):00.000\""
        case "empty": return "null"
        default: return stringLiteral()
        }
    }

    private mutating func style() -> String {
        guard chance(90) else { return pick(["\"bold\"", "[]", "[1]", "3", "null", "true"]) }
        var members: [(String, String)] = []
        if chance(40) { members.append(("bold", pick(["true", "false", "1", "0", "2", "\"yes\"", "null"]))) }
        if chance(30) { members.append(("italic", pick(["true", "false", "1.0", "0", "null"]))) }
        if chance(30) { members.append(("horizontal", pick(["\"center\"", "\"left\"", "\"right\"", "5", "null"]))) }
        if chance(50) { members.append(("numFmt", pick(["\"yyyy-mm-dd\"", "\"[h]:mm:ss\"", "\"0.00\"", "\"General\"", "\"@\"", "7"]))) }
        if chance(30) { members.append(("fill", pick(["\"#FFEE00\"", "\"#000000\"", "false", "null"]))) }
        if chance(30) { members.append(("color", pick(["\"#112233\"", "\"#FFFFFF\"", "[]", "null"]))) }
        if chance(15) { members.append(("underline", anyValue(depth: 2))) }
        shuffle(&members)
        return "{" + members.map { key($0.0) + space() + ":" + space() + $0.1 }.joined(separator: ",") + "}"
    }

    private mutating func shuffle<T>(_ items: inout [T]) {
        guard items.count > 1 else { return }
        for index in stride(from: items.count - 1, to: 0, by: -1) { items.swapAt(index, int(0...index)) }
    }
}

/// Column letters, written here rather than taken from the code under test.
package enum CellReferenceText {
    package static func name(_ column: Int) -> String {
        var number = column, letters = ""
        while number > 0 {
            let digit = (number - 1) % 26
            letters = String(UnicodeScalar(UInt8(65 + digit))) + letters
            number = (number - 1) / 26
        }
        return letters
    }
}

private extension String {
    /// `\uXXXX` for a scalar.
    init(format4 scalar: UInt32) {
        let hex = String(scalar, radix: 16)
        self = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    /// Two digits.
    init(format2 value: Int) { self = value < 10 ? "0\(value)" : String(value) }
}
