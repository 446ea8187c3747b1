#if canImport(Glibc)
import Glibc
#endif
import Foundation
import CNcurses
import SheetPortCore
import SheetPortConvert
import SheetPortEditing

/// The terminal grid on ncurses: draws the editor's window, turns keys into `EditorKey`s and
/// hands the sheet's events (read on a thread of their own) to the editor between keys. It
/// sleeps in `poll` on the terminal and the inbox's wake pipe, so another writer's change is
/// fetched and drawn as soon as its event arrives, not at the next tick.
final class TerminalGrid {
    let editor: SheetEditor
    let sheetName: String
    let theme: Contrast.Mode
    /// The first row and column on screen.
    private var top = 1, left = 1
    private let inbox = EventInbox()
    private var colors: TerminalColors!
    private static let gutter = 8

    init(editor: SheetEditor, sheetName: String, theme: Contrast.Mode) {
        self.editor = editor
        self.sheetName = sheetName
        self.theme = theme
    }

    /// Runs until Ctrl-Q (answered) or SIGTERM/SIGHUP; the terminal is restored either way.
    func run() -> Int32 {
        TerminationSignal.install()
        setlocale(LC_ALL, "")
        let direct = TerminalColors.directTerminal(environment: ProcessInfo.processInfo.environment)
        let started = direct.map { sp_start_screen($0) } ?? sp_start_screen(nil)
        guard started != 0 else {
            FileHandle.standardError.write(Data("sheetport: cannot start the terminal \"\(ProcessInfo.processInfo.environment["TERM"] ?? "")\"\n".utf8))
            return 2
        }
        raw()
        noecho()
        nonl()
        keypad(sp_stdscr(), true)
        set_escdelay(25)
        colors = TerminalColors(theme: theme)
        defer { endwin() }
        startEvents()
        defer { inbox.stop() }
        while !editor.isClosed, TerminationSignal.received == 0 {
            for event in inbox.take() { editor.receive(event) }
            let height = Int(sp_lines()), width = Int(sp_cols())
            let lines = max(height - 3, 1), room = max(width - Self.gutter, 1)
            scrollToActive(lines: lines, room: room)
            editor.show(start: top, count: fitting(from: top, in: lines, span: lineSpan))
            draw(height: height, width: width, visibleRows: fitting(from: top, in: lines, span: lineSpan),
                 visibleColumns: fitting(from: left, in: room, span: columnSpan))
            timeout(0)
            let read = readKey()
            guard case .key(let key) = read else {
                // Nothing typed: sleep until a key, an event (the wake pipe) or a signal; at most
                // 0.1 s, so SIGTERM on another thread and SIGWINCH are seen within that.
                if case .nothing = read, inbox.isEmpty { _ = sp_wait_input(inbox.wakeDescriptor, 100) }
                inbox.drainWake()
                continue
            }
            editor.handle(key)
            if case .grid = editor.focus { editor.refreshIfNeeded() }
        }
        return TerminationSignal.received == 0 ? 0 : 143
    }

    private func startEvents() {
        let transport = editor.transport, sheet = editor.sheet, version = editor.version, inbox = self.inbox
        nonisolated(unsafe) let follow = transport
        let thread = Thread {
            do {
                try follow.followEvents(sheet: sheet, after: version == 0 ? nil : version, stop: { inbox.isStopped }, event: { inbox.put($0) })
            } catch {
                // A refusal (the token revoked, access taken away): no more live updates, and
                // the status line says so rather than showing a screen that silently goes stale.
                inbox.end("\(error)")
            }
        }
        thread.start()
    }

    /// Terminal columns of `column`: its width in characters (at least 1), and one between columns.
    private func columnSpan(_ column: Int) -> Int { CellSizes.terminalColumns(forWidth: editor.sizes.width(ofColumn: column)) + 1 }
    /// Terminal lines of `row`: its height in default rows (at least 1).
    private func lineSpan(_ row: Int) -> Int { CellSizes.terminalLines(forHeight: editor.rowHeight(row)) }

    /// How many rows (columns) from `first` fit in `room` lines (terminal columns): at least one.
    private func fitting(from first: Int, in room: Int, span: (Int) -> Int) -> Int {
        var used = 0, count = 0
        while first + count <= Int(CellReference.maxRow) {
            used += span(first + count)
            guard used <= room || count == 0 else { break }
            count += 1
        }
        return max(count, 1)
    }

    private func scrollToActive(lines: Int, room: Int) {
        let active = editor.selection.active
        if active.row < top { top = active.row }
        while active.row >= top + fitting(from: top, in: lines, span: lineSpan) { top += 1 }
        if active.column < left { left = active.column }
        while active.column >= left + fitting(from: left, in: room, span: columnSpan) { left += 1 }
    }

