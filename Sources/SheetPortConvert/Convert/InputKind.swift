import SheetPortReader
/// What an input holds, told from its first bytes rather than its name: `convert` and `check`
/// read `legacy.xls` named `.xlsx`, CSV on standard input, or an ODS file for what they are.
public enum InputKind: Equatable, Sendable {
    /// A zip archive: an OOXML package, or another zip (ODS, ...) that the workbook reader names.
    case zip
    /// A Compound File (CFB) container: a legacy `.xls` or a password-protected workbook.
    case compoundFile
    /// Text in the given format (a cell JSONL object, tab-separated, or else comma- or
    /// otherwise-delimited text).
    case text(TextFormat)
    /// Nothing at all.
    case empty
    /// Bytes that are neither a package nor text; `prefix` shows the first of them in hex.
    case binary(prefix: String)

    /// How many leading bytes `sniff` looks at.
    public static let sniffLength = 8192

    /// The kind of an input that starts with `bytes` (its first `sniffLength` bytes or all of it).
    public static func sniff(_ bytes: [UInt8]) -> InputKind {
        if bytes.isEmpty { return .empty }
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06]) { return .zip }
        if bytes.starts(with: CompoundFile.signature) { return .compoundFile }
        let sample = bytes.prefix(sniffLength)
        // UTF-16 with a byte order mark is text (its NULs are half of each ASCII character).
        if sample.starts(with: [0xFF, 0xFE]) || sample.starts(with: [0xFE, 0xFF]) { return .text(.csv) }
        // UTF-16 without a mark (as `bcp -w` writes it): ASCII characters with a zero byte each.
        let units = stride(from: 0, to: min(sample.count, 16) - 1, by: 2).map { (sample[$0], sample[$0 + 1]) }
        if units.count >= 2, units.allSatisfy({ ($0.0 == 0) != ($0.1 == 0) && max($0.0, $0.1) < 0x80 }) { return .text(.csv) }
        var body = sample[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        // Text: hardly any NUL or C0 control other than tab, line feed, form feed, carriage
        // return and (DOS text) SUB; any other byte may be UTF-8 or a single-byte encoding. A
        // stray control inside a field (1 byte in 100 or fewer) does not make text binary.
        let controls = body.filter { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0C && $0 != 0x0D && $0 != 0x1A }
        guard controls.count <= body.count / 100 else {
            return .binary(prefix: bytes.prefix(8).map { String($0, radix: 16, uppercase: true).leftPadded(2) }.joined(separator: " "))
        }
        let firstLine = body.prefix { $0 != 0x0A && $0 != 0x0D }
        if body.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) == UInt8(ascii: "{") { return .text(.jsonl) }
        if firstLine.contains(0x09), !firstLine.contains(UInt8(ascii: ",")), !firstLine.contains(UInt8(ascii: ";")) { return .text(.tsv) }
        return .text(.csv)
    }

    /// What the input is, for messages: `a zip archive`, `text (CSV)`, ...
    public var description: String {
        switch self {
        case .zip: "a zip archive"
        case .compoundFile: "a Compound File (CFB) container"
        case .text(let format): "text (\(format.rawValue.uppercased()))"
        case .empty: "an empty file"
        case .binary(let prefix): "neither a workbook nor text (it starts with the bytes \(prefix))"
        }
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
