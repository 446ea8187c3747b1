import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SheetPortCore
import SheetPortReader
import SheetPortWriter
import SheetPortConvert
import SheetPortClient
import SheetPortServer

/// `sheetport convert IN [-o OUT] [--to FMT] [--from FMT] [--sheet NAME|N]`.
enum ConvertCommand {
    static let spec = CommandSpec(
        usage: """
        sheetport convert IN [-o OUT] [--to FMT] [--from FMT] [--sheet NAME|N] [options]
               sheetport convert IN --all -o DIR [--to FMT] [--exclude-hidden] [options]
               sheetport convert A.csv B.tsv ... -o BOOK.xlsx [--sheet NAME ...] [options]
        """,
        about: """
        Converts the first worksheet of an xlsx/xlsm workbook (or the sheet named, or the
        N-th sheet in tab order, or with --all every worksheet) to CSV (RFC 4180), TSV, cell
        JSONL or ndjson records (one object per row keyed by the header row); or CSV, TSV or
        cell JSONL to a one-sheet xlsx workbook. IN and OUT may be `-` for standard input and
        output. IN's format is told from its content (a workbook, or text: CSV, TSV or cell
        JSONL, the extension choosing among them; gzip or zstd compressed text too) unless
        --from is given; OUT's from its
        extension unless --to is given, and with no extension, or no OUT (standard output),
        CSV, or xlsx for text input (never written to a terminal). Output files are built
        under a temporary name beside OUT and renamed into place only when complete.

        CSV and TSV columns are typed as spreadsheet users expect, each over the whole column:
        numbers (not 007 or IDs over 15 digits), TRUE/FALSE, ISO dates (2024-01-31,
        2024-01-31 13:45:00) or times (13:45, 13:45:00; [h]:mm:ss past 24 hours) when every
        field of the column is one; otherwise text. The first row is a header (text, not
        counted) unless --no-header. Standard input is
        then copied to a private temporary file to be read twice. CSV may end lines in CRLF,
        LF or CR; text is UTF-8 unless --encoding, its byte order mark or zero bytes say otherwise.
        """,
        groups: [
            OptionGroup(title: "OPTIONS", options: [
                .valued("--output", short: "-o", "OUT", "where to write (default: standard output)"),
                .valued("--to", "FMT", "csv, tsv, jsonl, ndjson, json (the ndjson records as one array) or xlsx"),
                .valued("--from", "FMT", "xlsx, csv, tsv or jsonl (told from IN's content when omitted)"),
                .valued("--sheet", "NAME|N", """
                    xlsx input: the sheet to convert, by name or 1-based position;
                    xlsx output: the name of the sheet written (default: IN's name); with
                    several inputs, given once per input, in order
                    """),
                .flag("--all", """
                    every worksheet to DIR/<name>.<ext> (-o DIR; names made safe and unique);
                    all files are published together, or none
                    """),
                .flag("--exclude-hidden", "skip hidden and very hidden sheets (with --all; else the first visible one)"),
                .flag("--json", "a failure as {\"error\":{\"code\",\"message\"}} on standard error"),
                .noProgress, .help,
            ]),
            OptionGroup(title: "TEXT OUTPUT (from xlsx)", options: [
                .valued("--header-row", "N", "ndjson/json: the row holding the keys (default: the first row with a value)"),
                .flag("--skip-empty-rows", "leave out rows with no value"),
                .flag("--keep-empty-rows", "ndjson/json: write rows with no value as records of nulls (left out by default)"),
                .flag("--fill-merged", "a merged range's value in every cell of the range (as xlsx2csv -m)"),
                .flag("--recalc", """
                    recompute every formula before writing (all worksheets loaded, so references
                    across sheets resolve; NOW and TODAY in the local time zone); a cell whose
                    function or formula the engine does not support keeps its cached value;
                    every cell of the workbook is held in memory while converting
                    """),
                .flag("--no-recalc", """
                    leave formulas without a cached value empty and write the values a workbook
                    stores (by default formulas without one are computed, cached values kept,
                    and every formula of a workbook that asks to be recalculated when opened,
                    as openpyxl and XlsxWriter files do; stderr says how many)
                    """),
                .flag("--strict", "exit 1 when a computed formula calls a function the engine lacks (each is named on stderr)"),
                .flag("--skip-empty-columns", "leave out columns with no value in the whole sheet (reads it twice)"),
                .valued("--range", "A1:D100", """
                    only this rectangle of the sheet, its top-left cell written first (cell
                    JSONL keeps the sheet's references); CSV and TSV records as wide as the
                    rectangle's columns that reach into the used range
                    """),
                .valued("--limit", "N", """
                    at most N records (CSV/TSV records, ndjson/json records after the header,
                    rows of cell JSONL); the sheet is read no further
                    """),
                .valued("--line-ending", "lf|crlf", "CSV line ending (default crlf, as RFC 4180)"),
                .valued("--values", "raw|displayed", """
                    csv/tsv/ndjson/json: the value (raw, the default) or the text Excel
                    (en-US) shows for it in its number format (displayed: 98.76%, 1,234.50)
                    """),
                .valued("--date-format", "FMT", """
                    CSV/TSV dates as FMT: %Y %m %d %H %M %S %f (milliseconds) %y %b %B
                    %I %p %% (default ISO: 2024-01-31, 2024-01-31 13:45:00)
                    """),
            ]),
            OptionGroup(title: "XLSX OUTPUT (from CSV, TSV or cell JSONL)", options: [
                .flag("--no-infer", "keep every CSV/TSV field as text"),
                .flag("--no-header", """
                    CSV/TSV input: the first row is data (by default it is a header, stored
                    as text and left out of each column's type)
                    """),
                .valued("--delimiter", "C", """
                    CSV input: the field delimiter (\\t for a tab; default: told from
                    the first lines among , ; tab and |, ties going to the comma)
                    """),
                .valued("--encoding", "NAME", "text input: its encoding, any iconv name (cp1252, latin1, utf-16, ...)"),
                .valued("--input-date-format", "FMT", """
                    CSV/TSV input: dates written as FMT (the directives of --date-format,
                    e.g. %d.%m.%Y or %m/%d/%y %I:%M %p), besides ISO 8601
                    """),
                .flag("--decimal-comma", """
                    CSV/TSV input: numbers are written 1.234,5 (ties in telling the
                    delimiter go to the semicolon)
                    """),
            ] + typingOptions + [
                .flag("--plain", """
                    no layout: by default column widths are fitted to the first 1,000
                    rows and a header row is bold, frozen and carries an autofilter
                    """),
                .flag("--inline-strings", """
                    inline strings instead of a shared-string table
                    (constant memory however much distinct text there is)
                    """),
                .flag("--zip64", "allow a worksheet over 4 GiB of XML"),
            ]),
            LimitOptions.group(),
        ],
        footer: "A sheet with over 1G of distinct text needs --max-text-size.")

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try spec.parse(arguments)
        if options.has("--help") { print(spec.help); return 0 }
        if options.positionals.count > 1 { return try convertSeveral(options.positionals, options: options) }
        guard options.positionals.count == 1, let given = options.positionals.first else {
            throw UsageError("convert takes an input file (or several text files into one workbook)\n\n" + spec.help)
        }
        let outputPath = options.value("--output") ?? "-"
        let all = options.has("--all")
        if all, outputPath == "-" { throw UsageError("--all writes one file per worksheet: give the folder with -o DIR") }
        if all, options.value("--sheet") != nil { throw UsageError("--all converts every worksheet; leave out --sheet") }
        let (source, prefix, decompressed) = try told(given, options: options)
        defer { withExtendedLifetime(decompressed) {} }
        let input = decompressed?.path ?? given
        let name = decompressed?.name ?? given
        if case .text(let textFormat) = source {
            if all { throw UsageError("--all converts the worksheets of a workbook; \(name.visibleControlCharacters) is \(textFormat.rawValue.uppercased()) text") }
            for option in ["--range", "--limit"] where options.value(option) != nil {
                throw UsageError("\(option) chooses what of a workbook's sheet is written; \(name.visibleControlCharacters) is \(textFormat.rawValue.uppercased()) text")
            }
            if options.has("--recalc") {
                throw UsageError("--recalc recomputes a workbook's formulas; \(name.visibleControlCharacters) is \(textFormat.rawValue.uppercased()) text")
            }
            return try toWorkbook(input, named: name, format: textFormat, prefix: prefix, output: outputPath, options: options)
        }
        // No extension (`-o /dev/null`, `-o out`) means the default, as standard output does.
        let formatName = options.value("--to") ?? (all || outputPath == "-" ? "csv" : extensionOf(outputPath).nonEmpty ?? "csv")
        guard let format = TextFormat(rawValue: formatName.lowercased()) else {
            let hint = options.value("--to") == nil ? " (from the extension of \(outputPath.visibleControlCharacters))" : ""
            throw UsageError("unknown output format \"\(formatName.visibleControlCharacters)\"\(hint); use --to csv, tsv, jsonl, ndjson or json")
        }
        let textOptions = try outputOptions(options, format: format)