    // MARK: Drawing

    private func draw(height: Int, width: Int, visibleRows: Int, visibleColumns: Int) {
        erase()
        _ = sp_attr_set(colors.base.attributes, colors.base.pair)
        // Line 1: the formula bar, or the address field while it has the focus.
        switch editor.focus {
        case .addressField(let text):
            put(0, 0, "Go to: \(text.visibleControlCharacters)", width: width,
                look: TerminalLook(attributes: colors.base.attributes | sp_attr_bold(), pair: colors.base.pair))
        case .formatField(let field, let text):
            let preview = editor.formatPreview.map { "  preview: " + $0.visibleControlCharacters } ?? ""
            put(0, 0, "\(field.prompt): \(text.visibleControlCharacters)\(preview)", width: width,
                look: TerminalLook(attributes: colors.base.attributes | sp_attr_bold(), pair: colors.base.pair))
        default: put(0, 0, editor.formulaBar.visibleControlCharacters, width: width, look: colors.base)
        }
        // Line 2: column letters.
        put(1, 0, String(repeating: " ", count: Self.gutter), width: width, look: colors.header)
        let range = editor.selection.range
        var offsets: [Int] = []
        var x = Self.gutter
        for index in 0..<visibleColumns {
            let column = left + index
            guard column <= editor.grid.columns else { break }
            offsets.append(x)
            let span = columnSpan(column)
            put(1, x, Self.centered(CellReference.columnName(column), span), width: width, look: colors.header)
            x += span
        }
        var line = 2
        for rowIndex in 0..<visibleRows {
            let row = top + rowIndex, lines = lineSpan(row)
            guard row <= editor.grid.rows, line < height - 1 else { break }
            // A taller row takes more lines: its text on the last, as Excel sets text at the bottom.
            let textLine = min(line + lines - 1, height - 2)
            put(textLine, 0, Self.padded(String(row), Self.gutter - 1, right: true) + " ", width: width, look: colors.header)
            defer { line += lines }
            for (index, offset) in offsets.enumerated() {
                let column = left + index
                let cellWidth = columnSpan(column) - 1
                let ref = CellReference(row: row, column: column)
                let cell = editor.cells[ref]
                var text = cell?.display ?? ""
                if let draft = editor.draft, draft.ref == ref { text = draft.text }
                let drafting = editor.draft?.ref == ref
                if cell?.isNumber == true && !drafting { text = ColumnFit.number(text, width: cellWidth) }
                let alignment = drafting ? .left : cell?.effectiveAlignment ?? .left
                var look = colors.look(fill: cell?.fill, color: cell?.color)
                if cell?.bold == true { look.attributes |= sp_attr_bold() }
                if cell?.italic == true { look.attributes |= sp_attr_italic() }
                let selected = row >= range.start.row && row <= range.end.row && column >= range.start.column && column <= range.end.column
                if ref == editor.selection.active { look = colors.active } else if selected { look.attributes |= sp_attr_reverse() }
                for blank in line..<textLine { put(blank, offset, String(repeating: " ", count: cellWidth), width: width, look: look) }
                put(textLine, offset, Self.aligned(text.visibleControlCharacters, cellWidth, alignment) + " ", width: width, look: look)
            }
        }
        drawFormatMenu(width: width)
        drawPanel(height: height, width: width)
        put(height - 1, 0, statusLine(width: width), width: width, look: colors.status)
        move(0, Int32(min(editor.formulaBar.count, width - 1)))
        refresh()
    }

    /// The format menu, a box over the grid's top-left corner while it has the focus.
    private func drawFormatMenu(width: Int) {
        guard case .formatMenu(let chosen) = editor.focus else { return }
        let entries = FormatMenuEntry.allCases
        let inner = entries.map(\.title.count).max()! + 2
        put(2, Self.gutter, "+" + String(repeating: "-", count: inner) + "+", width: width, look: colors.header)
        for (index, entry) in entries.enumerated() {
            var look = colors.header
            if index == chosen { look.attributes |= sp_attr_reverse() }
            put(3 + index, Self.gutter, "| " + Self.padded(entry.title, inner - 1, right: false) + "|", width: width, look: look)
        }
        put(3 + entries.count, Self.gutter, "+" + String(repeating: "-", count: inner) + "+", width: width, look: colors.header)
    }

