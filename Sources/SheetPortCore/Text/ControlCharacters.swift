/// Text that crosses a boundary (HTTP, the command line, a terminal, a log, the database) must not
/// smuggle control characters: a NUL cuts C strings, CR/LF forge log lines, ESC drives terminals,
/// and bidirectional overrides make a name read as another. One definition for all of them.
extension Unicode.Scalar {
    /// C0 and C1 controls and DEL (`Cc`), and the bidirectional formatting characters
    /// (U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069) that reorder how text is displayed.
    public var isUnsafeControl: Bool {
        switch value {
        case 0x00..<0x20, 0x7F..<0xA0: return true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}

extension StringProtocol {
    /// Whether the text holds a control character (`Unicode.Scalar.isUnsafeControl`), NUL included.
    public var containsControlCharacters: Bool { unicodeScalars.contains { $0.isUnsafeControl } }

    /// The text with every control character made visible as `\u{1B}`-style escapes (a backslash
    /// is doubled so that an escape cannot be forged), for printing text that came from a server,
    /// a workbook or a user to a terminal or a log.
    public var visibleControlCharacters: String {
        guard unicodeScalars.contains(where: { $0.isUnsafeControl || $0 == "\\" }) else { return String(self) }
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if scalar == "\\" {
                result.append(contentsOf: "\\\\".unicodeScalars)
            } else if scalar.isUnsafeControl {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
