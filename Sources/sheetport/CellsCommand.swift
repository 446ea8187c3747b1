import Foundation
import SheetPortCore
import SheetPortWriter
import SheetPortConvert
import SheetPortClient
import SheetPortEditing

/// `sheetport cells get|set`: a script's reads and writes of a server's cells (Docs/Reference/CLI.md, "sheetport cells").
enum CellsCommand {
    static let spec = CommandSpec(
        usage: "sheetport cells get SHEET RANGE [--to csv|jsonl] | cells set SHEET REF=INPUT... [--from FILE.csv [--at REF]] --server URL",
        about: """
        get: prints the cells of RANGE (like B2:D40, or one cell) of a server's sheet (its id or
        its name) as CSV (the values, a line a row of the range) or JSONL (Docs/Reference/Formats.md's
        cell objects with `input` and `display`, one line a non-empty cell).

        set: writes inputs as a person types them (`12`, `1,234.5`, `12%`, `2026-03-01`, `TRUE`,
        `=SUM(A1:A3)`, `'007` for the text 007; an empty input clears the cell), in one atomic
        write: REF=INPUT arguments, or the fields of a CSV file laid out from --at (default A1),
        each field an input (so `007` becomes the number 7). A batch over the server's
        maxBatchCells or maxBatchBytes is refused before anything is sent. Prints the sheet's new
        version and the cells whose values changed.

        Exit status: 0 done, 1 the server refused the write, 2 usage, network or I/O error.
        """,
        groups: [OptionGroup(title: "OPTIONS", options: ClientOptions.options + [
            .valued("--to", "FORMAT", "get: csv (default) or jsonl"),
            .valued("--from", "FILE", "set: a CSV file whose fields are the inputs"),
            .valued("--at", "REF", "set --from: the cell the file's first field goes to (default A1)"),
            .flag("--json", "set: the server's answer as one JSON object"),
            .help,
        ])])

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try spec.parse(arguments)
        if options.has("--help") { print(spec.help); return 0 }
        guard options.positionals.count >= 2, let verb = options.positionals.first else {
            throw UsageError("cells takes get or set, then a sheet\n\n" + spec.help)
        }
        let given = options.positionals[1], rest = Array(options.positionals.dropFirst(2))
        let connection = try ClientOptions.connection(options)
        let client = HTTPClient(connectTimeout: 10, timeout: try ClientOptions.timeout(options) ?? 60)
        switch verb {
        case "get":
            guard rest.count == 1, let range = CellRange(rest[0].uppercased()) else {
                throw UsageError("cells get takes one range, like B2:D40\n\n" + spec.help)
            }
            let format = options.value("--to") ?? "csv"
            guard format == "csv" || format == "jsonl" else { throw UsageError("--to takes csv or jsonl") }
            let sheet = try find(given, connection, client)
            let (_, rows) = try connection.rows(of: sheet.id, in: range, client: client)
            try format == "csv" ? printCSV(rows, range) : printJSONL(rows)
            return 0
        case "set":
            let inputs = try self.inputs(rest, from: options.value("--from"), at: options.value("--at"))
            let transport = HTTPEditingTransport(connection: connection, timeout: try ClientOptions.timeout(options) ?? 60)
            let limits = try transport.limits()
            if let refused = refusal({ () throws(PasteError) in try SheetEditor.checkBatch(inputs, limits: limits) }) {
                StandardError.write("sheetport: cells set refused before sending: \(refused)")
                return 1
            }
            let sheet = try find(given, connection, client)
            let result: WriteResult
            do {
                result = try transport.writeCells(sheet: sheet.id, inputs)
            } catch let error as TransportError where !error.retryable && error.status >= 400 && error.status < 500 {
                StandardError.write("sheetport: \"\(sheet.name.visibleControlCharacters)\": \(error.description.visibleControlCharacters)")
                return 1
            }
            if options.has("--json") {
                ClientOptions.printJSON(["version": result.version, "more": result.more,
                                         "changed": result.changed.sorted { ($0.key.row, $0.key.column) < ($1.key.row, $1.key.column) }.map {
                                             ["ref": $0.key.description, "input": $0.value.input, "type": $0.value.type, "display": $0.value.display]
                                         }])
            } else {
                print("version \(result.version): wrote \(inputs.count) cell\(inputs.count == 1 ? "" : "s")")
                for (ref, cell) in result.changed.sorted(by: { ($0.key.row, $0.key.column) < ($1.key.row, $1.key.column) }) {
                    print("\(ref)\t\(cell.display.visibleControlCharacters)\t\(cell.input.visibleControlCharacters)")
                }
                if result.more { print("(more cells changed than the server lists)") }
            }
            return 0
        default:
            throw UsageError("cells takes get or set, not \"\(verb.visibleControlCharacters)\"\n\n" + spec.help)
        }
    }

    /// The inputs of `set`: REF=INPUT arguments, or a CSV file's fields from `at`.
    static func inputs(_ pairs: [String], from file: String?, at: String?) throws -> [CellEdit] {
        if let file {
            guard pairs.isEmpty else { throw UsageError("cells set takes REF=INPUT arguments or --from FILE, not both") }
            guard let origin = CellReference((at ?? "A1").uppercased()) else { throw UsageError("--at takes a cell, like B2") }
            var reader = try DelimitedReader(input: try ByteInput(path: file), dialect: .csv)
            var rows: [[String]] = []
            while let record = try reader.nextRecord() { rows.append(record) }
            var inputs: [CellEdit] = []
            if let refused = refusal({ () throws(PasteError) in
                inputs = try SheetEditor.blockInputs(rows, at: origin, limits: EditingLimits(maxBatchCells: .max, maxBatchBytes: .max), grid: GridSize())
            }) {
                throw UsageError("\(file.visibleControlCharacters): \(refused)")
            }
            return inputs
        }
        guard at == nil else { throw UsageError("--at goes with --from") }
        guard !pairs.isEmpty else { throw UsageError("cells set takes REF=INPUT arguments or --from FILE.csv") }
        return try pairs.map { pair in
            guard let equals = pair.firstIndex(of: "="), let ref = CellReference(String(pair[..<equals]).uppercased()) else {
                throw UsageError("\"\(pair.visibleControlCharacters)\" is not REF=INPUT (like B2=12 or B3==SUM(B1:B2))")
            }
            return CellEdit(ref: ref, input: String(pair[pair.index(after: equals)...]))
        }
    }

    /// Why `body` refused a batch, in a script's words; nil when it did not.
    static func refusal(_ body: () throws(PasteError) -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return refusal(error)
        }
    }

    private static func refusal(_ error: PasteError) -> String {
        switch error {
        case let .tooManyCells(cells, cap): "\(cells) cells is over the server's maxBatchCells of \(cap); nothing was sent"
        case let .tooManyBytes(bytes, cap): "\(bytes) bytes is over the server's maxBatchBytes of \(cap); nothing was sent"
        case .offGrid(let range): "\(range) reaches past the sheet's edge; nothing was sent"
        case .empty: "there are no fields to write"
        }
    }

    private static func find(_ given: String, _ connection: ServerConnection, _ client: HTTPClient) throws -> RemoteSheet {
        guard let sheet = try ServerConnection.sheet(given, in: try connection.sheets(client: client)) else {
            throw ClientError.notFound(url: connection.url("/api/sheets"), what: "sheet \"\(given.visibleControlCharacters)\"")
        }
        return sheet
    }

    /// The range's values as CSV, a line a row from its first row, a field a column from its first column.
    private static func printCSV(_ rows: [RemoteRow], _ range: CellRange) throws {
        let output = ByteOutput(descriptor: 1, name: "standard output")
        var writer = DelimitedWriter(output: output, dialect: .csv, dateSystem: .excel1900)
        for row in rows {
            let cells = row.cells.compactMap { object -> Cell? in
                guard let ref = (object["ref"] as? String).flatMap({ CellReference($0) }) else { return nil }
                return Cell(column: ref.column - range.start.column + 1, value: shown(value(object)))
            }
            try writer.write(Row(index: row.row - range.start.row + 1, cells: cells), dimension: "A1:\(CellReference(row: range.rowCount, column: range.columnCount))")
        }
        try output.flush()
    }

    /// A text value with its control characters made visible (`\u{1B}`, a backslash then doubled):
    /// a cell's text is anyone's, and CSV on a terminal must not drive it. Text without control
    /// characters is printed as it is.
    private static func shown(_ value: CellValue) -> CellValue {
        switch value {
        case .string(let text) where text.containsControlCharacters: .string(text.visibleControlCharacters)
        case .error(let text) where text.containsControlCharacters: .error(text.visibleControlCharacters)
        default: value
        }
    }

    /// A server cell's value as the reader's: dates stay the ISO text the server sends.
    private static func value(_ object: [String: Any]) -> CellValue {
        let type = object["type"] as? String
        switch object["value"] {
        case let number as NSNumber where String(cString: number.objCType) == "c": return .boolean(number.boolValue)
        case let number as NSNumber: return .number(number.doubleValue)
        case let text as String: return type == "error" ? .error(text) : .string(text)
        default: return .empty
        }
    }

    /// Section 2's cell objects with `input` and `display`, a line a cell.
    private static func printJSONL(_ rows: [RemoteRow]) throws {
        let output = ByteOutput(descriptor: 1, name: "standard output")
        for cell in rows.flatMap(\.cells) {
            var members: [(String, JSON)] = [("ref", .string(cell["ref"] as? String ?? "")), ("type", .string(cell["type"] as? String ?? "empty"))]
            switch value(cell) {
            case .boolean(let flag): members.append(("value", .bool(flag)))
            case .number(let number): members.append(("value", .number(number)))
            case .string(let text), .error(let text): members.append(("value", .string(text)))
            default: members.append(("value", .null))
            }
            for key in ["formula", "input", "display"] { if let text = cell[key] as? String { members.append((key, .string(text))) } }
            try output.write(ClientOptions.terminalSafe(json: JSON.object(members).text) + "\n")
        }
        try output.flush()
    }
}
