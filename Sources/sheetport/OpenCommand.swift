#if canImport(Glibc)
import Glibc
#endif
import SheetPortCore
import SheetPortConvert
import SheetPortClient
import SheetPortEditing

/// `sheetport open SHEET --server URL`: the terminal grid over the editing core.
enum OpenCommand {
    static let spec = CommandSpec(
        usage: "sheetport open SHEET --server URL [--token-file FILE] [--theme light|dark]",
        about: """
        Opens a sheet of the server (its id or its name) in a full-screen grid for editing. The
        first line is the formula bar (`B2 | =SUM(A1:A3)`, the draft while one is open), the last
        the status line (the version shown, `v17`, and the last error). Only the rows on screen are
        fetched; another writer's change appears as it happens; nothing is written to disk.
        Authored colours are shown in 24 bits where the terminal has them (terminfo's RGB, or
        COLORTERM=truecolor and the terminal family's -direct description), else the nearest.

        Keys: arrows move, Shift-arrows extend the selection, Ctrl-A selects all; typing starts a
        draft (F2 edits the cell's input), Enter commits and moves down, Tab right, Shift-Tab left,
        Alt-Enter up, Escape abandons it; Delete clears the selection; Ctrl-C copies, Ctrl-X cuts,
        Ctrl-V pastes at the active cell; Ctrl-Z undoes your last write; Ctrl-B bold, Alt-I italic,
        Ctrl-D and Ctrl-R fill down and right, Alt-F the format menu; Alt-H the cell's history
        (Enter restores an entry), Alt-M its comments (add, reply, resolve), Alt-S sharing (owners:
        grants and links), Alt-T a table view (sort, filter, edit through source rows); Escape
        closes a panel; Ctrl-G goes to a cell, a range or a name; Alt-=
        inserts SUM (F3: SUM, AVERAGE, COUNT, MIN, MAX and the panels); Ctrl-Q quits, asking save,
        discard or cancel when a draft is not saved.

        Exit status: 0 closed, 2 usage or network error, 143 terminated (SIGTERM, SIGHUP: the
        terminal is restored).
        """,
        groups: [OptionGroup(title: "OPTIONS", options: ClientOptions.options + [
            .valued("--theme", "THEME", "light or dark (default the theme chosen on the web page; dark for system)"),
            .help,
        ])])

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try spec.parse(arguments)
        if options.has("--help") { print(spec.help); return 0 }
        guard options.positionals.count == 1, let given = options.positionals.first else {
            throw UsageError("open takes one sheet (its id or its name)\n\n" + spec.help)
        }
        if let given = options.value("--theme"), !["dark", "light"].contains(given) { throw UsageError("--theme takes light or dark") }
        let connection = try ClientOptions.connection(options)
        let client = HTTPClient(connectTimeout: 10, timeout: try ClientOptions.timeout(options) ?? 60)
        // Without --theme, the person's choice on the page (a terminal cannot follow `system`: dark).
        let theme: Contrast.Mode = (options.value("--theme") ?? connection.preferredTheme(client: client)) == "light" ? .light : .dark
        let sheets = try connection.sheets(client: client)
        guard let sheet = try ServerConnection.sheet(given, in: sheets) else {
            throw UsageError("no sheet \"\(given.visibleControlCharacters)\" on \(connection.baseURL) for this token")
        }
        guard isatty(0) != 0, isatty(1) != 0 else { throw UsageError("open needs a terminal on standard input and output") }
        let transport = HTTPEditingTransport(connection: connection, timeout: try ClientOptions.timeout(options) ?? 30)
        let limits = try? transport.limits()
        let grid = GridSize(rows: limits?.maxRows ?? CellReference.maxRow, columns: limits?.maxColumns ?? CellReference.maxColumn)
        let editor = SheetEditor(sheet: sheet.id, transport: transport, grid: grid)
        // A server that names no role (an older one): the grid lets the person try, and the
        // server refuses what the role does not allow.
        editor.role = SheetRole(rawValue: sheet.role) ?? .editor
        return TerminalGrid(editor: editor, sheetName: sheet.name, theme: theme).run()
    }
}
