import Foundation
import SheetPortCore
import SheetPortConvert
import SheetPortClient

/// `sheetport import FILE --server URL [--wait] [--detach] [--json]`: pre-flight against the
/// server's caps, upload through an import job, and with `--wait` follow it to the end.
enum ImportCommand {
    static let spec = CommandSpec(
        usage: "sheetport import FILE --server URL [--wait [--detach]] [--json] [--token-file FILE]",
        about: """
        Pre-flights FILE's package and parts against the server's caps (GET /api/limits) and
        stops before uploading when it is not importable (exit 1, with the findings); the cells
        are checked by the server's import job, whose error or warnings --wait prints (run
        `sheetport check --server URL FILE` to check them locally first). Otherwise streams it to the server
        as an import job, with an Idempotency-Key so that retries after a dropped connection or a
        5xx answer cannot create a second job. Only the first worksheet is imported.

        With --wait, follows the job until it ends and prints the sheet created and the warnings;
        Ctrl-C (or SIGTERM) then cancels the job, unless --detach is given (the job continues).

        Every wait (connecting, sending, the answer, retries, polling) ends within a second of
        Ctrl-C or SIGTERM. Each request has a deadline (--timeout; the upload's counts from the end
        of the body, which must keep flowing at 1 kB/s or more), and answers are capped at 16 MiB.

        Exit status: 0 uploaded (with --wait: imported), 1 not importable or the job failed,
        2 usage, network or I/O error, 130 interrupted, 143 terminated.
        """,
        groups: [OptionGroup(title: "OPTIONS", options: ClientOptions.options + [
            .flag("--wait", "follow the job until it ends"),
            .flag("--detach", "with --wait: Ctrl-C stops following, the job continues"),
            .flag("--json", "machine output: one JSON object on stdout"),
            .noProgress, .help,
        ])])

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try spec.parse(arguments)
        if options.has("--help") { print(spec.help); return 0 }
        guard options.positionals.count == 1, let given = options.positionals.first, given != "-" else {
            throw UsageError("import takes one workbook file\n\n" + spec.help)
        }
        let connection = try ClientOptions.connection(options)
        // A device (/dev/zero) is refused as what it is; a FIFO is spooled below, within the upload cap.
        let kind = try InputFiles.kind(given)
        var file = given
        CancellationSignal.install()
        let json = options.has("--json")
        let client = HTTPClient(connectTimeout: 10, timeout: try timeout(options))
        client.cancellation = { try CancellationSignal.check() }
        var sentAll = false
        var spool: String?
        defer { if let spool { try? FileManager.default.removeItem(atPath: spool) } }
        do {
            // A structural pre-flight with the server's real caps: nothing is uploaded whose
            // package, parts or size would fail. The cells are read once, by the server's
            // import, which reports what is wrong with them as the job's error or warnings.
            let limits = try connection.limits(client: client)
            if kind == .fifo {
                let spooled = try InputFiles.spool(given, limit: limits.maxUploadBytes, what: "the server's upload cap")
                spool = spooled.directory
                file = spooled.file
            }
            var report = try Preflight.structural(path: file, options: limits.preflightOptions)
            report.file = given
            guard report.importable else {
                if json { print(report.json) } else { print(CheckCommand.humanText(report)) }
                StandardError.write("sheetport: \(given): not importable; nothing was uploaded")
                return 1
            }
            let progress = ProgressLine(label: "uploading \((given as NSString).lastPathComponent.visibleControlCharacters)", disabled: options.has("--no-progress"))
            let upload = ImportUpload(file: file, name: (given as NSString).lastPathComponent)
            // A signal while the body is being sent aborts it (the server makes no job of a
            // partial body); once all is sent the job may exist, so its answer is awaited briefly.
            let job = try upload.start(on: connection, client: client) { sent, total in
                sentAll = sent == total
                if total > 0 { progress.update(fraction: Double(sent) / Double(total), detail: ClientOptions.size(sent)) }
            }
            progress.finish()
            if let signal = CancellationSignal.received {
                return cancel(job, signal: signal, detach: options.has("--detach"), connection: connection)
            }
            guard options.has("--wait") else {
                if json {
                    ClientOptions.printJSON(["file": given, "job": ["id": job.id, "status": job.status.rawValue]])
                } else {
                    print("\(given): uploaded; import job \(job.id.visibleControlCharacters) \(job.status.rawValue)")
                }
                return 0
            }
            return try wait(for: job, file: given, report: report, connection: connection, client: client, options: options)
        } catch ClientError.cancelled(let signal) {
            // Other client errors are reported by main, as for every command.
            let stopped = signal == SIGTERM ? "terminated" : "interrupted"
            StandardError.write("sheetport: \(given): upload \(stopped); " + (sentAll
                ? "the server had the whole workbook but did not answer in time: it may have started a job (see GET /api/imports)"
                : "no job was started"))
            return ClientError.cancelled(signal: signal).exitStatus
        }
    }

    /// After SIGINT or SIGTERM: cancels the job (no sheet is left behind) unless `detach`;
    /// returns 130 or 143. The cancel is one try with a short deadline, so that a stalled
    /// server cannot hold the exit.
    private static func cancel(_ job: ImportJob, signal: Int32, detach: Bool, connection: ServerConnection) -> Int32 {
        let status = ClientError.cancelled(signal: signal).exitStatus
        let id = job.id.visibleControlCharacters
        if detach {
            StandardError.write("sheetport: detached; import job \(id) continues on the server")
            return status
        }
        var once = connection
        once.retry = .none
        do {
            try once.cancelJob(job.id, client: HTTPClient(connectTimeout: 0.5, timeout: 0.5))
            StandardError.write("sheetport: import job \(id) cancelled; no sheet is left behind")
        } catch {
            StandardError.write("sheetport: import job \(id) could not be cancelled: \(error)")
        }
        return status
    }

    /// `--timeout SECONDS`: the deadline of one request (default 60).
    private static func timeout(_ options: Arguments) throws -> Double { try ClientOptions.timeout(options) ?? 60 }

    private static func wait(for job: ImportJob, file: String, report: CheckReport, connection: ServerConnection,
                             client: HTTPClient, options: Arguments) throws -> Int32 {
        let json = options.has("--json")
        // A full pre-flight counted the rows the job will import: progress is rows done of
        // those; the structural one does not count them (the detail shows the rows done).
        let expectedRows = Double(report.worksheets.first(where: \.imported)?.rows ?? 0)
        let progress = ProgressLine(label: "importing job \(job.id.visibleControlCharacters)", disabled: options.has("--no-progress"))
        let finished: ImportJob
        do {
            finished = try JobPoller(connection: connection, jobID: job.id).wait(client: client) { state in
                let fraction = state.status == .succeeded ? 1 : expectedRows == 0 ? 0 : min(Double(state.rows) / expectedRows, 1)
                progress.update(fraction: fraction, detail: "\(state.status.rawValue), \(state.rows) rows, \(state.cells) cells")
            }
            progress.finish()
        } catch ClientError.cancelled(let signal) {
            progress.finish()
            return cancel(job, signal: signal, detach: options.has("--detach"), connection: connection)
        }
        let imported = report.worksheets.first(where: \.imported)?.name ?? "?"
        let others = report.worksheets.filter { !$0.imported }.map(\.name)
        if json {
            var object: [String: Any] = ["file": file, "job": ["id": finished.id, "status": finished.status.rawValue],
                                         "importedWorksheet": imported, "notImported": others,
                                         "warnings": finished.warnings.map { ["code": $0.code, "message": $0.message] }]
            if let sheet = finished.sheet { object["sheet"] = ["id": sheet.id, "name": sheet.name] }
            if finished.status != .succeeded { object["error"] = ["code": finished.errorCode?.rawValue ?? "", "message": finished.errorMessage] }
            ClientOptions.printJSON(object)
        } else if let sheet = finished.sheet, finished.status == .succeeded {
            // Everything from the server (and the workbook's names) is printed with control
            // characters made visible; --json keeps the raw text, escaped by the JSON writer.
            print("\(file): imported as sheet \(sheet.id.visibleControlCharacters) \"\(sheet.name.visibleControlCharacters)\""
                  + " (job \(finished.id.visibleControlCharacters))")
            print("  only the first worksheet is imported: \"\(imported.visibleControlCharacters)\"" + (others.isEmpty ? "" : "; not imported: "
                  + others.map { "\"\($0.visibleControlCharacters)\"" }.joined(separator: ", ")))
            for warning in finished.warnings {
                print("  warning: \(warning.message.visibleControlCharacters)" + (warning.code.isEmpty ? "" : " [\(warning.code.visibleControlCharacters)]"))
            }
        }
        guard finished.status == .succeeded else {
            StandardError.write("sheetport: " + ClientError.jobFailed(job: finished.id, status: finished.status, code: finished.errorCode,
                                                                       message: finished.errorMessage).description)
            return 1
        }
        return 0
    }
}
