import Foundation

/// File names made from sheet names (bulk export, `convert --all`): safe on every common file
/// system and unique in their folder. Decided on Unicode scalars, never on Characters: `"/\u{301}"`
/// is one Character but still holds a `/`.
public enum FileNames {
    /// Scalars no common file system (or Windows) accepts in a name.
    static let refused: Set<Unicode.Scalar> = ["/", "\\", ":", "*", "?", "\"", "<", ">", "|"]

    /// `name` with what a file name cannot hold replaced by `_` (separators, reserved punctuation,
    /// control characters), without leading dots or surrounding spaces, at most 200 UTF-8 bytes,
    /// not a name Windows reserves for a device (`CON` becomes `CON_`), and `sheet` when nothing is left.
    public static func safe(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            scalars.append(refused.contains(scalar) || scalar.isUnsafeControl ? "_" : scalar)
        }
        var text = String(scalars).trimmingCharacters(in: .whitespaces)
        while text.unicodeScalars.first == "." { text.unicodeScalars.removeFirst() }
        while text.utf8.count > 200 { text.unicodeScalars.removeLast() }
        text = text.trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? "sheet" : windowsSafe(text)
    }

    /// Names Windows reserves for devices, whatever the case and whatever follows a dot
    /// (`CON`, `con.backup`, `LPT1.csv` all open the device).
    static let reservedOnWindows: Set<String> = Set(["CON", "PRN", "AUX", "NUL"]
        + (1...9).map { "COM\($0)" } + (1...9).map { "LPT\($0)" }
        + ["COM¹", "COM²", "COM³", "LPT¹", "LPT²", "LPT³"])

    /// `name` with `_` after its part before the first dot when that part is a reserved
    /// device name (`CON` -> `CON_`, `aux.old` -> `aux_.old`).
    static func windowsSafe(_ name: String) -> String {
        let stem = name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? name
        let trimmed = stem.trimmingCharacters(in: .whitespaces)
        guard reservedOnWindows.contains(trimmed.uppercased()) else { return name }
        return trimmed + "_" + name.dropFirst(stem.count)
    }

    /// Safe, unique file names (`safe(name) + "." + fileExtension`, then `Name (2).ext`, ...),
    /// unique ignoring case, one for each name in order.
    public static func unique(for names: [String], fileExtension: String) -> [String] {
        var taken: Set<String> = []
        return names.map { name in
            let base = safe(name)
            var candidate = base + "." + fileExtension
            var counter = 2
            while taken.contains(candidate.lowercased()) {
                candidate = base + " (\(counter))." + fileExtension
                counter += 1
            }
            taken.insert(candidate.lowercased())
            return candidate
        }
    }
}
