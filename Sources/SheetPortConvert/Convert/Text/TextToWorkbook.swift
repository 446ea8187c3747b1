import SheetPortCore
import SheetPortWriter
/// Converts CSV, TSV or cell JSONL into a one-sheet xlsx workbook, streaming: each row is
/// written as it is read. CSV and TSV with types inferred are read twice: once to decide each
/// column's kind (`ColumnTypes`), once to write.
public enum TextToWorkbook {
    /// How a conversion goes.
    public struct Options: Sendable {
        /// Type CSV/TSV fields (numbers, booleans, ISO dates), a kind per column; `false` keeps
        /// every field as text.
        public var inferTypes = true
        /// CSV/TSV: the first non-blank record is a header, stored as text and left out of the
        /// columns' kinds; false (`--no-header`) makes it data.
        public var hasHeader = true
        /// The CSV field delimiter; nil tells it from the start of the input (`DelimiterSniffer`).
        public var delimiter: UInt8?
        /// How numbers are written in CSV and TSV.
        public var rules = TypeInference.Rules()
        /// CSV/TSV: declared column kinds (`--types`) and null fields (`--null`).
        public var declarations = ColumnDeclarations()
        /// Lay the sheet out: column widths fitted to the text the header and the first 1,000
        /// data rows show, and the header (CSV/TSV, unless `hasHeader` is false) bold, frozen
        /// and with an autofilter; false (`--plain`) writes none of these.
        public var writesLayout = true
        /// The name of the sheet written.
        public var sheetName = "Sheet1"
        /// How the workbook is written; the shared-string table is bounded
        /// (`TextToWorkbook.sharedStringBudget`), so a CSV of millions of distinct strings
        /// converts in constant memory.
        public var writer: WriterOptions = {
            var options = WriterOptions()
            options.sharedStringBudget = TextToWorkbook.sharedStringBudget
            return options
        }()

        /// The defaults.
        public init() {}

        /// Whether CSV/TSV input is read twice: once for the columns' kinds (inferred, or
        /// declared by header name), once to write.
        public var readsTwice: Bool { inferTypes || !declarations.declarations.isEmpty }
    }

    /// The most memory the shared-string table of a converted sheet takes: 8 MiB (about
    /// 140,000 distinct short strings); text first seen after that is written inline, while
    /// repeated words already in the table stay shared.
    public static let sharedStringBudget = 8 << 20

    /// Reads `source` as `format` and writes the workbook to `destination`, published only when
    /// complete; `progress` hears about every 4,096 rows (of each pass).
    @discardableResult
    public static func convert(_ source: TextSource, format: TextFormat, to destination: String, options: Options = Options(),
                               progress: ((ConversionSummary) -> Void)? = nil) throws -> ConversionSummary {
        let writer = try WorkbookWriter(path: destination, options: options.writer)
        do {
            let summary = try append(source, format: format, to: writer, options: options, progress: progress)
            try writer.close()
            return summary
        } catch {
            writer.discard()
            throw error
        }
    }

    /// Reads `source` as `format` into a new sheet of `writer` named `options.sheetName`.
    static func append(_ source: TextSource, format: TextFormat, to writer: WorkbookWriter, options: Options,
                       progress: ((ConversionSummary) -> Void)?) throws -> ConversionSummary {
        var summary = ConversionSummary()
        summary.totalBytes = (source.size ?? 0) * (format != .jsonl && options.readsTwice ? 2 : 1)
        var layout = DelimitedLayout()
        switch format {
        case .ndjson, .json:
            throw TextInputError(file: source.name, line: 0, "\(format.rawValue) records are written, not read; convert cell JSONL, CSV or TSV")
        case .csv, .tsv:
            layout = try self.layout(of: source, format: format, options: options, summary: &summary, progress: progress)
        case .jsonl:
            break
        }

        do {
            let sheet = try writer.addWorksheet(named: options.sheetName)
            func write(_ row: Row, line: Int, input: ByteInput) throws {
                do {
                    try sheet.append(row)
                } catch let error as WriterError {
                    // A failing file system is the output's fault, not the line's.
                    if case .io = error { throw error }
                    throw TextInputError(file: input.name, line: line, error.description)
                }
            }
            // Cell JSONL has no header row: its sheet gets fitted widths alone.
            var sheetLayout = options.writesLayout
                ? SheetLayout(sheet: sheet, writer: writer, hasHeader: options.hasHeader && format != .jsonl) : nil
            func append(_ row: Row, line: Int, input: ByteInput) throws {
                guard sheetLayout != nil else { return try write(row, line: line, input: input) }
                try sheetLayout!.append(row, line: line, input: input, write: write)
            }
            if format == .jsonl {
                let input = try source.open()
                var reader = try CellJSONLReader(input: input)
                while let (read, styles) = try reader.nextRow() {
                    var row = read
                    // The writer's style table deduplicates; nil is the plain style.
                    for index in row.cells.indices { row.cells[index].styleIndex = try styles[index].map(writer.style) ?? 0 }
                    try append(row, line: reader.rowLine, input: input)
                    summary.rows += 1
                    summary.cells += row.cells.count
                    if let progress, summary.rows & 4095 == 0 {
                        summary.bytesRead = input.sourceBytesRead
                        progress(summary)
                    }
                }
                summary.bytesRead = input.sourceBytesRead
            } else {
                try forEachRow(of: source, format: format, layout: layout, options: options, summary: &summary, progress: progress,
                               style: { try writer.style(CellStyle(numberFormat: $0)) }, body: append)
            }
            try sheetLayout?.finish(write: write)
            return summary
        }
    }

    /// The sheet name for a converted file: its base name, made valid for Excel.
    public static func sheetName(for input: String) -> String {
        guard input != "-" else { return "Sheet1" }
        var name = String(input.split(separator: "/").last ?? "Sheet1")
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
        name = String(name.map { "[]:*?/\\".contains($0) ? "_" : $0 })
        while name.hasPrefix("'") { name.removeFirst() }
        while name.hasSuffix("'") { name.removeLast() }
        while name.utf16.count > 31 { name.removeLast() }
        return name.isEmpty || name.lowercased() == "history" ? "Sheet1" : name
    }
}
