#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SheetPortCore
import SheetPortReader
import SheetPortConvert
import SheetPortClient
import SheetPortServer

/// `sheetport check FILE... [--json] [--fail-on warning]` with the limits as options.
enum CheckCommand {
    static let spec = CommandSpec(
        usage: "sheetport check FILE|DIR... [--json] [--fail-on warning] [--server URL] [limits]",
        about: """
        Pre-flights each workbook before import: whether it can be imported at all, which sheet
        is imported (only the first worksheet) and which are not, and what will not survive
        (macros, charts, images, pivot tables, tables, merged cells, conditional formats, data
        validation, hyperlinks, formatting Sheets does not keep, hard-to-read colours). FILE may
        be `-` for standard input; a DIR is every .xlsx and .xlsm under it, recursively, in name
        order. With --json, one report object per file, one per line (a file that cannot be
        read: {"file","importable":false,"error":{"code","message"}}). With a DIR or several
        files a closing summary line goes to standard error.

        Exit status: 0 when every file is importable, 1 when one is not (with --fail-on warning,
        also when any file has a warning), 2 on usage or I/O errors.
        """,
        groups: [
            OptionGroup(title: "OPTIONS", options: [
                .flag("--json", "machine output (Docs/Reference/Formats.md), one object per line"),
                .valued("--fail-on", "LEVEL", "warning: exit 1 on warnings too (default error)"),
                .valued("--ignore", "CODE[,CODE...]", "leave these warning or info codes out of --fail-on warning\n(extra-worksheets, unsupported-feature, ...); may repeat"),
                .flag("--recalc", """
                    recompute every formula and report stale-cached-value, unsupported-function,
                    circular-reference and unsupported-formula
                    """),
                .noProgress, .help,
            ]),
            OptionGroup(title: "SERVER (apply a server's caps: GET /api/limits)", options: ClientOptions.options),
            LimitOptions.group(with: [LimitOptions.maxCells]),
        ])

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try spec.parse(arguments)
        if options.has("--help") { print(spec.help); return 0 }
        guard !options.positionals.isEmpty else { throw UsageError("check takes one or more files\n\n" + spec.help) }
        if let level = options.value("--fail-on"), level != "warning", level != "error" {
            throw UsageError("--fail-on takes \"warning\" (or \"error\", the default)")
        }
        var preflight = try preflightOptions(options)
        if options.value("--server") != nil {
            // The server's real caps, narrowed further by any limit given here.
            let connection = try ClientOptions.connection(options)
            // One --timeout bounds the request, its retries included (ClientOptions).
            let timeout = try ClientOptions.timeout(options) ?? 60
            preflight.apply(try connection.limits(client: HTTPClient(connectTimeout: min(10, timeout), timeout: timeout)))
        }
        let failOnWarning = options.value("--fail-on") == "warning"
        let ignored = try ignoredCodes(options)
        var status: Int32 = 0
        let (files, hadFolder) = try expand(options.positionals)
        if hadFolder && files.isEmpty {
            throw ReaderError(.io, file: options.positionals.joined(separator: ", "), "no .xlsx or .xlsm file in it to check")
        }
        var tally = Tally()
        defer {
            if hadFolder || files.count > 1 { StandardError.write(tally.summary(failOnWarning: failOnWarning)) }
        }
        for file in files {
            tally.files += 1
            let report: CheckReport
            // Large sheets take seconds: the bar shows the rows read, and a summary line follows.
            let progress = ProgressLine(label: "checking \(file.visibleControlCharacters)", disabled: options.has("--no-progress"))
            var bytesRead: Int64 = 0
            do {
                // A FIFO is read like standard input, within the same cap; a device is refused as one.
                let kind = file == "-" ? .fifo : try InputFiles.kind(file)
                report = file == "-" ? try Preflight.check(bytes: StandardInput.readAll(limit: preflight.limits.maxTotalSize),
                                                                         name: "-", options: preflight)
                                     : kind == .fifo ? try Preflight.check(bytes: InputFiles.readAll(file, limit: preflight.limits.maxTotalSize,
                                                                                                    what: "--max-total-size"),
                                                                           name: file, options: preflight)
                                     : try Preflight.check(path: file, options: preflight) { summary in
                                         bytesRead = summary.bytesRead
                                         guard summary.totalBytes > 0 else { return }
                                         progress.update(fraction: Double(summary.bytesRead) / Double(summary.totalBytes),
                                                         detail: "\(summary.rows) rows", bytes: summary.bytesRead)
                                     }
            } catch let error as ReaderError {
                progress.finish()
                if options.has("--json") {
                    print(JSON.object([("file", .string(file)), ("importable", .bool(false)),
                                       ("error", .object([("code", .string(error.code.rawValue)), ("message", .string(error.message))]))]).text)
                }
                StandardError.write("sheetport: " + error.description)
                // A file that cannot be opened at all is 3; one that opens but cannot be read
                // (corrupt, encrypted, over a limit) is judged not importable.
                if error.code == .io {
                    tally.unreadable += 1
                    status = ExitStatus.unreadableInput
                } else {
                    tally.notImportable += 1
                    status = max(status, 1)
                }
                continue
            }
            if progress.wasShown, let sheet = report.worksheets.first(where: \.imported) {
                progress.finish(summary: "checked \(file.visibleControlCharacters): \(sheet.rows ?? 0) rows x \(sheet.columns ?? 0) columns, "
                                + "\(sheet.cells ?? 0) cells", bytes: bytesRead)
            } else {
                progress.finish()
            }
            print(options.has("--json") ? report.json : humanText(report))
            if report.importable { tally.importable += 1 } else { tally.notImportable += 1 }
            if failOnWarning, report.importable, report.hasWarnings(ignoring: ignored) {
                tally.warned += 1
                for finding in report.findings where finding.severity == .warning && !ignored.contains(finding.code) {
                    tally.warningCodes[finding.code, default: 0] += 1
                }
            }
            if status == 0, !report.importable || (failOnWarning && report.hasWarnings(ignoring: ignored)) { status = 1 }
        }
        return status
    }

    /// What `check` found over all its files, for the closing line.
    private struct Tally {
        var files = 0, importable = 0, notImportable = 0, unreadable = 0, warned = 0
        /// Warning codes (not ignored) of importable files, by how many files have them.
        var warningCodes: [String: Int] = [:]

        func summary(failOnWarning: Bool) -> String {
            var text = "checked \(files) file\(files == 1 ? "" : "s"): \(importable) importable, \(notImportable) not importable"
            if unreadable > 0 { text += ", \(unreadable) could not be read" }
            if failOnWarning, warned > 0 {
                let codes = warningCodes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                text += "; --fail-on warning failed on \(warned) importable file\(warned == 1 ? "" : "s") with warnings (\(codes))"
            }
            return text
        }
    }

    /// The files to check: each FILE as given, each DIR as the .xlsx and .xlsm files under it,
    /// recursively (symbolic links to folders are not followed), sorted by path; and whether
    /// a folder was given.
    private static func expand(_ paths: [String]) throws -> ([String], Bool) {
        var files: [String] = []
        var hadFolder = false
        for path in paths {
            var status = stat()
            guard path != "-", stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { files.append(path); continue }
            hadFolder = true
            var found: [String] = []
            try collect(path, into: &found, depth: 0)
            files += found.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        }
        return (files, hadFolder)
    }

    private static func collect(_ folder: String, into found: inout [String], depth: Int) throws {
        guard depth < 64 else { return }
        guard let directory = opendir(folder) else {
            throw ReaderError(.io, file: folder, "cannot list the folder: \(String(cString: strerror(errno)))")
        }
        defer { closedir(directory) }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            let path = prefix + name
            var status = stat()
            guard lstat(path, &status) == 0 else { continue }
            switch status.st_mode & S_IFMT {
            case S_IFDIR: try collect(path, into: &found, depth: depth + 1)
            case S_IFREG, S_IFLNK:
                let lowered = name.lowercased()
                if lowered.hasSuffix(".xlsx") || lowered.hasSuffix(".xlsm") { found.append(path) }
            default: break
            }
        }
    }

    /// The codes of `--ignore`: warning and info codes only, as an error cannot be waved through.
    private static func ignoredCodes(_ options: Arguments) throws -> Set<String> {
        let ignorable = Finding.Code.allCases.map(\.rawValue)
        let errors = Set(ReaderError.Code.allCases.map(\.rawValue))
        var codes: Set<String> = []
        for list in options.values("--ignore") {
            for code in list.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
                if ignorable.contains(code) { codes.insert(code); continue }
                if errors.contains(code) {
                    throw UsageError("--ignore: \(code) is an error (the workbook is not importable), which cannot be ignored")
                }
                let hint = Suggestion.nearest(to: code, among: ignorable).map { "; did you mean \($0)?" } ?? "; the codes are " + ignorable.joined(separator: ", ")
                throw UsageError("--ignore: unknown code \"\(code.visibleControlCharacters)\"\(hint)")
            }
        }
        return codes
    }

    private static func preflightOptions(_ options: Arguments) throws -> PreflightOptions {
        var preflight = PreflightOptions()
        preflight.limits = try LimitOptions.limits(options)
        if let value = options.value("--max-cells") { preflight.maxCells = Int(try LimitOptions.count(value, "--max-cells")) }
        preflight.recalc = options.has("--recalc")
        return preflight
    }

    /// The short report for a person.
    static func humanText(_ report: CheckReport) -> String {
        var lines = ["\(report.file.visibleControlCharacters): " + (report.importable ? "importable" : "NOT importable") + " (\(report.format))"]
        // Sheet names may hold anything: control characters are shown escaped; hidden ones say so.
        func named(_ sheet: CheckReport.Worksheet) -> String {
            "\"\(sheet.name.visibleControlCharacters)\"" + (sheet.state == .visible ? "" : " (\(sheet.state.rawValue))")
        }
        if let imported = report.worksheets.first(where: \.imported) {
            lines.append("  imports \(named(imported)): \(imported.rows ?? 0) rows x \(imported.columns ?? 0) columns, \(imported.cells ?? 0) cells")
        }
        let others = report.worksheets.filter { !$0.imported }
        if !others.isEmpty {
            lines.append("  not imported: " + others.map(named).joined(separator: ", "))
        }
        for finding in report.findings {
            lines.append("  \(finding.severity.rawValue): \(finding.message.visibleControlCharacters) [\(finding.code)" + (finding.part.map { ", \($0.visibleControlCharacters)" } ?? "") + "]")
        }
        if report.findings.isEmpty { lines.append("  nothing to report") }
        return lines.joined(separator: "\n")
    }
}

