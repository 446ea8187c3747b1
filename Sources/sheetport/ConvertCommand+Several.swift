import SheetPortCore
import SheetPortWriter
import SheetPortConvert

extension ConvertCommand {
    /// `convert a.csv b.csv c.tsv -o book.xlsx`: each text input (compressed ones too) a sheet
    /// of one workbook, in order, named from its file (made unique) or by `--sheet` given once
    /// per input; published only when every input converted.
    static func convertSeveral(_ inputs: [String], options: Arguments) throws -> Int32 {
        guard let output = options.value("--output"), output != "-" else {
            throw UsageError("several inputs are written into one workbook: give it with -o BOOK.xlsx")
        }
        let target = options.value("--to")?.lowercased() ?? extensionOf(output)
        guard target == "xlsx" || target.isEmpty else {
            throw UsageError("several inputs are written into one xlsx workbook, not \(target.visibleControlCharacters)")
        }
        for option in ["--all", "--recalc", "--range", "--limit"] where options.has(option) || options.values(option).count > 0 {
            throw UsageError("\(option) is for a workbook's sheets; several inputs are text files written into one workbook")
        }
        guard !inputs.contains("-") else { throw UsageError("standard input (-) can only be the one input") }
        let names = options.values("--sheet")
        guard names.isEmpty || names.count == inputs.count else {
            throw UsageError("--sheet is given once per input, in order: \(inputs.count) inputs, \(names.count) sheet names")
        }
        var seen: [String: String] = [:]
        for name in names {
            // A name Excel refuses is the option's fault, told before anything is read.
            if let violation = SheetName.violation(of: name) {
                throw UsageError("--sheet \"\(name.visibleControlCharacters)\": \(violation)")
            }
            if let earlier = seen[name.lowercased()] {
                throw UsageError("two inputs would both be sheet \"\(earlier.visibleControlCharacters)\" (\"\(name.visibleControlCharacters)\"); sheet names differ ignoring case")
            }
            seen[name.lowercased()] = name
        }
        PendingFiles.removeOnSignals()
        let encoding = try inputEncoding(options)
        // Each input is told, and decompressed when compressed, before anything is written; the
        // copies live until the workbook is published.
        var copies: [CompressedInput] = []
        var inputsTold: [(path: String, name: String, format: TextFormat, prefix: [UInt8]?)] = []
        var settings = TextToWorkbook.Options()
        for input in inputs {
            let (source, prefix, copy) = try told(input, options: options)
            if let copy { copies.append(copy) }
            let (path, name) = (copy?.path ?? input, copy?.name ?? input)
            guard case .text(let format) = source else {
                throw UsageError("several inputs are text (CSV, TSV, cell JSONL) written into one workbook; \(input.visibleControlCharacters) is a workbook")
            }
            settings = try workbookSettings(for: format, options: options)
            inputsTold.append((path, name, format, prefix))
        }
        let sheetNames = names.isEmpty ? TextToWorkbook.sheetNames(for: inputsTold.map(\.name)) : names
        var sources: [TextToWorkbook.Input] = []
        for (index, input) in inputsTold.enumerated() {
            let source = try TextSource(path: input.path, prefix: input.prefix ?? [], encoding: encoding,
                                        rereadable: settings.readsTwice && input.format != .jsonl,
                                        name: input.path == input.name ? nil : input.name)
            sources.append(TextToWorkbook.Input(source: source, format: input.format, sheetName: sheetNames[index]))
        }
        let progress = ProgressLine(label: "writing \(output.visibleControlCharacters)", disabled: options.has("--no-progress"))
        defer { progress.finish() }
        let report = reporter(progress)
        let summaries = try withExtendedLifetime(copies) {
            try TextToWorkbook.convert(sources, to: output, options: settings) { index, summary in
                report(summary, "sheet \(index + 1)/\(sources.count)")
            }
        }
        progress.finish(summary: "wrote \(output.visibleControlCharacters): \(sources.count) sheets, "
                        + "\(summaries.reduce(0) { $0 + $1.rows }) rows", bytes: summaries.reduce(Int64(0)) { $0 + $1.bytesRead })
        for (input, summary) in zip(sources, summaries) {
            StandardError.write("\(input.source.name.visibleControlCharacters) -> \"\(input.sheetName.visibleControlCharacters)\": \(summary.rows) rows")
        }
        return 0
    }
}
