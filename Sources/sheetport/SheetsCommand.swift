import Foundation
import SheetPortCore
import SheetPortReader
import SheetPortConvert
import SheetPortClient
import SheetPortServer

/// `sheetport sheets FILE [--json]`: every sheet in tab order (Docs/Reference/Formats.md, "Sheet lists");
/// with `--server`, a server's sheets (`SheetsCommand+Server.swift`).
enum SheetsCommand {
    static let spec = CommandSpec(
        usage: """
        sheetport sheets FILE [--json] [limits]
               sheetport sheets --server URL [--json] [--create NAME | --rename ID NAME | --delete ID]
        """,
        about: """
        Lists every sheet of an xlsx/xlsm workbook in tab order: its position, name, kind
        (worksheet, chartsheet, dialogsheet, macrosheet), state (visible, hidden, veryHidden)
        and, for worksheets, the rows and columns of the used range, found from the cells (not
        from the sheet's <dimension>, which producers often get wrong). FILE may be `-`.

        With --server, lists the server's sheets the token may read (id, name, role, rows x
        columns of the used range, version), or creates, renames or deletes one.

        Exit status: 0 listed (or done), 2 usage, I/O or network error, a refusal by the
        server, or a workbook that cannot be read.
        """,
        groups: [
            OptionGroup(title: "OPTIONS", options: [
                .flag("--json", "machine output (Docs/Reference/Formats.md): one object on stdout"),
                .help,
            ]),
            LimitOptions.group(),
            OptionGroup(title: "SERVER (instead of FILE)", options: ClientOptions.options + [
                .valued("--create", "NAME", "creates an empty sheet named NAME, owned by you"),
                .valued("--rename", "ID", "renames sheet ID to the NAME given after it (editors and owners)"),
                .valued("--delete", "ID", "deletes sheet ID (owners only)"),
            ]),
        ])

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try spec.parse(arguments)
        if options.has("--help") { print(spec.help); return 0 }
        if options.value("--server") != nil { return try runOnServer(options) }
        for option in ["--create", "--rename", "--delete", "--token-file", "--retries", "--timeout"] where options.value(option) != nil {
            throw UsageError("\(option) needs --server URL\n\n" + spec.help)
        }
        guard options.positionals.count == 1, let file = options.positionals.first else {
            throw UsageError("sheets takes one workbook file\n\n" + spec.help)
        }
        let limits = try LimitOptions.limits(options)
        let workbook = file == "-" ? try Workbook(bytes: StandardInput.readAll(limit: limits.maxTotalSize), name: "-", limits: limits)
                                   : try Workbook(path: file, limits: limits)
        var listed: [(sheet: Sheet, range: UsedRange?)] = []
        for sheet in workbook.sheets {
            listed.append((sheet, sheet.kind == .worksheet ? try workbook.usedRange(of: sheet) : nil))
        }
        if options.has("--json") {
            print(JSON.object([
                ("file", .string(file)),
                ("sheets", .array(listed.map { sheet, range in
                    var members: [(String, JSON)] = [("index", .int(sheet.position)), ("name", .string(sheet.name)),
                                                     ("kind", .string(sheet.kind.rawValue)), ("state", .string(sheet.state.rawValue))]
                    if let range { members += [("rows", .int(range.rows)), ("columns", .int(range.columns))] }
                    return .object(members)
                })),
            ]).text)
            return 0
        }
        // For a person: names may hold anything, so control characters are shown escaped.
        let names = listed.map { "\"" + $0.sheet.name.visibleControlCharacters + "\"" }
        let width = min(names.map(\.count).max() ?? 0, 40)
        print("\(file.visibleControlCharacters): \(listed.count) sheet\(listed.count == 1 ? "" : "s")")
        for ((sheet, range), name) in zip(listed, names) {
            var line = String(sheet.position).leftPadded(to: 4) + "  " + name.padding(toLength: max(width, name.count), withPad: " ", startingAt: 0)
                + "  " + sheet.kind.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)
                + "  " + sheet.state.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
            if let range { line += "  \(range.rows) rows x \(range.columns) columns" }
            print(line.trimmingTrailingSpaces)
        }
        return 0
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
