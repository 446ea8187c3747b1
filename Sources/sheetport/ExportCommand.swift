import Foundation
import SheetPortCore
import SheetPortWriter
import SheetPortClient

/// `sheetport export SHEET... --server URL --out DIR [--all] [--concurrency N] [--min-version N]`.
enum ExportCommand {
    static let spec = CommandSpec(
        usage: "sheetport export SHEET... --server URL --out DIR [--all] [--concurrency N] [--json]",
        about: """
        Exports sheets (by id or by name) to DIR/<name>.xlsx, N at a time. Each download streams
        into a private staging file (a directory of its own under $TMPDIR, mode 0700, the file
        0600), is verified by opening it with the reader, and is then published atomically; an
        error, a timeout, Ctrl-C or SIGTERM removes the staging file and leaves the destination as
        it was, and staging left by a killed process is swept by the next run. Broken-off downloads
        are retried with backoff, resuming where the server allows ranges. One failed sheet does not
        stop the others; a table (or with --json one object per sheet) tells each one's fate, with
        control characters in names and messages from the server shown as \\u{1B}-style escapes.
        File names are made from sheet names on Unicode scalars (no separator, no leading dot, no
        control character survives), so nothing is written outside DIR.

        Exit status: 0 all exported, 1 some export failed, 2 usage, network or I/O error,
        130 interrupted, 143 terminated.
        """,
        groups: [
            OptionGroup(title: "OPTIONS", options: ClientOptions.options + [
                .valued("--out", "DIR", "the folder to export to (created when missing)"),
                .flag("--all", "every sheet the token's subject may read"),
                .valued("--concurrency", "N", "transfers at once (default 4, at most 16)"),
                .valued("--min-version", "N", "wait for each sheet to reach version N (else that sheet fails)"),
                .valued("--max-bytes", "SIZE", "the largest download taken (default 4G); a larger one fails, nothing kept"),
                .valued("--max-speed", "SIZE", "limit each transfer to SIZE bytes a second (like 500K, 2M)"),
                .flag("--json", "one JSON object per sheet on stdout"),
                .noProgress, .help,
            ]),
            LimitOptions.group(),
        ],
        footer: "The limits apply to verifying each download, as `check` and `convert` apply them.")

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try spec.parse(arguments)
        if options.has("--help") { print(spec.help); return 0 }
        guard let folder = options.value("--out") else { throw UsageError("--out DIR is required\n\n" + spec.help) }
        guard options.has("--all") || !options.positionals.isEmpty else { throw UsageError("name sheets to export, or give --all\n\n" + spec.help) }
        let concurrency = try number(options, "--concurrency", default: 4, in: 1...16)
        let minVersion = try options.value("--min-version").map { _ in try number(options, "--min-version", default: 0, in: 0...Int.max) }
        // Downloads have no deadline unless one is given (see ClientOptions); the sheet list 60 s.
        let timeout = try ClientOptions.timeout(options) ?? 0
        let limits = try LimitOptions.limits(options)
        let maxBytes = try options.value("--max-bytes").map { try LimitOptions.size($0, "--max-bytes") } ?? ExportTransfer.defaultMaxBytes
        guard maxBytes > 0 else { throw UsageError("--max-bytes takes a size above 0, like 500M or 2G") }
        let maxSpeed = try options.value("--max-speed").map { try LimitOptions.size($0, "--max-speed") } ?? 0
        let connection = try ClientOptions.connection(options)
        PendingFiles.removeOnSignals()
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw ClientError.io(file: folder, message: "cannot create the folder: \(error.localizedDescription)")
        }
        let client = HTTPClient(connectTimeout: 10, timeout: timeout > 0 ? timeout : 60)
        let available = try connection.sheets(client: client)
        var chosen: [RemoteSheet] = options.has("--all") ? available : []
        var missing: [String] = []
        for wanted in options.positionals {
            guard let sheet = try ServerConnection.sheet(wanted, in: available) else {
                missing.append(wanted)
                continue
            }
            if !chosen.contains(sheet) { chosen.append(sheet) }
        }
        let names = FileNames.unique(for: chosen.map(\.name), fileExtension: "xlsx")
        let transfers = zip(chosen, names).map { sheet, name in
            var transfer = ExportTransfer(sheet: sheet, fileName: name, in: folder, minVersion: minVersion, limits: limits)
            transfer.maxBytes = maxBytes
            return transfer
        }
        let progress = ProgressLine(label: "exporting", disabled: options.has("--no-progress"))
        let start = Date()
        var results = BulkExport(connection: connection, transfers: transfers, concurrency: concurrency, timeout: timeout,
                                 maxSpeed: maxSpeed).run { done, total, bytes in
            progress.update(fraction: Double(done) / Double(max(total, 1)), detail: "\(done)/\(total) sheets, \(ClientOptions.size(bytes))")
        }
        let seconds = Date().timeIntervalSince(start)
        progress.finish()
        results += missing.map { ExportResult(sheet: $0, sheetID: nil, file: "", error: "no sheet \"\($0.visibleControlCharacters)\" that this token's subject may read (not found)") }
        print(options.has("--json") ? results.map(json).joined(separator: "\n") : table(results))
        let failed = results.filter { !$0.succeeded }.count
        let bytes = results.reduce(Int64(0)) { $0 + $1.bytes }
        StandardError.write(String(format: "sheetport: exported %d of %d sheets, %@ in %.2f s (%.1f sheets/s, %.1f MB/s)",
                                     results.count - failed, results.count, ClientOptions.size(bytes), seconds,
                                     Double(results.count - failed) / max(seconds, 1e-6), Double(bytes) / 1e6 / max(seconds, 1e-6)))
        return failed > 0 ? 1 : 0
    }

    private static func number(_ options: Arguments, _ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = options.value(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// The result table: sheet, file, bytes, seconds, status.
    static func table(_ results: [ExportResult]) -> String {
        let header = ["SHEET", "FILE", "BYTES", "SECONDS", "STATUS"]
        let rows = results.map { result in
            // Sheet names come from the server: control characters shown, never sent to the terminal.
            [result.sheet.visibleControlCharacters, result.file.visibleControlCharacters, String(result.bytes), String(format: "%.2f", result.seconds),
             result.error.map { "failed: \($0)" } ?? "ok"]
        }
        let widths = (0..<4).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            (0..<4).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ") + "  " + row[4]
        }.joined(separator: "\n")
    }

    private static func json(_ result: ExportResult) -> String {
        var object: [String: Any] = ["sheet": result.sheet, "file": result.file, "bytes": result.bytes,
                                     "seconds": (result.seconds * 1000).rounded() / 1000, "status": result.succeeded ? "ok" : "failed"]
        if let id = result.sheetID { object["id"] = id }
        if let version = result.version { object["version"] = version }
        if let error = result.error { object["error"] = error }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