        let limits = try LimitOptions.limits(options)
        let workbook = input == "-" ? try Workbook(bytes: StandardInput.readAll(limit: limits.maxTotalSize, after: prefix ?? []),
                                                   name: "<stdin>", limits: limits)
                                    : try Workbook(path: input, limits: limits)
        let visibleOnly = options.has("--exclude-hidden")
        if all {
            let sheets = workbook.sheets.filter { $0.kind == .worksheet && (!visibleOnly || $0.state == .visible) }
            return try convertAll(workbook, sheets: sheets, to: format, folder: outputPath, textOptions: textOptions, options: options)
        }
        let sheet: Sheet
        if let name = options.value("--sheet") {
            guard let named = workbook.sheet(named: name) else {
                let names = workbook.sheets.map { "\"\($0.name.visibleControlCharacters)\"" }.joined(separator: ", ")
                throw UsageError("\(input) has no sheet \"\(name.visibleControlCharacters)\"; its sheets are \(names)")
            }
            sheet = named
        } else {
            guard let first = workbook.sheets.first(where: { $0.kind == .worksheet && (!visibleOnly || $0.state == .visible) }) else {
                throw ReaderError(.missingPart, file: input, part: workbook.workbookPart,
                                  visibleOnly ? "the workbook has no visible worksheet" : "the workbook has no worksheet")
            }
            sheet = first
        }

