import SheetPortCore
import SheetPortReader
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
        /// The name of the sheet written.
        public var sheetName = "Sheet1"
        /// How the workbook is written.
        public var writer = WriterOptions()

        /// The defaults.
        public init() {}
    }

    /// Reads `source` as `format` and writes the workbook to `destination`, published only when
    /// complete; `progress` hears about every 4,096 rows (of each pass).
    @discardableResult
    public static func convert(_ source: TextSource, format: TextFormat, to destination: String, options: Options = Options(),
                               progress: ((ConversionSummary) -> Void)? = nil) throws -> ConversionSummary {
        let dialect: DelimitedWriter.Dialect = format == .tsv ? .tsv : .csv
        let passes: Int64 = format != .jsonl && options.inferTypes ? 2 : 1
        var summary = ConversionSummary()
        summary.totalBytes = (source.size ?? 0) * passes
        var delimiter = options.delimiter
        var types: ColumnTypes?
        if passes == 2 {
            let input = try source.open()
            var reader = try DelimitedReader(input: input, dialect: dialect, delimiter: delimiter, preferSemicolon: options.rules.decimalComma)
            delimiter = reader.delimiter
            var columns = ColumnTypes(rules: options.rules, hasHeader: options.hasHeader)
            try forEachRecord(of: &reader, in: input) { fields, number, _ in
                columns.count(fields)
                if let progress, number & 4095 == 0 {
                    (summary.rows, summary.bytesRead) = (number, input.sourceBytesRead)
                    progress(summary)
                }
            }
            types = columns
            summary.bytesRead = input.sourceBytesRead
        }
        let firstPass = summary.bytesRead
        summary.rows = 0

        let input = try source.open()
        let writer = try WorkbookWriter(path: destination, options: options.writer)
        do {
            let sheet = try writer.addWorksheet(named: options.sheetName)
            // The writer's style table deduplicates; nil is the plain style.
            func styleIndex(_ style: CellStyle?) throws -> Int { try style.map(writer.style) ?? 0 }
            func append(_ row: Row, line: Int) throws {
                do {
                    try sheet.append(row)
                } catch let error as WriterError {
                    throw TextInputError(file: input.name, line: line, error.description)
                }
                summary.rows += 1
                summary.cells += row.cells.count
                if let progress, summary.rows & 4095 == 0 {
                    summary.bytesRead = firstPass + input.sourceBytesRead
                    progress(summary)
                }
            }
            switch format {
            case .ndjson, .json:
                throw TextInputError(file: input.name, line: 0, "\(format.rawValue) records are written, not read; convert cell JSONL, CSV or TSV")
            case .jsonl:
                var reader = try CellJSONLReader(input: input)
                while let (read, styles) = try reader.nextRow() {
                    var row = read
                    for index in row.cells.indices { row.cells[index].styleIndex = try styleIndex(styles[index]) }
                    try append(row, line: reader.rowLine)
                }
            case .csv, .tsv:
                var reader = try DelimitedReader(input: input, dialect: dialect, delimiter: delimiter, preferSemicolon: options.rules.decimalComma)
                var headerPending = options.hasHeader
                try forEachRecord(of: &reader, in: input) { fields, number, line in
                    var row = Row(index: number)
                    let isHeader = ColumnTypes.isHeader(fields, pending: &headerPending)
                    for (column, field) in fields.enumerated() where !field.isEmpty {
                        if !isHeader, let (value, numberFormat) = types?.value(of: field, column: column) {
                            let style = numberFormat.map { CellStyle(numberFormat: $0) }
                            row.cells.append(Cell(column: column + 1, value: value, styleIndex: try styleIndex(style)))
                        } else {
                            row.cells.append(Cell(column: column + 1, value: .string(field)))
                        }
                    }
                    try append(row, line: line)
                }
            }
            try writer.close()
            summary.bytesRead = firstPass + input.sourceBytesRead
            return summary
        } catch {
            writer.discard()
            throw error
        }
    }

    /// Hands each record of `reader` with its 1-based number and its line to `body`, within Excel's grid.
    private static func forEachRecord(of reader: inout DelimitedReader, in input: ByteInput,
                                      _ body: ([String], Int, Int) throws -> Void) throws {
        var number = 0
        while let fields = try reader.nextRecord() {
            number += 1
            guard number <= CellReference.maxRow else {
                throw TextInputError(file: input.name, line: reader.recordLine, "more than 1,048,576 records: outside Excel's grid")
            }
            try body(fields, number, reader.recordLine)
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