    /// The open panel over the grid, between the formula bar and the status line.
    private func drawPanel(height: Int, width: Int) {
        guard case .panel = editor.focus, let panel = editor.panel else { return }
        // Laid out at most 100 columns wide (lines stay readable) over the whole width (no
        // half-cut cells beside it).
        let rows = panel.layout(width: min(width, 100), height: max(height - 2, 0))
        for line in 1...max(height - 2, 1) where line < height - 1 {
            let row = line - 1 < rows.count ? rows[line - 1] : nil
            var look = colors.header
            if row?.isChosen == true { look.attributes |= sp_attr_reverse() }
            if line == 1 { look.attributes |= sp_attr_bold() }
            put(line, 0, Self.padded(row?.text ?? "", width, right: false), width: width, look: look)
        }
    }

    /// The last line: the version shown, the sheet, the selection, then a question, the menu or
    /// the last error, and the readability warning for the active cell's colours.
    private func statusLine(width: Int) -> String {
        var parts = ["v\(editor.version)", sheetName.visibleControlCharacters, editor.selection.range.description(in: editor.grid)]
        if editor.isReadOnly { parts.append("read-only") }
        if editor.pendingNavigation != nil {
            parts.append("Draft not saved: [s]ave, [d]iscard, [c]ancel")
        } else if case .functionMenu(let index) = editor.focus {
            // The menu takes the room the line has left, scrolled to keep the chosen entry seen.
            let room = width - parts.joined(separator: "  ").count - "  Insert: ".count
            parts.append("Insert: " + GridMenuEntry.line(selected: index, width: max(room, 12)))
        }
        if case .formatMenu(let index) = editor.focus {
            parts.append("Format: " + FormatMenuEntry.allCases[index].title + " (Up/Down/Left/Right, Enter, Escape)")
        }
        if let error = editor.lastError { parts.append("error: " + error.message.visibleControlCharacters) }
        if let ended = inbox.endedReason { parts.append("error: live updates stopped: " + ended.visibleControlCharacters) }
        if let cell = editor.cells[editor.selection.active],
           let poor = Contrast.poorModes(text: cell.color, fill: cell.fill).first(where: { $0.mode == theme }) {
            parts.append(String(format: "warning: %@'s colours are hard to read in the %@ theme (%.1f:1, below 4.5:1)",
                                editor.selection.active.description, theme.rawValue, poor.ratio))
        }
        return parts.joined(separator: "  ")
    }

    private func put(_ line: Int, _ column: Int, _ text: String, width: Int, look: TerminalLook) {
        guard column < width, line >= 0, line < Int(sp_lines()) else { return }
        _ = sp_attr_set(look.attributes, look.pair)
        let room = width - column
        var clipped = ""
        var used = 0
        for character in text {
            let cells = character.isASCII ? 1 : max(Int(sp_wcwidth(character.unicodeScalars.first!.value)), 1)
            guard used + cells <= room else { break }
            clipped.append(character)
            used += cells
        }
        mvaddstr(Int32(line), Int32(column), clipped)
        _ = sp_attr_set(colors.base.attributes, colors.base.pair)
    }

    static func padded(_ text: String, _ width: Int, right: Bool) -> String {
        let cut = text.count > width ? String(text.prefix(max(width - 1, 0))) + "…" : text
        let fill = String(repeating: " ", count: max(width - cut.count, 0))
        return right ? fill + cut : cut + fill
    }

    /// `text` inside `width` columns as `alignment` places it (cut with an ellipsis when longer).
    static func aligned(_ text: String, _ width: Int, _ alignment: CellAlignment) -> String {
        switch alignment {
        case .left: padded(text, width, right: false)
        case .right: padded(text, width, right: true)
        case .center: text.count >= width ? padded(text, width, right: false) : centered(text, width)
        }
    }

    static func centered(_ text: String, _ width: Int) -> String {
        let before = max((width - text.count) / 2, 0)
        return padded(String(repeating: " ", count: before) + text, width, right: false)
    }

    // MARK: Keys

    /// What a read of the terminal gave.
    private enum KeyRead {
        /// Nothing was waiting.
        case nothing
        /// A key without a meaning here.
        case ignored
        case key(EditorKey)
    }

    private func readKey() -> KeyRead {
        var character: wint_t = 0
        let kind = get_wch(&character)
        if kind == ERR { return .nothing }
        return editorKey(kind, character).map(KeyRead.key) ?? .ignored
    }

