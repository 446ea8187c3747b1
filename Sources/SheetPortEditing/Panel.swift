import SheetPortCore

/// The panels that open over the grid (Alt-H, Alt-M, Alt-S or the F3 menu) and close with Escape.
public enum PanelKind: String, Sendable, Equatable, CaseIterable {
    /// The active cell's history, with restore of a chosen entry.
    case history
    /// The active cell's comment threads: add, reply, resolve or reopen.
    case comments
    /// The sheet sorted and filtered by the server, each row with its source row; Enter edits
    /// the row's cell in the panel's column.
    case table
    /// The sheet's grants and share links (owners only).
    case sharing

    /// The panel's name in the F3 menu.
    public var title: String {
        switch self {
        case .history: "History"
        case .comments: "Comments"
        case .table: "Table view"
        case .sharing: "Sharing"
        }
    }
}

/// What Enter does on a panel's line.
public enum PanelAction: Sendable, Equatable {
    /// Make the cell's input at this version its own again.
    case restore(version: Int)
    /// Ask for the text of a new thread on the cell.
    case newComment
    /// Ask for the text of a reply to the thread starting with this comment.
    case reply(thread: Int)
    /// Resolve (true) or reopen (false) the thread starting with this comment.
    case resolve(thread: Int, resolved: Bool)
    /// Ask for `SUBJECT ROLE` and grant it.
    case addGrant
    /// Revoke this subject's grant.
    case revokeGrant(subject: String)
    /// Make a share link with this role and show its URL.
    case createLink(SheetRole)
    /// Revoke this share link.
    case deleteLink(id: String)
    /// Ask for the table view's sort (`B:desc,A:asc`).
    case sortView
    /// Ask for the table view's filters (`C:>100; A:contains:x`).
    case filterView
    /// Ask for the input of this source row's cell in the panel's column.
    case editViewCell(row: Int)
}

/// One line of a panel as its content gives it (before wrapping); Enter runs its `action`.
public struct PanelLine: Sendable, Equatable {
    /// The text, as the server gave it (control characters are made visible when laid out).
    public var text: String
    /// What Enter does here; nil for a line that only informs (the cursor skips it).
    public var action: PanelAction?
    /// Extra indent in columns (a reply under its thread).
    public var indent: Int

    /// A line.
    public init(_ text: String, action: PanelAction? = nil, indent: Int = 0) {
        self.text = text
        self.action = action
        self.indent = indent
    }
}

/// A text the panel asks for (a comment, a reply, a grant), with what was typed so far.
public struct PanelInput: Sendable, Equatable {
    /// The action the text completes (`newComment`, `reply`, `addGrant`).
    public var action: PanelAction
    /// What is asked.
    public var prompt: String
    /// What was typed.
    public var text: String
}

/// A panel over the grid: a title, lines (some with an action; one is chosen), an optional text
/// being typed, and a notice (a made link's URL, why nothing can be done).
public struct Panel: Sendable, Equatable {
    /// Which panel.
    public var kind: PanelKind
    /// The cell it is about (history and comments).
    public var ref: CellReference
    /// The first line.
    public var title: String
    /// The content.
    public var lines: [PanelLine]
    /// The index into `lines` of the chosen line (one with an action), nil when none has one.
    public var chosen: Int?
    /// A text being typed, while one is asked for.
    public var input: PanelInput?
    /// A sentence shown under the lines until the next action.
    public var notice: String?
    /// The table view's sort and filters.
    public var query = TableViewQuery()
    /// The column the table view edits (Left and Right move it).
    public var column = 1
    /// The table view's rows as answered, in view order (for the input an edit starts from).
    var viewRows: [WindowRow] = []

    /// A panel; the first line with an action is chosen.
    public init(kind: PanelKind, ref: CellReference, title: String, lines: [PanelLine], notice: String? = nil) {
        self.kind = kind
        self.ref = ref
        self.title = title
        self.lines = lines
        self.notice = notice
        chosen = lines.firstIndex { $0.action != nil }
    }

    /// The chosen line's action.
    public var chosenAction: PanelAction? { chosen.map { lines[$0].action } ?? nil }

    /// Moves the choice to the next (`by` 1) or previous (-1) line with an action, wrapping.
    mutating func moveChoice(by step: Int) {
        guard let current = chosen, !lines.isEmpty else { return }
        var index = current
        for _ in 0..<lines.count {
            index = (index + step + lines.count) % lines.count
            if lines[index].action != nil { chosen = index; return }
        }
    }

