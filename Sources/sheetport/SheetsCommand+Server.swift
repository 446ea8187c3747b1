import Foundation
import SheetPortClient
import SheetPortCore

/// `sheetport sheets --server URL`: the server's sheets the token may read, and creating,
/// renaming and deleting them (Docs/Reference/CLI.md, "sheetport sheets").
extension SheetsCommand {
    static func runOnServer(_ options: Arguments) throws -> Int32 {
        let actions = ["--create", "--rename", "--delete"].filter { options.value($0) != nil }
        guard actions.count <= 1 else { throw UsageError("give one of --create, --rename and --delete\n\n" + spec.help) }
        let expected = actions.first == "--rename" ? 1 : 0
        guard options.positionals.count == expected else {
            throw UsageError((expected == 1 ? "--rename takes the sheet's id and the new name: --rename ID NAME"
                                            : "sheets --server takes no file") + "\n\n" + spec.help)
        }
        let connection = try ClientOptions.connection(options)
        let client = HTTPClient(connectTimeout: 10, timeout: try ClientOptions.timeout(options) ?? 60)
        let json = options.has("--json")
        if let name = options.value("--create") {
            report(try connection.createSheet(named: name, client: client), "created", json: json)
        } else if let id = options.value("--rename") {
            report(try connection.renameSheet(id, to: options.positionals[0], client: client), "renamed", json: json)
        } else if let id = options.value("--delete") {
            try connection.deleteSheet(id, client: client)
            if json { ClientOptions.printJSON(["deleted": id]) } else { print("deleted \(id.visibleControlCharacters)") }
        } else {
            list(try connection.sheets(client: client), server: connection.url(""), json: json)
        }
        return 0
    }

    private static func members(_ sheet: RemoteSheet) -> [String: Any] {
        ["id": sheet.id, "name": sheet.name, "role": sheet.role, "rows": sheet.rows, "columns": sheet.columns, "version": sheet.version]
    }

    private static func line(_ sheet: RemoteSheet) -> String {
        // Names and ids come from the server: control characters are shown escaped.
        "\(sheet.id.visibleControlCharacters)  \"\(sheet.name.visibleControlCharacters)\"  \(sheet.role.visibleControlCharacters)  "
            + "\(sheet.rows) rows x \(sheet.columns) columns  v\(sheet.version)"
    }

    private static func report(_ sheet: RemoteSheet, _ done: String, json: Bool) {
        if json { ClientOptions.printJSON(["sheet": members(sheet)]) } else { print("\(done) " + line(sheet)) }
    }

    private static func list(_ sheets: [RemoteSheet], server: String, json: Bool) {
        if json { ClientOptions.printJSON(["sheets": sheets.map(members)]); return }
        print("\(server.visibleControlCharacters): \(sheets.count) sheet\(sheets.count == 1 ? "" : "s")")
        for sheet in sheets { print("  " + line(sheet)) }
    }
}
