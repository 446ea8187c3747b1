/// Excel's wildcard patterns: `*` any run, `?` one character, `~` escapes the next; case-insensitive.
struct WildcardPattern {
    enum Token: Equatable { case literal(Character), one, any }
    let tokens: [Token]

    init(_ pattern: String) {
        var t: [Token] = []
        var escape = false
        for ch in pattern.lowercased() {
            if escape { t.append(.literal(ch)); escape = false; continue }
            switch ch {
            case "~": escape = true
            case "*": if t.last != .any { t.append(.any) }
            case "?": t.append(.one)
            default: t.append(.literal(ch))
            }
        }
        if escape { t.append(.literal("~")) }
        tokens = t
    }

    /// True when the text contains a wildcard character (so matching needs the pattern).
    /// By bytes: `String.contains("*")` is Foundation's `range(of:)` here, thousands of instructions
    /// for each VLOOKUP and SUMIF key.
    static func hasWildcards(_ s: String) -> Bool {
        s.utf8.contains { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "~") }
    }

    /// Whether the whole text matches (iterative, backtracking to the last `*` only).
    func matches(_ text: String) -> Bool { matches(Array(text.lowercased())) }

    func matches(_ s: [Character]) -> Bool {
        var i = 0, p = 0
        var starP = -1, starI = 0
        while i < s.count {
            if p < tokens.count {
                switch tokens[p] {
                case .any: starP = p; starI = i; p += 1; continue
                case .one: i += 1; p += 1; continue
                case .literal(let c) where c == s[i]: i += 1; p += 1; continue
                default: break
                }
            }
            guard starP >= 0 else { return false }
            p = starP + 1
            starI += 1
            i = starI
        }
        while p < tokens.count, tokens[p] == .any { p += 1 }
        return p == tokens.count
    }
}
