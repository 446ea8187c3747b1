import SheetPortCore

/// Why a text typed into a panel was refused (nothing is sent).
public struct PanelInputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A sentence naming what was wrong.
    public var description: String
}

extension SheetEditor {
    /// The most characters a comment holds (the server's cap).
    public static let maxCommentLength = 32_767

    /// Opens `kind` for the active cell, its content read from the server; a failed read leaves
    /// the grid focused with the error shown.
    func openPanel(_ kind: PanelKind) {
        guard let loaded = loadPanel(kind, ref: selection.active, query: TableViewQuery(), column: selection.active.column) else { return }
        panel = loaded
        focus = .panel
        lastError = nil
    }

    private func closePanel() {
        panel = nil
        focus = .grid
    }

    /// Reads the panel's content again (after an action), keeping the chosen line where it still is.
    private func reloadPanel(notice: String? = nil) {
        guard let open = panel, var fresh = loadPanel(open.kind, ref: open.ref, query: open.query, column: open.column) else { return }
        fresh.choose(open.chosenAction, near: open.chosen)
        if let notice { fresh.notice = notice }
        panel = fresh
    }

    func loadPanel(_ kind: PanelKind, ref: CellReference, query: TableViewQuery, column: Int) -> Panel? {
        do {
            switch kind {
            case .table:
                let window = try transport.view(sheet: sheet, query, start: 1, count: Self.tableViewRows)
                return Self.tablePanel(ref, window, query: query, column: column, role: role)
            case .history: return Self.historyPanel(ref, try transport.history(sheet: sheet, ref: ref), role: role)
            case .comments: return Self.commentsPanel(ref, try transport.comments(sheet: sheet), role: role)
            case .sharing:
                // Grants and links are the owner's: the others are told instead of a 403.
                guard role == .owner else {
                    return Panel(kind: .sharing, ref: ref, title: "Sharing", lines: [],
                                 notice: "only the sheet's owner can share it (you are \(role == .editor ? "an" : "a") \(role.rawValue))")
                }
                return Self.sharingPanel(ref, grants: try transport.grants(sheet: sheet), links: try transport.links(sheet: sheet))
            }
        } catch {
            fail(error, doing: "read the \(kind.rawValue)")
            return nil
        }
    }

    // MARK: Content

    /// A cell's history, newest first: `v7 bob 2026-03-01 12:00  12 -> 15`, Enter restoring an
    /// entry's input for an editor.
    static func historyPanel(_ ref: CellReference, _ entries: [CellHistoryEntry], role: SheetRole) -> Panel {
        var lines: [PanelLine] = []
        for (index, entry) in entries.enumerated() {
            let before = index + 1 < entries.count ? entries[index + 1].input : ""
            let text = "v\(entry.version) \(entry.subject) \(shortTime(entry.at))  \(shown(before)) -> \(shown(entry.input))"
            lines.append(PanelLine(text, action: role.writes ? .restore(version: entry.version) : nil))
        }
        if entries.isEmpty { lines.append(PanelLine("\(ref) has no history")) }
        return Panel(kind: .history, ref: ref, title: "History of \(ref)" + (role.writes ? ": Enter restores" : ""), lines: lines,
                     notice: role.writes ? nil : "read-only: only an editor restores")
    }

    /// The cell's threads, each with its replies, then Reply and Resolve (Reopen) for a commenter
    /// or more; a viewer reads them only.
    static func commentsPanel(_ ref: CellReference, _ comments: [CellComment], role: SheetRole) -> Panel {
        let canComment = role >= .commenter
        var lines: [PanelLine] = canComment ? [PanelLine("New comment…", action: .newComment)] : []
        let threads = comments.filter { $0.ref == ref && $0.replyTo == nil }.sorted { $0.id < $1.id }
        for thread in threads {
            lines.append(PanelLine((thread.resolved ? "[resolved] " : "") + "\(thread.author): \(thread.text)"))
            for reply in comments.filter({ $0.replyTo == thread.id }).sorted(by: { $0.id < $1.id }) {
                lines.append(PanelLine("\(reply.author): \(reply.text)", indent: 2))
            }
            if canComment {
                lines.append(PanelLine("Reply…", action: .reply(thread: thread.id), indent: 2))
                lines.append(PanelLine(thread.resolved ? "Reopen" : "Resolve", action: .resolve(thread: thread.id, resolved: !thread.resolved), indent: 2))
            }
        }
        if threads.isEmpty { lines.append(PanelLine("no comments on \(ref)")) }
        return Panel(kind: .comments, ref: ref, title: "Comments on \(ref)", lines: lines,
                     notice: canComment ? nil : "read-only: a viewer cannot comment")
    }

