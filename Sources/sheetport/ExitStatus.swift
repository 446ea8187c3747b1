import SheetPortCore
import SheetPortConvert
import SheetPortWriter

/// The exit statuses of `convert` and `sheets` beyond 0 and 1 (Docs/Reference/CLI.md, "Exit
/// status"): 2 a usage error, 3 an input that cannot be read (missing, corrupt, not a workbook,
/// encrypted, over a limit), 4 an output that cannot be written. Other commands keep 2 for
/// every failure.
enum ExitStatus {
    static let usage: Int32 = 2
    static let unreadableInput: Int32 = 3
    static let unwritableOutput: Int32 = 4

    /// Whether `command` refines the statuses of failures.
    static func refines(_ command: String) -> Bool { command == "convert" || command == "sheets" }

    /// The status and error code of `error`, met by `command` run with `arguments`.
    static func classify(_ error: Error, command: String, arguments: [String]) -> (status: Int32, code: String) {
        switch error {
        case is UsageError, is ColumnDeclarationError:
            return (usage, "usage")
        case let error as ReaderError where error.code == .usage:
            return (usage, "usage")
        case let error as ReaderError:
            if error.code == .io, isOutput(error.file, arguments: arguments) { return (unwritableOutput, "unwritable-output") }
            return (unreadableInput, error.code.rawValue)
        case is TextInputError:
            return (unreadableInput, "malformed-text")
        case is WriterError:
            return (unwritableOutput, "unwritable-output")
        default:
            return (unreadableInput, "io-error")
        }
    }

    /// Whether `file` (an error's file) is where `arguments` write: standard output, `-o OUT`,
    /// or a file in the `--all` folder.
    private static func isOutput(_ file: String, arguments: [String]) -> Bool {
        if file == "<stdout>" { return true }
        var output: String?
        for (index, argument) in arguments.enumerated() {
            if argument == "-o" || argument == "--output", index + 1 < arguments.count { output = arguments[index + 1] }
            if argument.hasPrefix("--output=") { output = String(argument.dropFirst("--output=".count)) }
        }
        guard let output, output != "-" else { return false }
        let folder = output.hasSuffix("/") ? output : output + "/"
        return file == output || file.hasPrefix(folder)
    }

    /// `{"error":{"code","message"}}`, the error object `--json` writes to standard error.
    static func json(code: String, message: String) -> String {
        JSON.object([("error", .object([("code", .string(code)), ("message", .string(message))]))]).text
    }
}
