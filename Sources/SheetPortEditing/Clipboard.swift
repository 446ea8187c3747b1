import SheetPortCore

/// What a copy put on the clipboard: the text every program reads (TSV) and, for a paste back
/// into the same sheet, where it came from, so that the server translates the formulas.
public struct ClipboardContent: Sendable, Equatable {
    /// The copied cells as TSV with Excel's quoting.
    public var text: String
    /// The sheet and range copied; nil for text from outside.
    public var origin: (sheet: String, range: CellRange)?
    /// Cut, not copied: the paste moves the cells (their origin is cleared after it).
    public var isCut: Bool

    /// Content with an optional origin.
    public init(text: String, origin: (sheet: String, range: CellRange)? = nil, isCut: Bool = false) {
        self.text = text
        self.origin = origin
        self.isCut = isCut
    }

    public static func == (left: Self, right: Self) -> Bool {
        left.text == right.text && left.origin?.sheet == right.origin?.sheet && left.origin?.range == right.origin?.range
            && left.isCut == right.isCut
    }
}

/// Tab-separated values as Excel writes and reads them on the clipboard: fields separated by
/// tabs, rows by newlines (CRLF read too); a field with a tab, a newline or a quote is quoted,
/// its quotes doubled.
public enum TSV {
    /// The rows as text, each row ended by a newline (as Excel ends its clipboard text).
    public static func encode(_ rows: [[String]]) -> String {
        var text = ""
        for row in rows {
            text += row.map(field).joined(separator: "\t")
            text += "\n"
        }
        return text
    }

    /// One field, quoted when it must be.
    static func field(_ value: String) -> String {
        guard value.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" || $0 == "\"" }) else { return value }
        return "\"" + value.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    /// The rows of `text`: a final newline ends the last row (it does not start an empty one).
    public static func decode(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var atFieldStart = true
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" { field.append("\""); characters.removeFirst() } else { quoted = false }
                } else {
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"" where atFieldStart:
                quoted = true
                atFieldStart = false
            case "\t":
                row.append(field); field = ""; atFieldStart = true
            case "\n", "\r\n", "\r":
                row.append(field); field = ""; atFieldStart = true
                rows.append(row); row = []
            default:
                field.append(character)
                atFieldStart = false
            }
        }
        if !atFieldStart || !row.isEmpty || quoted { row.append(field); rows.append(row) }
        return rows
    }
}

/// Why a paste was refused (nothing of it is sent).
public enum PasteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// More cells than the server's `maxBatchCells`.
    case tooManyCells(cells: Int, cap: Int)
    /// A body larger than the server's `maxBatchBytes`.
    case tooManyBytes(bytes: Int, cap: Int)
    /// The block would reach past the grid's edge.
    case offGrid(range: String)
    /// Nothing to paste.
    case empty

    /// The reason, naming the cap.
    public var description: String {
        switch self {
        case let .tooManyCells(cells, cap): "paste refused: \(cells) cells is over the server's maxBatchCells of \(cap); nothing was pasted"
        case let .tooManyBytes(bytes, cap): "paste refused: \(bytes) bytes is over the server's maxBatchBytes of \(cap); nothing was pasted"
        case .offGrid(let range): "paste refused: \(range) reaches past the sheet's edge; nothing was pasted"
        case .empty: "the clipboard is empty"
        }
    }
}