    /// The grants (Enter revokes), adding one, the links (Enter revokes) and making one.
    static func sharingPanel(_ ref: CellReference, grants: [SheetGrant], links: [ShareLink]) -> Panel {
        var lines = [PanelLine("People:")]
        // A link's own grant (subject `link:<id>`) is listed with the links, not as a person.
        for grant in grants.filter({ !$0.subject.hasPrefix("link:") }).sorted(by: { $0.subject < $1.subject }) {
            lines.append(PanelLine("\(grant.subject)  \(grant.role.rawValue)  (Enter revokes)", action: .revokeGrant(subject: grant.subject), indent: 2))
        }
        lines.append(PanelLine("Add a person…", action: .addGrant, indent: 2))
        lines.append(PanelLine("Links:"))
        for link in links {
            lines.append(PanelLine("link:\(link.id)  \(link.role.rawValue)  (Enter revokes)", action: .deleteLink(id: link.id), indent: 2))
        }
        lines.append(PanelLine("New viewer link", action: .createLink(.viewer), indent: 2))
        lines.append(PanelLine("New commenter link", action: .createLink(.commenter), indent: 2))
        return Panel(kind: .sharing, ref: ref, title: "Sharing", lines: lines)
    }

    /// `2026-03-01T12:00:00Z` as `2026-03-01 12:00`; another text as it is.
    static func shortTime(_ at: String) -> String {
        guard at.count >= 16, at.dropFirst(10).first == "T" else { return at }
        return at.prefix(10) + " " + at.dropFirst(11).prefix(5)
    }

    private static func shown(_ input: String) -> String { input.isEmpty ? "(empty)" : input }

    // MARK: Keys

    func handlePanel(_ key: EditorKey) {
        guard var open = panel else { focus = .grid; return }
        if case .quit = key { closePanel(); handle(.quit); return }
        if var input = open.input {
            switch key {
            case .text(let typed): input.text += typed.filter { !$0.isControl }
            case .backspace: if !input.text.isEmpty { input.text.removeLast() }
            case .paste: input.text += (clipboard?.text ?? "").filter { !$0.isControl }
            case .escape:
                open.input = nil
                panel = open
                return
            case .enter:
                submit(input)
                return
            default: return
            }
            open.input = input
            panel = open
            return
        }
        switch key {
        case .arrow(.left) where open.kind == .table, .arrow(.right) where open.kind == .table:
            moveTableColumn(key == .arrow(.left) ? -1 : 1)
            return
        case .arrow(.down), .arrow(.right), .tab: open.moveChoice(by: 1)
        case .arrow(.up), .arrow(.left), .reverseTab: open.moveChoice(by: -1)
        case .enter:
            if let action = open.chosenAction { perform(action) }
            return
        case .escape:
            closePanel()
            return
        case .panel(let kind):
            closePanel()
            openPanel(kind)
            return
        default: return
        }
        panel = open
    }

