import Foundation

/// File names made from sheet names (bulk export, `convert --all`): safe on every common file
/// system and unique in their folder. Decided on Unicode scalars, never on Characters: `"/\u{301}"`
/// is one Character but still holds a `/`.
public enum FileNames {
    /// Scalars no common file system (or Windows) accepts in a name.
    static let refused: Set<Unicode.Scalar> = ["/", "\\", ":", "*", "?", "\"", "<", ">", "|"]

    /// `name` with what a file name cannot hold replaced by `_` (separators, reserved punctuation,
    /// control characters), without leading dots or surrounding spaces, at most 200 UTF-8 bytes,
    /// and `sheet` when nothing is left.
    public static func safe(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            scalars.append(refused.contains(scalar) || scalar.isUnsafeControl ? "_" : scalar)
        }
        var text = String(scalars).trimmingCharacters(in: .whitespaces)
        while text.unicodeScalars.first == "." { text.unicodeScalars.removeFirst() }
        while text.utf8.count > 200 { text.unicodeScalars.removeLast() }
        text = text.trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? "sheet" : text
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
