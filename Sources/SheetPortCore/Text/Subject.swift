/// A subject (the signed-in person a token, a grant, a job or a comment belongs to): compared
/// byte for byte, so it must be text a person can read back exactly.
public enum Subject {
    /// The most UTF-8 bytes a subject holds.
    public static let maxBytes = 256

    /// Why `subject` is refused, as a sentence, or nil when it is acceptable: not empty, at most
    /// `maxBytes` UTF-8 bytes, and without NUL or other control characters.
    public static func violation(of subject: String) -> String? {
        if subject.isEmpty { return "a subject cannot be empty" }
        if let scalar = subject.unicodeScalars.first(where: \.isUnsafeControl) {
            return "a subject cannot hold NUL or control characters (U+\(String(scalar.value, radix: 16, uppercase: true)))"
        }
        if subject.utf8.count > maxBytes { return "a subject holds at most \(maxBytes) bytes" }
        return nil
    }
}
