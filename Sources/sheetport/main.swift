#if canImport(Glibc)
import Glibc
#endif
import SheetPortCore
import SheetPortClient
import SheetPortReader
import SheetPortConvert
import SheetPortServer

/// The version printed by `sheetport --version`.
let version = "0.1.0"

let usage = """
USAGE: sheetport <command> [options]

COMMANDS:
  check      pre-flight workbooks before import: importable or not, and what will not survive
  convert    convert worksheets of an xlsx/xlsm workbook to CSV, TSV, JSONL or NDJSON records, or text to xlsx
  sheets     list a workbook's sheets in tab order: kind, hidden or not, rows and columns
  import     upload a workbook to a server as an import job (`--wait` follows it)
  export     export sheets from a server to xlsx files through private staging
  cells      read or write a server's cells (`cells get SHEET B2:D9`, `cells set SHEET B2==A1*2`)
  open       edit a server's sheet in a full-screen terminal grid
  demo       the main job: check, serve, import and export a bundled workbook, all on loopback
  bench      streaming benchmarks (`bench write`: write a generated sheet)
  serve      the embedded import/export server (HTTP, sealed SQLite store)
  token      issue or revoke the server's session tokens
  key        rotate or retire the server's sealing key, or show a key file's fingerprint

Run `sheetport <command> --help` for a command's options; `sheetport --version` for the version.
"""

/// Runs a command and maps errors to exit statuses (Docs/Reference/CLI.md, "Exit status").
func main(_ arguments: [String]) -> Int32 {
    guard let command = arguments.first else {
        StandardError.write(usage)
        return 2
    }
    // In the usage's order: a misspelling's hint takes the first of equally near names.
    let commands: [(name: String, run: ([String]) throws -> Int32)] = [
        ("check", CheckCommand.run), ("convert", ConvertCommand.run), ("sheets", SheetsCommand.run),
        ("import", ImportCommand.run), ("export", ExportCommand.run), ("cells", CellsCommand.run),
        ("open", OpenCommand.run), ("demo", DemoCommand.run), ("bench", BenchCommand.run),
        ("serve", ServeCommand.run), ("token", TokenCommand.run), ("key", KeyCommand.run),
    ]
    do {
        switch command {
        case "--version", "-V", "version": print("sheetport \(version)"); return 0
        case "--help", "-h", "help": print(usage); return 0
        default:
            guard let run = commands.first(where: { $0.name == command })?.run else {
                let hint = Suggestion.nearest(to: command, among: commands.map(\.name)).map { "; did you mean \($0)?" } ?? ""
                throw UsageError("unknown command \"\(command.visibleControlCharacters)\"\(hint)\n\n" + usage)
            }
            return try run(Array(arguments.dropFirst()))
        }
    } catch let error as ClientError {
        StandardError.write("sheetport: \(error)")
        return error.exitStatus
    } catch {
        // Every error SheetPort throws (UsageError, ReaderError, TextInputError, WriterError)
        // describes itself with the file, the part or line, and the reason.
        guard ExitStatus.refines(command) else {
            StandardError.write("sheetport: \(error)")
            return 2
        }
        let rest = Array(arguments.dropFirst())
        let (status, code) = ExitStatus.classify(error, command: command, arguments: rest)
        StandardError.write(rest.contains("--json") ? ExitStatus.json(code: code, message: "\(error)") : "sheetport: \(error)")
        return status
    }
}

/// Diagnostics go to standard error.
enum StandardError {
    static func write(_ message: String) {
        let line = Array((message + "\n").utf8)
        _ = line.withUnsafeBytes { SystemIO.write(2, $0.baseAddress, $0.count) }
    }
}

exit(main(Array(CommandLine.arguments.dropFirst())))