/// Standard input, read whole (a zip's directory is at its end), up to `limit` bytes: a package
/// is never larger than what it may inflate to.
enum StandardInput {
    /// Everything left on standard input after `prefix`, which was read from it before.
    static func readAll(limit: Int64, after prefix: [UInt8] = []) throws -> [UInt8] {
        var bytes = prefix
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(0, &chunk, chunk.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ReaderError(.io, file: "-", "cannot read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            guard Int64(bytes.count) <= limit else {
                throw ReaderError(.io, file: "-", "standard input is larger than \(limit) bytes (--max-total-size)")
            }
        }
    }

    /// The first `count` bytes of standard input (fewer at its end), to tell what it holds.
    static func readPrefix(_ count: Int) throws -> [UInt8] {
        try readPrefix(count, of: 0, name: "-")
    }

    /// The first `count` bytes readable from `descriptor` (fewer at its end); `name` is used in errors.
    static func readPrefix(_ count: Int, of descriptor: Int32, name: String) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, count - filled) }
            if read < 0 {
                if errno == EINTR { continue }
                throw ReaderError(.io, file: name, "cannot read: \(String(cString: strerror(errno)))")
            }
            if read == 0 { break }
            filled += read
        }
        bytes.removeLast(count - filled)
        return bytes
    }
}

