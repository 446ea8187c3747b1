/// Number formats: the built-in table of ECMA-376 §18.8.30 and date detection.
public enum NumberFormat {
    /// The format code of a built-in `numFmtId`, when the id has a locale-independent code.
    public static func builtInCode(_ id: Int) -> String? { builtIn[id] }

    /// Whether a built-in id is a date or time format. Ids 27-36 and 50-58 are the
    /// East Asian locales' date formats, which Excel does not spell out in `styles.xml`.
    public static func isBuiltInDate(_ id: Int) -> Bool {
        (14...22).contains(id) || (45...47).contains(id) || (27...36).contains(id) || (50...58).contains(id)
    }

    /// Whether a date or time format shows elapsed time (`[h]:mm:ss`): a duration, not a
    /// point in time, so it is counted from 1899-12-30 with no calendar correction.
    public static func isElapsedTimeFormat(_ code: String) -> Bool {
        guard isDateFormat(code) else { return false }
        let section = code.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var index = section.startIndex
        while let open = section[index...].firstIndex(of: "[") {
            guard let close = section[open...].firstIndex(of: "]") else { break }
            let inside = section[section.index(after: open)..<close]
            if !inside.isEmpty, inside.allSatisfy({ "hHmMsS".contains($0) }) { return true }
            index = section.index(after: close)
        }
        return false
    }

    /// Whether a format code formats numbers as dates or times.
    ///
    /// Only the first section counts (the one for positive numbers). Quoted text, `\`
    /// escapes, `_` spacing and `*` fill characters are not tokens, and bracketed parts are
    /// colours, conditions or locales, except the elapsed-time tokens `[h]`, `[mm]`, `[ss]`.
    public static func isDateFormat(_ code: String) -> Bool {
        let section = firstSection(code)
        return section.hasElapsedTime || section.tokens.contains { "dDmMyYhHsS".utf8.contains($0) }
    }

    /// Whether a date or time format shows the time of day or elapsed time (an `h` or `s`
    /// token, AM/PM or A/P, or `[h]`, `[mm]`, `[ss]`, in its first section): such a cell always
    /// shows its time, midnight included.
    public static func showsTime(_ code: String) -> Bool {
        let section = firstSection(code)
        if section.hasElapsedTime || section.tokens.contains(where: { "hHsS".utf8.contains($0) }) { return true }
        let lowered = section.tokens.map { $0 | 0x20 }
        return lowered.indices.dropLast().contains { lowered[$0] == UInt8(ascii: "a")
            && (lowered[$0 + 1] == UInt8(ascii: "m") || lowered[$0 + 1] == UInt8(ascii: "/")) }
    }

    /// The first section of a format code as it formats: the bytes outside quoted text, `\`
    /// escapes, `_` spacing and `*` fills and brackets, and whether a bracket held an
    /// elapsed-time token (`[h]`, `[mm]`, `[ss]`).
    private static func firstSection(_ code: String) -> (tokens: [UInt8], hasElapsedTime: Bool) {
        var tokens: [UInt8] = []
        var hasElapsedTime = false
        var bytes = code.utf8.makeIterator()
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: ";"):
                return (tokens, hasElapsedTime)
            case UInt8(ascii: "\""):
                while let quoted = bytes.next(), quoted != UInt8(ascii: "\"") {}
            case UInt8(ascii: "\\"), UInt8(ascii: "_"), UInt8(ascii: "*"):
                _ = bytes.next()
            case UInt8(ascii: "["):
                var inside: [UInt8] = []
                while let bracketed = bytes.next(), bracketed != UInt8(ascii: "]") { inside.append(bracketed) }
                if !inside.isEmpty, inside.allSatisfy({ "hHmMsS".utf8.contains($0) }) { hasElapsedTime = true }
            default:
                tokens.append(byte)
            }
        }
        return (tokens, hasElapsedTime)
    }

    /// The built-in id whose code is `code`, for the ids whose meaning does not depend on
    /// the locale (not the currency formats 5-8 or the East Asian ones), so a writer can
    /// refer to it instead of spelling it out.
    public static func builtInID(_ code: String) -> Int? { builtInIDs[code] }

    private static let builtInIDs: [String: Int] = {
        var ids: [String: Int] = [:]
        for (id, code) in builtIn where !(5...8).contains(id) && !(27...36).contains(id) && !(50...58).contains(id) {
            ids[code] = min(id, ids[code] ?? id)
        }
        return ids
    }()

    private static let builtIn: [Int: String] = [
        0: "General", 1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00",
        5: "\"$\"#,##0_);(\"$\"#,##0)", 6: "\"$\"#,##0_);[Red](\"$\"#,##0)",
        7: "\"$\"#,##0.00_);(\"$\"#,##0.00)", 8: "\"$\"#,##0.00_);[Red](\"$\"#,##0.00)",
        9: "0%", 10: "0.00%", 11: "0.00E+00", 12: "# ?/?", 13: "# ??/??",
        14: "mm-dd-yy", 15: "d-mmm-yy", 16: "d-mmm", 17: "mmm-yy", 18: "h:mm AM/PM",
        19: "h:mm:ss AM/PM", 20: "h:mm", 21: "h:mm:ss", 22: "m/d/yy h:mm",
        37: "#,##0 ;(#,##0)", 38: "#,##0 ;[Red](#,##0)", 39: "#,##0.00;(#,##0.00)",
        40: "#,##0.00;[Red](#,##0.00)",
        41: "_(* #,##0_);_(* \\(#,##0\\);_(* \"-\"_);_(@_)",
        42: "_(\"$\"* #,##0_);_(\"$\"* \\(#,##0\\);_(\"$\"* \"-\"_);_(@_)",
        43: "_(* #,##0.00_);_(* \\(#,##0.00\\);_(* \"-\"??_);_(@_)",
        44: "_(\"$\"* #,##0.00_);_(\"$\"* \\(#,##0.00\\);_(\"$\"* \"-\"??_);_(@_)",
        45: "mm:ss", 46: "[h]:mm:ss", 47: "mmss.0", 48: "##0.0E+0", 49: "@",
    ]
}
