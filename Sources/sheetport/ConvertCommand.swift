import SheetPort
#if canImport(Glibc)
import Glibc
#endif

/// `sheetport convert IN [-o OUT] [--to FMT] [--from FMT] [--sheet NAME|N]`.
enum ConvertCommand {
    static let help = """
    USAGE: sheetport convert IN [-o OUT] [--to csv|tsv|jsonl] [--from xlsx] [--sheet NAME|N]

    Converts the first worksheet of an xlsx/xlsm workbook (or the sheet named, or the
    N-th sheet in tab order) to CSV (RFC 4180), TSV or cell JSONL. IN and OUT may be `-`
    for standard input and output. The output format comes from OUT's extension unless
    --to is given; with no OUT, output goes to standard output (CSV by default). An output
    file is written under a temporary name and renamed into place only when complete.

    OPTIONS:
      -o, --output OUT     where to write (default: standard output)
      --to FMT             csv, tsv or jsonl
      --from FMT           the input format (xlsx; from IN's extension when omitted)
      --sheet NAME|N       the sheet to convert, by name or 1-based position
      --no-progress        no progress bar (it is shown only when standard error is a terminal)
      -h, --help           show this help
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try Arguments(arguments, valued: ["--output", "--to", "--from", "--sheet"],
                                    flags: ["--help", "--no-progress"], aliases: ["-o": "--output", "-h": "--help"])
        if options.has("--help") { print(help); return 0 }
        guard options.positionals.count == 1, let input = options.positionals.first else {
            throw UsageError("convert takes one input file\n\n" + help)
        }
        let outputPath = options.value("--output") ?? "-"
        let inputFormat = options.value("--from")?.lowercased() ?? (input == "-" ? "xlsx" : extensionOf(input))
        guard ["xlsx", "xlsm", "xltx", "xltm"].contains(inputFormat) else {
            if TextFormat(rawValue: inputFormat) != nil {
                throw UsageError("converting \(inputFormat) to xlsx is not available yet; only xlsx/xlsm input is read")
            }
            throw UsageError("cannot tell the input format of \(input); use --from xlsx")
        }
        let formatName = options.value("--to") ?? (outputPath == "-" ? "csv" : extensionOf(outputPath))
        guard let format = TextFormat(rawValue: formatName.lowercased()) else {
            throw UsageError("unknown output format \"\(formatName)\"; use --to csv, tsv or jsonl")
        }

        let workbook = input == "-" ? try Workbook(bytes: readStandardInput(), name: "<stdin>")
                                    : try Workbook(path: input)
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
        let report: (ConversionSummary) -> Void = { summary in
            progress.update(fraction: Double(summary.bytesRead) / Double(max(summary.totalBytes, 1)),
                            detail: "\(summary.rows) rows")
        }
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

    private static func extensionOf(_ path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "" }
        return path[path.index(after: dot)...].lowercased()
    }

    private static func readStandardInput() throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(0, &chunk, chunk.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ReaderError(.io, file: "<stdin>", "cannot read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }
}
