import SheetPortCore
import SheetPortReader
import SheetPortConvert
/// Why a client operation (`import`, `export`, `check --server`) failed, naming the file,
/// the sheet or the URL concerned.
public enum ClientError: Error, CustomStringConvertible, Sendable {
    /// No token: neither `--token-file` nor `SHEETPORT_TOKEN`, or the token file is unreadable.
    case missingToken(String)
    /// The server answered with an error status (and its `{"error":{...}}` code and message).
    case server(url: String, status: Int, code: ServerErrorCode?, message: String)
    /// 404: the job or sheet does not exist or belongs to another subject (the server does not
    /// tell the two apart).
    case notFound(url: String, what: String)
    /// The request never got a complete answer, after the retries.
    case transport(url: String, message: String)
    /// The server's answer is not what Docs/Reference/HTTP.md describes.
    case invalidResponse(url: String, reason: String)
    /// An import job ended without a sheet.
    case jobFailed(job: String, status: ImportJobStatus, code: ServerErrorCode?, message: String)
    /// A downloaded workbook does not open with the reader.
    case verificationFailed(sheet: String, reason: String)
    /// A local file cannot be read or written.
    case io(file: String, message: String)
    /// SIGINT (130) or SIGTERM (143) asked the operation to stop.
    case cancelled(signal: Int32)
    /// A sheet named by a name that several of the subject's sheets have (imports keep the
    /// worksheet's name, so two can be `Sheet1`): nothing is done until one is named by its id.
    case ambiguousSheet(name: String, ids: [String])

    /// A sentence naming the URL, file or sheet and the reason, safe to print: the text in it
    /// (a server's codes, messages, ids and names included) has its control characters made
    /// visible (`visibleControlCharacters`), so a hostile server cannot drive the terminal.
    public var description: String {
        switch self {
        case .missingToken(let reason): "no token: \(visible(reason))"
        case let .server(url, status, code, message):
            "\(visible(url)): \(message.isEmpty ? "HTTP \(status)" : visible(message)) (\(code.map { "\(visible($0.rawValue)), HTTP \(status)" } ?? "HTTP \(status)"))"
        case let .notFound(url, what): "\(visible(url)): \(visible(what)) not found"
        case let .transport(url, message): "\(visible(url)): \(visible(message))"
        case let .invalidResponse(url, reason): "\(visible(url)): unexpected answer: \(visible(reason))"
        case let .jobFailed(job, status, code, message):
            "import job \(visible(job)) \(status.rawValue)" + (message.isEmpty ? "" : ": \(visible(message))") + (code.map { " (\(visible($0.rawValue)))" } ?? "")
        case let .verificationFailed(sheet, reason): "sheet \(visible(sheet)): the downloaded workbook does not open: \(visible(reason))"
        case let .ambiguousSheet(name, ids):
            "\(ids.count) sheets are named \"\(visible(name))\" (ids \(ids.map(visible).joined(separator: ", "))): name one by its id"
        case let .io(file, message): "\(visible(file)): \(visible(message))"
        case .cancelled(let signal): signal == 15 ? "terminated" : "interrupted"
        }
    }

    /// The exit status Docs/Reference/CLI.md gives this error on its own: 130 or 143 when
    /// cancelled, 1 when the job ran and failed, 2 for everything else (usage, I/O, network).
    public var exitStatus: Int32 {
        switch self {
        case .cancelled(let signal): signal == 15 ? 143 : 130
        case .jobFailed, .verificationFailed: 1
        default: 2
        }
    }
}

private func visible(_ text: String) -> String { text.visibleControlCharacters }
