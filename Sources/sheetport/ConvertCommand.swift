import Foundation
import SheetPort
#if canImport(Glibc)
import Glibc
#endif

/// `sheetport convert IN [-o OUT] [--to FMT] [--from FMT] [--sheet NAME|N]`.
enum ConvertCommand {
    static let spec = CommandSpec(
        usage: "sheetport convert IN [-o OUT] [--to FMT] [--from FMT] [--sheet NAME|N]",
        about: """
        Converts the first worksheet of an xlsx/xlsm workbook (or the sheet named, or the
        N-th sheet in tab order) to CSV (RFC 4180), TSV or cell JSONL; or CSV, TSV or cell
        JSONL to a one-sheet xlsx workbook. IN and OUT may be `-` for standard input and
        output. Formats come from the file extensions unless --from/--to are given; with no
        OUT, output goes to standard output (CSV, or xlsx for text input). Output files are
        built under a temporary name beside OUT and renamed into place only when complete.

        CSV and TSV fields are typed as spreadsheet users expect: numbers (not 007 or IDs
        over 15 digits), TRUE/FALSE, ISO dates (2024-01-31, 2024-01-31 13:45:00) and times
        (13:45:00; [h]:mm:ss past 24 hours); everything else stays text. CSV may end lines
        in CRLF, LF or CR and start with a UTF-8 byte order mark.
        """,
        groups: [
            OptionGroup(title: "OPTIONS", options: [
                .valued("--output", short: "-o", "OUT", "where to write (default: standard output)"),
                .valued("--to", "FMT", "csv, tsv, jsonl or xlsx"),
                .valued("--from", "FMT", "xlsx, csv, tsv or jsonl (from IN's extension when omitted)"),
                .valued("--sheet", "NAME|N", """
                    xlsx input: the sheet to convert, by name or 1-based position;
                    xlsx output: the name of the sheet written (default: IN's name)
                    """),
                .noProgress, .help,
            ]),
            OptionGroup(title: "XLSX OUTPUT", options: [
                .flag("--no-infer", "keep every CSV/TSV field as text"),
                .flag("--inline-strings", """
                    inline strings instead of a shared-string table
                    (constant memory however much distinct text there is)
                    """),
                .flag("--zip64", "allow a worksheet over 4 GiB of XML"),
            ]),
            LimitOptions.group(),
        ],
        footer: "A sheet with over 10M of distinct text needs --max-text-size.")

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try spec.parse(arguments)
        if options.has("--help") { print(spec.help); return 0 }
        guard options.positionals.count == 1, let input = options.positionals.first else {
            throw UsageError("convert takes one input file\n\n" + spec.help)
        }
        let outputPath = options.value("--output") ?? "-"
        let inputFormat = options.value("--from")?.lowercased() ?? (input == "-" ? "xlsx" : extensionOf(input))
        if let textFormat = TextFormat(rawValue: inputFormat) {
            return try toWorkbook(input, format: textFormat, output: outputPath, options: options)
        }
        guard ["xlsx", "xlsm", "xltx", "xltm"].contains(inputFormat) else {
            throw UsageError("cannot tell the input format of \(input); use --from xlsx, csv, tsv or jsonl")
        }
        let formatName = options.value("--to") ?? (outputPath == "-" ? "csv" : extensionOf(outputPath))
        guard let format = TextFormat(rawValue: formatName.lowercased()) else {
            throw UsageError("unknown output format \"\(formatName)\"; use --to csv, tsv or jsonl")
        }

        let limits = try LimitOptions.limits(options)
        let workbook = input == "-" ? try Workbook(bytes: StandardInput.readAll(limit: limits.maxTotalSize), name: "<stdin>", limits: limits)
                                    : try Workbook(path: input, limits: limits)
        let sheet: Sheet
        if let name = options.value("--sheet") {
            guard let named = workbook.sheet(named: name) else {
                let names = workbook.sheets.map { "\"\($0.name)\"" }.joined(separator: ", ")
                throw UsageError("\(input) has no sheet \"\(name)\"; its sheets are \(names)")
            }
            sheet = named
        } else {
            guard let first = workbook.firstWorksheet else {
                throw ReaderError(.missingPart, file: input, part: workbook.workbookPart, "the workbook has no worksheet")
            }
            sheet = first
        }

        let progress = ProgressLine(label: "converting \(sheet.name)", disabled: options.has("--no-progress"))
        defer { progress.finish() }
        let report = reporter(progress)
        // Standard output streams; a file is staged beside its destination and published when complete.
        var file: AtomicFile?
        if outputPath != "-" {
            PendingFiles.removeOnSignals()
            file = try AtomicFile(destination: outputPath)
        }
        do {
            let output = ByteOutput(descriptor: file?.descriptor ?? 1, name: file == nil ? "<stdout>" : outputPath)
            try SheetConverter.convert(workbook, sheet: sheet, to: format, output: output, progress: report)
            try file?.publish()
        } catch {
            file?.discard()
            throw error
        }
        return 0
    }

    /// CSV, TSV or JSONL to xlsx.
    private static func toWorkbook(_ input: String, format: TextFormat, output: String, options: Arguments) throws -> Int32 {
        let target = options.value("--to")?.lowercased() ?? (output == "-" ? "xlsx" : extensionOf(output))
        guard target == "xlsx" else {
            throw UsageError("\(format.rawValue) input converts to xlsx only (got --to \(target))")
        }
        var settings = TextToWorkbook.Options()
        settings.inferTypes = !options.has("--no-infer")
        settings.writer.sharedStrings = !options.has("--inline-strings")
        settings.writer.zip64 = options.has("--zip64")
        settings.sheetName = options.value("--sheet") ?? TextToWorkbook.sheetName(for: input)
        PendingFiles.removeOnSignals()
        let source = try ByteInput(path: input)
        let progress = ProgressLine(label: "writing \(settings.sheetName)", disabled: options.has("--no-progress"))
        defer { progress.finish() }
        let report = reporter(progress)
        guard output == "-" else {
            try TextToWorkbook.convert(source, format: format, to: output, options: settings, progress: report)
            return 0
        }
        // A zip cannot be streamed to a pipe as it is written (libzip seeks back to finish
        // each entry's header), so it is built in a private folder and then copied out.
        let folder = try TemporaryFolder()
        let staged = folder.path + "/workbook.xlsx"
        try TextToWorkbook.convert(source, format: format, to: staged, options: settings, progress: report)
        try ByteOutput(descriptor: 1, name: "<stdout>").copy(contentsOf: staged)
        return 0
    }

    /// Shows how far a conversion has read, when the input's size is known (not on a pipe).
    private static func reporter(_ progress: ProgressLine) -> (ConversionSummary) -> Void {
        { summary in
            guard summary.totalBytes > 0 else { return }
            progress.update(fraction: Double(summary.bytesRead) / Double(summary.totalBytes), detail: "\(summary.rows) rows")
        }
    }

    private static func extensionOf(_ path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "" }
        return path[path.index(after: dot)...].lowercased()
    }
}
