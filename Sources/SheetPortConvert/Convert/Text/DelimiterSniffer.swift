/// Tells a CSV input's field delimiter from its start, as a person would: among `,` `;` TAB and
/// `|`, the one that appears the same number of times (outside quotes) on the most lines wins.
/// Ties go to the comma (to the semicolon when numbers are written with decimal commas, which
/// then appear as often as the semicolons do), and so does text with none of them.
enum DelimiterSniffer {
    /// The delimiters told apart, in the order ties go.
    static let candidates: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09, UInt8(ascii: "|")]
    /// The lines looked at.
    static let maxLines = 100

    /// The delimiter of text that starts with `start`; `isAll` when `start` is the whole input
    /// (otherwise its last, cut-off line is left out unless it is the only one).
    static func delimiter(start: ArraySlice<UInt8>, isAll: Bool, preferSemicolon: Bool = false) -> UInt8 {
        let lines = counts(in: start, isAll: isAll)
        var order = candidates
        if preferSemicolon { order.swapAt(0, 1) }
        var best = order[0], bestScore = 0
        for candidate in order {
            let index = candidates.firstIndex(of: candidate)!
            let score = agreement(lines.map { $0[index] })
            if score > bestScore { (best, bestScore) = (candidate, score) }
        }
        return best
    }

    /// How many lines agree on the most common non-zero count.
    private static func agreement(_ counts: [Int]) -> Int {
        var lines: [Int: Int] = [:]
        for count in counts where count > 0 { lines[count, default: 0] += 1 }
        return lines.values.max() ?? 0
    }

    /// Each non-empty line's count of each candidate outside quotes; a quoted field's line
    /// breaks do not end the line.
    private static func counts(in text: ArraySlice<UInt8>, isAll: Bool) -> [[Int]] {
        var lines: [[Int]] = []
        var current = [Int](repeating: 0, count: candidates.count)
        var quoted = false
        var length = 0
        var previous: UInt8 = 0
        for byte in text {
            defer { previous = byte }
            if byte == UInt8(ascii: "\"") { quoted.toggle(); length += 1; continue }
            if quoted { continue }
            if byte == 0x0A || byte == 0x0D {
                if byte == 0x0A && previous == 0x0D { continue }
                if length > 0 { lines.append(current) }
                if lines.count == maxLines { return lines }
                current = [Int](repeating: 0, count: candidates.count)
                length = 0
                continue
            }
            length += 1
            if let index = candidates.firstIndex(of: byte) { current[index] += 1 }
        }
        if length > 0 && (isAll || lines.isEmpty) { lines.append(current) }
        return lines
    }
}
