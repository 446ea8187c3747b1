/// The widths that show each column's widest text, in Excel's width units (characters of the
/// default font's widest digit, Calibri 11: 7 pixels, as ECMA-376 §18.3.1.13 counts them),
/// never under Excel's default of 8.43 nor over its limit of 255.
struct ColumnWidthFit {
    /// The widest text of each column (0-based) so far, in digit widths, at most `maxCharacters`.
    private(set) var characters: [Int] = []

    /// Excel's widest column, in characters.
    static let maxCharacters = 255
    /// Excel's default width (Calibri 11).
    static let defaultWidth = 8.43

    /// Counts `text` shown in `column` (1-based), with `extra` characters beside it (the
    /// autofilter's button).
    mutating func measure(_ text: String, column: Int, extra: Int = 0) {
        measure(characters: Self.characters(in: text) + extra, column: column)
    }

    /// Counts text `shown` characters wide in `column` (1-based).
    mutating func measure(characters shown: Int, column: Int) {
        guard column >= 1 else { return }
        if column > characters.count { characters += repeatElement(0, count: column - characters.count) }
        if shown > characters[column - 1] { characters[column - 1] = min(shown, Self.maxCharacters) }
    }

    /// The widths fitted, as runs of adjacent columns (1-based) of one width, left to right;
    /// columns at the default width are left out.
    var runs: [(columns: ClosedRange<Int>, width: Double)] {
        var runs: [(columns: ClosedRange<Int>, width: Double)] = []
        for (index, count) in characters.enumerated() {
            let width = Self.width(characters: count)
            guard width > Self.defaultWidth else { continue }
            if let last = runs.last, last.width == width, last.columns.upperBound == index {
                runs[runs.count - 1].columns = last.columns.lowerBound...index + 1
            } else {
                runs.append((index + 1...index + 1, width))
            }
        }
        return runs
    }

    /// The width showing `count` characters: ECMA-376's truncate((count * 7 + 5) / 7 * 256) / 256
    /// with one character to spare (letters are wider than digits), within 8.43 and 255.
    static func width(characters count: Int) -> Double {
        guard count > 0 else { return defaultWidth }
        let digitWidth = 7, padding = 5
        let shown = min(count, maxCharacters) + 1
        let width = Double((shown * digitWidth + padding) * 256 / digitWidth) / 256
        return min(max(width, defaultWidth), Double(maxCharacters))
    }

    /// How many digit widths `text` takes on one line: East Asian wide characters take two,
    /// control characters and combining marks none. Counting stops past the widest column.
    static func characters(in text: String) -> Int {
        var count = 0
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x20 || (0x7F..<0xA0).contains(value) { continue }
            if value < 0x300 { count += 1 } else {
                switch scalar.properties.generalCategory {
                case .nonspacingMark, .enclosingMark, .format: continue
                default: count += isWide(value) ? 2 : 1
                }
            }
            if count > maxCharacters { break }
        }
        return count
    }

    /// Whether `value` is a wide (full-width) character: CJK, Hangul, full-width forms, emoji.
    private static func isWide(_ value: UInt32) -> Bool {
        (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value) || (0xAC00...0xD7A3).contains(value)
            || (0xF900...0xFAFF).contains(value) || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value)
            || (0xFFE0...0xFFE6).contains(value) || (0x1F300...0x1F64F).contains(value) || (0x1F900...0x1F9FF).contains(value)
            || (0x20000...0x3FFFD).contains(value)
    }
}