    private func perform(_ action: PanelAction) {
        guard var open = panel else { return }
        open.notice = nil
        switch action {
        case .restore(let version):
            guard role.writes else { lastError = EditorError(message: "read-only: only an editor restores", retryable: false); return }
            guard enqueue(.restore(open.ref, version: version)) else { return }
            reloadPanel(notice: "\(open.ref) restored to its input at v\(version) (Ctrl-Z takes it back)")
            return
        case .newComment: open.input = PanelInput(action: action, prompt: "Comment on \(open.ref)", text: "")
        case .reply: open.input = PanelInput(action: action, prompt: "Reply", text: "")
        case .addGrant: open.input = PanelInput(action: action, prompt: "Person and role (bob editor)", text: "")
        case let .resolve(thread, resolved):
            act("\(resolved ? "resolve" : "reopen") the thread") { try $0.transport.resolveComment(sheet: $0.sheet, comment: thread, resolved: resolved) }
            return
        case .revokeGrant(let subject):
            act("revoke \(subject)'s grant", notice: "\(subject) no longer has a role here") { try $0.transport.revokeGrant(sheet: $0.sheet, subject: subject) }
            return
        case .createLink(let role):
            var made: ShareLink?
            act("make a share link") { made = try $0.transport.createLink(sheet: $0.sheet, role: role) }
            if let made {
                reloadPanel(notice: "\(made.role.rawValue) link: " + (made.url ?? "link:\(made.id) (the server gave no URL)"))
            }
            return
        case .deleteLink(let id):
            act("revoke link:\(id)", notice: "link:\(id) revoked") { try $0.transport.deleteLink(sheet: $0.sheet, id: id) }
            return
        case .sortView: open.input = PanelInput(action: action, prompt: "Sort (B:desc,A:asc; empty: storage order)", text: open.query.sort)
        case .filterView:
            open.input = PanelInput(action: action, prompt: "Filters, ; between (C:>100; A:contains:x)", text: open.query.filters.joined(separator: "; "))
        case .editViewCell(let row):
            guard role.writes else { lastError = EditorError(message: "read-only: this sheet is shared with you to view, not to change", retryable: false); return }
            let ref = CellReference(row: row, column: open.column)
            open.input = PanelInput(action: action, prompt: "\(ref)", text: open.viewRows.first { $0.row == row }?.cells[open.column]?.input ?? "")
        }
        panel = open
    }

    /// Runs a request of the panel, then reads the panel again; a failure is the last error.
    private func act(_ what: String, notice: String? = nil, _ request: (SheetEditor) throws -> Void) {
        do {
            try request(self)
            lastError = nil
            reloadPanel(notice: notice)
        } catch {
            fail(error, doing: what)
        }
    }

    private func submit(_ input: PanelInput) {
        let text = FormatField.trimmed(input.text)
        do throws(PanelInputError) {
            switch input.action {
            case .newComment, .reply:
                guard !text.isEmpty else { throw PanelInputError(description: "a comment needs some text") }
                guard text.count <= Self.maxCommentLength else {
                    throw PanelInputError(description: "a comment holds at most \(Self.maxCommentLength) characters (this has \(text.count))")
                }
                let replyTo: Int? = if case .reply(let thread) = input.action { thread } else { nil }
                let ref = panel?.ref ?? selection.active
                act(replyTo == nil ? "comment on \(ref)" : "reply") { try $0.transport.addComment(sheet: $0.sheet, ref: ref, text: text, replyTo: replyTo) }
            case .addGrant:
                let (subject, role) = try Self.grantRequest(text)
                act("grant \(subject) \(role.rawValue)", notice: "\(subject) is now \(role == .editor ? "an" : "a") \(role.rawValue)") {
                    try $0.transport.grant(sheet: $0.sheet, subject: subject, role: role)
                }
            case .sortView: try applyView(TableViewQuery(sort: text, filters: panel?.query.filters ?? []))
            case .filterView:
                let filters = text.split(separator: ";").map { FormatField.trimmed(String($0)) }.filter { !$0.isEmpty }
                try applyView(TableViewQuery(sort: panel?.query.sort ?? "", filters: filters))
            case .editViewCell(let row): saveViewCell(row: row, input.text)
            default: return
            }
        } catch {
            lastError = EditorError(message: error.description, retryable: false)
        }
    }

    /// `bob editor`: the subject (everything before the last word) and a role a grant gives
    /// (viewer, commenter or editor).
    static func grantRequest(_ text: String) throws(PanelInputError) -> (subject: String, role: SheetRole) {
        let words = text.split(whereSeparator: \.isWhitespace)
        guard words.count >= 2, let role = SheetRole(rawValue: words.last!.lowercased()), role != .owner else {
            throw PanelInputError(description: "type a person and a role: viewer, commenter or editor (bob editor)")
        }
        let subject = words.dropLast().joined(separator: " ")
        guard subject.count <= 255, !subject.containsControlCharacters else {
            throw PanelInputError(description: "a person's name is 1 to 255 characters without control characters")
        }
        return (subject, role)
    }
}