    /// Chooses the line with `action` when it is still there (after a reload), else the line at
    /// `index` when it has an action (Resolve became Reopen), else the first.
    mutating func choose(_ action: PanelAction?, near index: Int?) {
        if let action, let found = lines.firstIndex(where: { $0.action == action }) {
            chosen = found
        } else if let index, index < lines.count, lines[index].action != nil {
            chosen = index
        }
    }
}

/// A screen line of a laid-out panel.
public struct PanelRow: Sendable, Equatable {
    /// The text, at most the layout's width in characters, control characters visible.
    public var text: String
    /// Whether it belongs to the chosen line (drawn highlighted).
    public var isChosen: Bool
}

extension Panel {
    /// The most screen lines one content line takes; a longer text is cut with `…`.
    public static let maxLinesPerItem = 4

    /// The panel in `width` columns and `height` lines: the title, the lines wrapped (each at
    /// most `maxLinesPerItem` lines, cut with `…`) and scrolled so the chosen one shows, and a
    /// last line with the text being typed (its end), the notice or the keys. Every text has its
    /// control characters made visible; nothing is wider than `width`. Empty when there is no room.
    public func layout(width: Int, height: Int) -> [PanelRow] {
        guard width >= 1, height >= 1 else { return [] }
        var rows = [PanelRow(text: Self.cut(title.visibleControlCharacters, width), isChosen: false)]
        guard height >= 2 else { return rows }
        let footer: String
        if let input {
            // The end of what is typed stays in view.
            let typed = input.text.visibleControlCharacters
            let head = "\(input.prompt.visibleControlCharacters): "
            let room = max(width - head.count, 1)
            footer = Self.cut(head, width - min(room, typed.count)) + String(typed.suffix(room))
        } else if let notice {
            footer = notice.visibleControlCharacters
        } else {
            footer = chosen == nil ? "Escape closes" : "Up/Down choose, Enter, Escape closes"
        }
        // A notice (a link's URL) wraps over up to 3 lines; the keys' hint and the field take one.
        let footerRows = input == nil && notice != nil ? Self.wrap(footer, width: width, maxLines: max(1, min(3, height - 2))) : [Self.cut(footer, width)]
        let bodyRoom = max(height - 1 - footerRows.count, 0)
        var body: [PanelRow] = []
        var chosenRange = 0..<0
        for (index, line) in lines.enumerated() {
            let indent = String(repeating: " ", count: min(line.indent, max(width - 1, 0)))
            let wrapped = Self.wrap(line.text, width: width - indent.count, maxLines: Self.maxLinesPerItem)
            if index == chosen { chosenRange = body.count..<(body.count + wrapped.count) }
            body += wrapped.map { PanelRow(text: indent + $0, isChosen: index == chosen) }
        }
        // Scrolled so the chosen line's last row (and so much of it as fits) is on screen.
        var first = 0
        if chosenRange.upperBound > bodyRoom { first = min(chosenRange.upperBound - bodyRoom, chosenRange.lowerBound) }
        rows += body.dropFirst(first).prefix(bodyRoom)
        rows += footerRows.prefix(height - rows.count).map { PanelRow(text: $0, isChosen: false) }
        return rows
    }

    /// `text` cut to `width` characters, the last one `…` when it was longer.
    static func cut(_ text: String, _ width: Int) -> String {
        guard width >= 1 else { return "" }
        return text.count > width ? String(text.prefix(width - 1)) + "…" : text
    }

    /// `text` (its own line breaks kept) in lines of at most `width` characters, broken at spaces
    /// where there is one, at most `maxLines` (the last cut with `…` when more was left).
    static func wrap(_ text: String, width: Int, maxLines: Int) -> [String] {
        guard width >= 1, maxLines >= 1 else { return [] }
        var lines: [String] = []
        var truncated = false
        paragraphs: for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var rest = Substring(String(paragraph).visibleControlCharacters)
            repeat {
                guard lines.count < maxLines else { truncated = true; break paragraphs }
                if rest.count <= width { lines.append(String(rest)); break }
                let limit = rest.index(rest.startIndex, offsetBy: width)
                var end = limit
                if let space = rest[..<limit].lastIndex(of: " "), space > rest.startIndex { end = space }
                lines.append(String(rest[..<end]))
                rest = rest[end...].drop(while: { $0 == " " })
            } while !rest.isEmpty
        }
        if truncated, let last = lines.popLast() {
            lines.append(last.count >= width ? String(last.prefix(width - 1)) + "…" : last + "…")
        }
        return lines
    }
}