    /// The key `get_wch` read as the editor's, or nil (one without a meaning).
    private func editorKey(_ kind: Int32, _ character: wint_t) -> EditorKey? {
        let code = Int32(bitPattern: character)
        if kind == KEY_CODE_YES {
            switch code {
            case KEY_UP: return .arrow(.up)
            case KEY_DOWN: return .arrow(.down)
            case KEY_LEFT: return .arrow(.left)
            case KEY_RIGHT: return .arrow(.right)
            case KEY_SR: return .extend(.up)
            case KEY_SF: return .extend(.down)
            case KEY_SLEFT: return .extend(.left)
            case KEY_SRIGHT: return .extend(.right)
            case KEY_ENTER: return .enter
            case KEY_BTAB: return .reverseTab
            case KEY_BACKSPACE: return .backspace
            case KEY_DC: return .delete
            case KEY_F0 + 2: return .edit
            case KEY_F0 + 3: return .functionMenu
            default: return nil
            }
        }
        switch code {
        case 13, 10: return .enter
        case 9: return .tab
        case 27: return escapeSequence()
        case 127, 8: return .backspace
        case 1: return .selectAll
        case 2: return .bold
        case 3: return .copy
        case 4: return .fillDown
        case 18: return .fillRight
        case 22: return .paste
        case 24: return .cut
        case 26: return .undo
        case 7: return .goTo
        case 17: return .quit
        case 0..<32: return nil
        default:
            guard let scalar = Unicode.Scalar(UInt32(character)) else { return nil }
            // Every printable key starts or continues a draft with itself: no letter is a command
            // (`y` and `p` once copied and pasted, so `paid` pasted a block and stored `aid`).
            return .text(String(Character(scalar)))
        }
    }

    /// After ESC: Alt-Enter (ESC CR), Alt-= (ESC =), Alt-I (ESC i), Alt-F (ESC f), Alt-H, Alt-M,
    /// Alt-S and Alt-T (the history, comments, sharing and table view panels), else Escape itself.
    private func escapeSequence() -> EditorKey? {
        timeout(0)
        var next: wint_t = 0
        let kind = get_wch(&next)
        guard kind != ERR else { return .escape }
        switch Int32(bitPattern: next) {
        case 13, 10: return .reverseEnter
        case 61: return .insertFunction(.sum)
        case 105, 73: return .italic // Alt-I: Ctrl-I is Tab to a terminal
        case 102, 70: return .formatMenu
        case 104, 72: return .panel(.history)
        case 109, 77: return .panel(.comments)
        case 115, 83: return .panel(.sharing)
        case 116, 84: return .panel(.table)
        default:
            // Escape, then another key typed fast: the key is kept for the next read.
            if kind == KEY_CODE_YES { ungetch(Int32(bitPattern: next)) } else { unget_wch(wchar_t(bitPattern: next)) }
            return .escape
        }
    }
}

/// The sheet's events, put by the stream's thread and taken by the grid's; each put writes a
/// byte to a pipe the grid's `poll` watches, so the grid wakes for it at once.
final class EventInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [SheetEvent] = []
    private var stopped = false
    private var pipeEnds: [Int32] = [-1, -1]

    init() {
        if pipe(&pipeEnds) == 0 {
            // Neither end ever blocks: a full pipe already says "wake up".
            for end in pipeEnds { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK); _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        }
    }

    deinit { for end in pipeEnds where end >= 0 { close(end) } }

    /// The end the grid polls (-1 without a pipe: the grid then wakes every 0.1 s).
    var wakeDescriptor: Int32 { pipeEnds[0] }

    func put(_ event: SheetEvent) {
        lock.withLock { events.append(event) }
        var byte: UInt8 = 1
        _ = write(pipeEnds[1], &byte, 1)
    }

    func take() -> [SheetEvent] { lock.withLock { defer { events = [] }; return events } }

    /// Why the stream ended for good, once it has.
    private var ended: String?
    var endedReason: String? { lock.withLock { ended } }

    /// The stream ended for good (`reason`); the grid is woken to show it.
    func end(_ reason: String) {
        lock.withLock { ended = reason }
        var byte: UInt8 = 1
        _ = write(pipeEnds[1], &byte, 1)
    }
    var isEmpty: Bool { lock.withLock { events.isEmpty } }

    /// Empties the wake pipe (the events themselves are taken with `take`).
    func drainWake() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(pipeEnds[0], &buffer, buffer.count) > 0 {}
    }

    func stop() { lock.withLock { stopped = true } }
    var isStopped: Bool { lock.withLock { stopped } }
}

/// SIGTERM and SIGHUP end the grid between two keys (within 0.1 s), the terminal restored.
enum TerminationSignal {
    nonisolated(unsafe) static var received: sig_atomic_t = 0

    static func install() {
        signal(SIGTERM) { TerminationSignal.received = $0 }
        signal(SIGHUP) { TerminationSignal.received = $0 }
        // A parent may have left them blocked (a test runner's thread): they must reach the grid.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGTERM)
        sigaddset(&unblock, SIGHUP)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }
}