/// The `ArchiveLimits` flags that `check` and `convert` share.
enum LimitOptions {
    /// The reader's limits, declared once for every command that reads packages.
    static let options: [Option] = [
        .valued("--max-entries", "N", "most zip entries (default 1000)"),
        .valued("--max-entry-size", "SIZE", "most bytes one entry may inflate to (default 1G)"),
        .valued("--max-total-size", "SIZE", "most bytes the whole package may inflate to (default 4G)"),
        .valued("--min-inflate-ratio", "R", "least compressed/inflated ratio of an entry past 256M inflated (default 0.01)"),
        .valued("--max-text-size", "SIZE", "most bytes of shared-string text held in memory (default 1G)"),
    ]

    /// `--max-cells`: the cell cap of an imported sheet (`check` and `serve`).
    static let maxCells = Option.valued("--max-cells", "N", "most cells in the imported sheet's used range (default 10000000)")

    /// The limits under their heading, with `extra` options of the same kind.
    static func group(with extra: [Option] = []) -> OptionGroup {
        OptionGroup(title: "LIMITS (defaults at least as strict as Apache POI's ZipSecureFile; sizes take K, M, G)",
                    options: options + extra)
    }

    /// The limits, defaults changed by the flags given.
    static func limits(_ options: Arguments) throws -> ArchiveLimits {
        var limits = ArchiveLimits()
        if let value = options.value("--max-entries") { limits.maxEntries = Int(try count(value, "--max-entries")) }
        if let value = options.value("--max-entry-size") { limits.maxEntrySize = try size(value, "--max-entry-size") }
        if let value = options.value("--max-total-size") { limits.maxTotalSize = try size(value, "--max-total-size") }
        if let value = options.value("--max-text-size") { limits.maxTextSize = Int(try size(value, "--max-text-size")) }
        if let value = options.value("--min-inflate-ratio") {
            guard let ratio = Double(value), ratio >= 0, ratio < 1 else {
                throw UsageError("--min-inflate-ratio takes a number from 0 to below 1, like 0.01")
            }
            limits.minInflateRatio = ratio
        }
        return limits
    }

    static func count(_ text: String, _ option: String) throws -> Int64 {
        guard let value = Int64(text), value >= 0 else { throw UsageError("\(option) takes a whole number, not \"\(text)\"") }
        return value
    }

    /// A byte count with an optional binary suffix: `500K`, `64M`, `2G`.
    static func size(_ text: String, _ option: String) throws -> Int64 {
        let shifts: [Character: Int64] = ["K": 10, "M": 20, "G": 30]
        var digits = text.uppercased()
        var shift: Int64 = 0
        if digits.last == "B" { digits.removeLast() }
        if let last = digits.last, let found = shifts[last] { shift = found; digits.removeLast() }
        guard let value = Int64(digits), value >= 0, value <= Int64.max >> shift else {
            throw UsageError("\(option) takes a size like 1048576, 100K, 64M or 2G, not \"\(text)\"")
        }
        return value << shift
    }
}