        let progress = ProgressLine(label: "converting \(sheet.name.visibleControlCharacters)", disabled: options.has("--no-progress"),
                                    dataOnStandardOutput: outputPath == "-")
        defer { progress.finish() }
        let report = { reporter(progress)($0, "") }
        // Standard output streams; a file is staged beside its destination and published when complete.
        var file: AtomicFile?
        if outputPath != "-" {
            PendingFiles.removeOnSignals()
            file = try AtomicFile(destination: outputPath)
        }
        do {
            let output = ByteOutput(descriptor: file?.descriptor ?? 1, name: file == nil ? "<stdout>" : outputPath)
            let summary = try SheetConverter.convert(workbook, sheet: sheet, to: format, output: output, options: textOptions, progress: report)
            try file?.publish()
            progress.finish(summary: "converted \"\(sheet.name.visibleControlCharacters)\": \(summary.rows) rows, \(summary.cells) cells, "
                            + ClientOptions.size(summary.bytesRead) + " of XML", bytes: summary.bytesRead)
            return reportFormulas([summary], recalc: textOptions.recalc, recalculatesOnLoad: workbook.recalculatesOnLoad, strict: options.has("--strict"))
        } catch {
            file?.discard()
            throw error
        }
    }

    /// What `convert` reads.
    enum Source { case workbook, text(TextFormat), compressed(CompressedInput.Compression) }

    /// What `input` holds, as `source(of:named:options:)` tells it; compressed text is
    /// decompressed first (the copy, kept by the caller while it is read) and told in turn.
    static func told(_ input: String, options: Arguments) throws -> (Source, prefix: [UInt8]?, copy: CompressedInput?) {
        let (source, prefix) = try source(of: input, options: options)
        guard case .compressed(let compression) = source else { return (source, prefix, nil) }
        let copy = try CompressedInput(input, compression: compression, prefix: prefix, limits: LimitOptions.limits(options))
        let (inner, innerPrefix) = try Self.source(of: copy.path, named: copy.name, options: options)
        return (inner, innerPrefix, copy)
    }

    /// What IN holds: `--from` when given, else told from its first bytes (the extension only
    /// chooses among text formats; `name`'s, for a decompressed copy), with the bytes already
    /// taken from standard input.
    static func source(of input: String, named name: String? = nil, options: Arguments) throws -> (Source, prefix: [UInt8]?) {
        let name = name ?? input
        let workbookFormats = ["xlsx", "xlsm", "xltx", "xltm"]
        let textFormats: [TextFormat] = [.csv, .tsv, .jsonl]
        if let from = options.value("--from")?.lowercased() {
            if workbookFormats.contains(from) { return (.workbook, nil) }
            if let format = TextFormat(rawValue: from), textFormats.contains(format) { return (.text(format), nil) }
            throw UsageError("--from takes xlsx, xlsm, csv, tsv or jsonl, not \"\(from.visibleControlCharacters)\"")
        }
        let named = TextFormat(rawValue: input == "-" ? "" : extensionOf(name)).flatMap { textFormats.contains($0) ? $0 : nil }
        let compressionNamed = input == "-" ? nil : CompressedInput.Compression.named(name)
        guard let prefix = input == "-" ? try StandardInput.readPrefix(InputKind.sniffLength) : try filePrefix(input) else {
            // A pipe or device named as a path (`<(cat data.csv)`) cannot be read twice: its name decides.
            if let compressionNamed { return (.compressed(compressionNamed), nil) }
            if let named { return (.text(named), nil) }
            if workbookFormats.contains(extensionOf(name)) { return (.workbook, nil) }
            throw UsageError("\(input.visibleControlCharacters) is not a regular file, so its format cannot be told from its content; give --from")
        }
        let kind = InputKind.sniff(prefix)
        let kept = input == "-" ? prefix : nil
        let compression = CompressedInput.Compression.of(prefix)
        if let compressionNamed, compression != compressionNamed {
            let holds = compression.map { "\($0.rawValue) data" } ?? CompressedInput.formatName(prefix) ?? kind.description
            throw ReaderError(.notAZip, file: name, "named .\(extensionOf(name)), but it holds \(holds), not \(compressionNamed.rawValue) data")
        }
        if let compression { return (.compressed(compression), kept) }
        switch kind {
        case .zip, .compoundFile:
            // The reader names what the package is: ODS, legacy-xls, encrypted-workbook, ...
            return (.workbook, kept)
        case .text(let sniffed):
            if let named { return (.text(named), kept) }
            let written = input == "-" ? "" : extensionOf(name)
            if workbookFormats.contains(written) {
                throw ReaderError(.notAZip, file: name, "\(kind.description), not an \(written) workbook; "
                                  + "to convert it to xlsx, give --from \(sniffed.rawValue)")
            }
            return (.text(sniffed), kept)
        case .empty:
            if let named { return (.text(named), kept) }
            throw ReaderError(.notAZip, file: name, "an empty file: no workbook and no text to convert")
        case .binary:
            // Named as text, or given an encoding: the text reader decides, line by line.
            if let named { return (.text(named), kept) }
            if options.value("--encoding") != nil { return (.text(.csv), kept) }
            // Named as a workbook: the reader tells a damaged package (`corrupt-zip`) from others.
            if workbookFormats.contains(input == "-" ? "" : extensionOf(name)) { return (.workbook, kept) }
            let format = CompressedInput.formatName(prefix).map { "\($0): " } ?? ""
            throw ReaderError(.notAZip, file: name, "\(format)\(kind.description): not an xlsx/xlsm workbook, CSV, TSV or cell JSONL "
                              + "(or one of those compressed with gzip or zstd)")
        }
    }

    /// The first bytes of a regular file, nil for a pipe or a device (reading would consume them);
    /// a directory or an unreadable file is an I/O error.
    private static func filePrefix(_ path: String) throws -> [UInt8]? {
        var status = stat()
        guard stat(path, &status) == 0 else { throw ReaderError(.io, file: path, "cannot open: \(String(cString: strerror(errno)))") }
        if status.st_mode & S_IFMT == S_IFDIR { throw ReaderError(.io, file: path, "a directory, not a workbook or a text file") }
        guard status.st_mode & S_IFMT == S_IFREG else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw ReaderError(.io, file: path, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        return try StandardInput.readPrefix(InputKind.sniffLength, of: descriptor, name: path)
    }

    /// `--all`: every chosen worksheet into `folder` (created when missing), all published together.
    private static func convertAll(_ workbook: Workbook, sheets: [Sheet], to format: TextFormat, folder: String,
                                   textOptions: TextOutputOptions, options: Arguments) throws -> Int32 {
        var status = stat()
        if stat(folder, &status) != 0 {
            guard errno == ENOENT, mkdir(folder, 0o777) == 0 else {
                throw ReaderError(.io, file: folder, "cannot create the folder: \(String(cString: strerror(errno)))")
            }
        } else if status.st_mode & S_IFMT != S_IFDIR {
            throw UsageError("--all writes into a folder, and \(folder.visibleControlCharacters) is not one")
        }
        PendingFiles.removeOnSignals()
        let progress = ProgressLine(label: "converting", disabled: options.has("--no-progress"))
        defer { progress.finish() }
        let report = reporter(progress)
        let converted = try SheetConverter.convertAll(workbook, sheets: sheets, to: format, folder: folder, options: textOptions) { index, summary in
            report(summary, "sheet \(index + 1)/\(sheets.count)")
        }
        progress.finish(summary: "converted \(converted.count) worksheet\(converted.count == 1 ? "" : "s"), "
                        + "\(converted.reduce(0) { $0 + $1.summary.rows }) rows", bytes: converted.reduce(Int64(0)) { $0 + $1.summary.bytesRead })
        for sheet in converted {
            StandardError.write("\"\(sheet.sheet.name.visibleControlCharacters)\" -> \((folder as NSString).appendingPathComponent(sheet.fileName).visibleControlCharacters): \(sheet.summary.rows) rows")
        }
        if converted.isEmpty { StandardError.write("sheetport: \(workbook.file): no worksheet to convert") }
        return reportFormulas(converted.map(\.summary), recalc: textOptions.recalc, recalculatesOnLoad: workbook.recalculatesOnLoad, strict: options.has("--strict"))
    }

    /// The text output options given, checked against the output format.
    private static func outputOptions(_ options: Arguments, format: TextFormat) throws -> TextOutputOptions {
        var text = TextOutputOptions()
        text.skipEmptyRows = options.has("--skip-empty-rows")
        text.skipEmptyColumns = options.has("--skip-empty-columns")
        text.keepEmptyRows = options.has("--keep-empty-rows")
        text.fillMerged = options.has("--fill-merged")
        text.recalc = options.has("--recalc")
        text.computeMissingValues = !options.has("--no-recalc")
        if text.recalc, !text.computeMissingValues { throw UsageError("--recalc and --no-recalc contradict each other; give one") }
        if options.has("--strict"), !text.computeMissingValues {
            throw UsageError("--strict fails on functions the engine lacks, and --no-recalc computes nothing; give one")
        }
        if let value = options.value("--values") {
            guard let values = TextOutputOptions.Values(rawValue: value.lowercased()) else {
                throw UsageError("--values takes raw or displayed, not \"\(value.visibleControlCharacters)\"")
            }
            guard format != .jsonl else { throw UsageError("--values is for csv, tsv, ndjson and json (cell JSONL keeps typed values)") }
            text.values = values
        }
        if text.keepEmptyRows, format != .ndjson && format != .json {
            throw UsageError("--keep-empty-rows is for --to ndjson and json (CSV and TSV keep every row of the used range)")
        }
        if text.keepEmptyRows, text.skipEmptyRows { throw UsageError("--keep-empty-rows and --skip-empty-rows contradict each other; give one") }
        if (text.skipEmptyRows || text.skipEmptyColumns), format == .jsonl {
            throw UsageError("cell JSONL has no empty rows or columns to skip; --skip-empty-rows and --skip-empty-columns are for csv, tsv and ndjson")
        }
        if let value = options.value("--range") {
            guard let range = CellRange(value) else {
                throw UsageError("--range takes a rectangle of cells such as A1:D100 (or one cell, B2), not \"\(value.visibleControlCharacters)\"")
            }
            guard !text.skipEmptyColumns else { throw UsageError("--range chooses the columns itself; leave out --skip-empty-columns") }
            text.range = range
        }
        if let value = options.value("--limit") {
            guard let limit = Int(value), limit >= 0 else {
                throw UsageError("--limit takes a number of records from 0 up, not \"\(value.visibleControlCharacters)\"")
            }
            text.limit = limit
        }
        if let value = options.value("--header-row") {
            guard format == .ndjson || format == .json else { throw UsageError("--header-row is for --to ndjson and json") }
            guard let row = Int(value), row >= 1, row <= CellReference.maxRow else {
                throw UsageError("--header-row takes a row number from 1 to \(CellReference.maxRow), not \"\(value.visibleControlCharacters)\"")
            }
            text.headerRow = row
        }
        if let value = options.value("--line-ending") {
            guard let ending = TextOutputOptions.LineEnding(rawValue: value.lowercased()) else {
                throw UsageError("--line-ending takes lf or crlf, not \"\(value.visibleControlCharacters)\"")
            }
            guard format == .csv else { throw UsageError("--line-ending is for --to csv (TSV and JSON lines end in LF)") }
            text.lineEnding = ending
        }
        if let value = options.value("--date-format") {
            guard format == .csv || format == .tsv else {
                throw UsageError("--date-format is for csv and tsv (JSON dates are ISO 8601)")
            }
            do {
                text.dateFormat = try DateFormat(value)
            } catch {
                throw UsageError("--date-format: \(error)")
            }
        }
        return text
    }

    /// CSV, TSV or JSONL to xlsx.
    private static func toWorkbook(_ input: String, named name: String, format: TextFormat, prefix: [UInt8]?, output: String,
                                   options: Arguments) throws -> Int32 {
        let target = options.value("--to")?.lowercased() ?? (output == "-" ? "xlsx" : extensionOf(output).nonEmpty ?? "xlsx")
        guard target == "xlsx" else {
            throw UsageError("\(format.rawValue) input converts to xlsx only (got \(target.visibleControlCharacters))")
        }
        // A zip is binary: written to a terminal it is noise that can drive the terminal.
        if output == "-", isatty(1) == 1 {
            throw UsageError("an xlsx workbook is not written to a terminal; give -o OUT.xlsx or redirect standard output (> OUT.xlsx)")
        }
        var settings = try workbookSettings(for: format, options: options)
        settings.sheetName = options.value("--sheet") ?? TextToWorkbook.sheetName(for: name)
        let encoding = try inputEncoding(options)
        PendingFiles.removeOnSignals()
        let source = try TextSource(path: input, prefix: prefix ?? [], encoding: encoding,
                                    rereadable: settings.readsTwice && format != .jsonl, name: input == name ? nil : name)
        let progress = ProgressLine(label: "writing \(settings.sheetName.visibleControlCharacters)", disabled: options.has("--no-progress"),
                                    dataOnStandardOutput: output == "-")
        defer { progress.finish() }
        let report = { reporter(progress)($0, "") }
        guard output == "-" else {
            let summary = try TextToWorkbook.convert(source, format: format, to: output, options: settings, progress: report)
            progress.finish(summary: "wrote \(output.visibleControlCharacters): \(summary.rows) rows, \(summary.cells) cells", bytes: summary.bytesRead)
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

    /// How text input of `format` is read and written as a workbook, as the options say
    /// (the sheet's name aside).
    static func workbookSettings(for format: TextFormat, options: Arguments) throws -> TextToWorkbook.Options {
        var settings = TextToWorkbook.Options()
        settings.inferTypes = !options.has("--no-infer")
        settings.hasHeader = !options.has("--no-header")
        settings.writesLayout = !options.has("--plain")
        if format == .jsonl, options.has("--no-header") { throw UsageError("--no-header is for CSV and TSV input; cell JSONL has no header row") }
        settings.writer.sharedStrings = !options.has("--inline-strings")
        settings.writer.zip64 = options.has("--zip64")
        settings.rules.decimalComma = options.has("--decimal-comma")
        try applyTyping(options, format: format, to: &settings)
        if let value = options.value("--input-date-format") {
            guard format != .jsonl else { throw UsageError("--input-date-format is for CSV and TSV input; cell JSONL dates are ISO 8601") }
            do {
                settings.rules.dateFormat = try DateFormat(value)
            } catch {
                throw UsageError("--input-date-format: \(error)")
            }
        }
        if format != .csv, options.value("--delimiter") != nil { throw UsageError("--delimiter is for CSV input; \(format.rawValue) has its own") }
        settings.delimiter = try options.value("--delimiter").map { name in
            try DelimitedReader.delimiter(named: name) ?? { throw UsageError("--delimiter takes one character other than a quote or a line break, or \\t; got \"\(name.visibleControlCharacters)\"") }()
        }
        return settings
    }

    /// `--encoding`, when given.
    static func inputEncoding(_ options: Arguments) throws -> TextEncoding? {
        try options.value("--encoding").map { name in
            try TextEncoding(name) ?? { throw UsageError("unknown encoding \"\(name.visibleControlCharacters)\"; use a name iconv knows (`iconv -l`), such as cp1252, latin1 or utf-16") }()
        }
    }

    /// Shows how far a conversion has read, when the input's size is known (not on a pipe).
    static func reporter(_ progress: ProgressLine) -> (ConversionSummary, String) -> Void {
        { summary, prefix in
            guard summary.totalBytes > 0 else { return }
            progress.update(fraction: Double(summary.bytesRead) / Double(summary.totalBytes),
                            detail: (prefix.isEmpty ? "" : prefix + ", ") + "\(summary.rows) rows", bytes: summary.bytesRead)
        }
    }

    static func extensionOf(_ path: String) -> String {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return "" }
        return path[path.index(after: dot)...].lowercased()
    }
}

private extension String {
    /// The string, or nil when it is empty.
    var nonEmpty: String? { isEmpty ? nil : self }
}
