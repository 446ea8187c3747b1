/// Excel's rules for a worksheet name, in one place: the writer refuses a name that breaks one,
/// the server refuses a rename that breaks one (400) and makes an imported name valid (with a
/// warning), so every stored sheet can be exported. Decided on Unicode scalars, never on
/// Characters: `"a/\u{301}"` is two Characters whose second still holds a `/`.
public enum SheetName {
    /// The most UTF-16 code units a name holds (Excel counts in UTF-16).
    public static let maxLength = 31
    /// Scalars Excel refuses in a sheet name.
    public static let refused: Set<Unicode.Scalar> = ["[", "]", ":", "*", "?", "/", "\\"]
    /// The name Excel reserves (compared ignoring case).
    public static let reserved = "History"

    /// A rule a name breaks.
    public enum Violation: Equatable, Sendable, CustomStringConvertible {
        /// The name is empty.
        case empty
        /// More than `maxLength` UTF-16 code units.
        case tooLong(Int)
        /// A refused scalar (one of `[ ] : * ? / \`).
        case refusedCharacter(Unicode.Scalar)
        /// A NUL, another control character or a bidirectional override.
        case controlCharacter(Unicode.Scalar)
        /// It starts or ends with an apostrophe.
        case apostrophe
        /// It is `History`, which Excel reserves.
        case reserved

        /// The rule, as a sentence for the person who chose the name.
        public var description: String {
            switch self {
            case .empty: "a sheet name cannot be empty"
            case .tooLong(let length): "a sheet name holds at most \(SheetName.maxLength) characters; this one has \(length)"
            case .refusedCharacter(let scalar): "a sheet name cannot hold \"\(scalar)\" (none of [ ] : * ? / \\)"
            case .controlCharacter(let scalar):
                "a sheet name cannot hold control characters (U+\(String(scalar.value, radix: 16, uppercase: true)))"
            case .apostrophe: "a sheet name cannot start or end with an apostrophe"
            case .reserved: "\"History\" is reserved by Excel and cannot name a sheet"
            }
        }
    }

    /// The first rule `name` breaks, or nil when Excel accepts it.
    public static func violation(of name: String) -> Violation? {
        if name.isEmpty { return .empty }
        if let scalar = name.unicodeScalars.first(where: \.isUnsafeControl) { return .controlCharacter(scalar) }
        if let scalar = name.unicodeScalars.first(where: refused.contains) { return .refusedCharacter(scalar) }
        let length = name.utf16.count
        if length > maxLength { return .tooLong(length) }
        if name.unicodeScalars.first == "'" || name.unicodeScalars.last == "'" { return .apostrophe }
        if name.lowercased() == reserved.lowercased() { return .reserved }
        return nil
    }

    /// `name` made valid: refused and control scalars replaced by `_`, apostrophes trimmed from
    /// both ends, cut to `maxLength` UTF-16 code units on a scalar boundary, `History` given a
    /// suffix, and `fallback` when nothing is left. A valid name comes back unchanged.
    public static func valid(_ name: String, fallback: String = "Sheet1") -> String {
        guard violation(of: name) != nil else { return name }
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            scalars.append(refused.contains(scalar) || scalar.isUnsafeControl ? "_" : scalar)
        }
        func trimApostrophes() {
            while scalars.first == "'" { scalars.removeFirst() }
            while scalars.last == "'" { scalars.removeLast() }
        }
        trimApostrophes()
        var length = 0
        var cut = String.UnicodeScalarView()
        for scalar in scalars {
            length += scalar.utf16.count
            guard length <= maxLength else { break }
            cut.append(scalar)
        }
        scalars = cut
        trimApostrophes()
        var text = String(scalars)
        if text.lowercased() == reserved.lowercased() { text += "_" }
        return text.isEmpty || violation(of: text) != nil ? fallback : text
    }
}
