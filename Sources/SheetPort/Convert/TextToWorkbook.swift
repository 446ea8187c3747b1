/// Converts CSV, TSV or cell JSONL into a one-sheet xlsx workbook, streaming: each row is
/// written as it is read.
public enum TextToWorkbook {
    /// How a conversion goes.
    public struct Options: Sendable {
        /// Type CSV/TSV fields (numbers, booleans, ISO dates); `false` keeps every field as text.
        public var inferTypes = true
        /// The name of the sheet written.
        public var sheetName = "Sheet1"
        /// How the workbook is written.
        public var writer = WriterOptions()

        /// The defaults.
        public init() {}
    }

    /// Reads `input` as `format` and writes the workbook to `destination`, published only when
    /// complete; `progress` hears about every 4,096 rows.
    @discardableResult
    public static func convert(_ input: ByteInput, format: TextFormat, to destination: String, options: Options = Options(),
                               progress: ((ConversionSummary) -> Void)? = nil) throws -> ConversionSummary {
        let writer = try WorkbookWriter(path: destination, options: options.writer)
        do {
            let sheet = try writer.addWorksheet(named: options.sheetName)
            var summary = ConversionSummary()
            summary.totalBytes = input.size ?? 0
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
                    summary.bytesRead = input.bytesRead
                    progress(summary)
                }
            }
            switch format {
            case .ndjson:
                throw TextInputError(file: input.name, line: 0, "ndjson records are written, not read; convert cell JSONL, CSV or TSV")
            case .jsonl:
                var reader = try CellJSONLReader(input: input)
                while let (read, styles) = try reader.nextRow() {
                    var row = read
                    for index in row.cells.indices { row.cells[index].styleIndex = try styleIndex(styles[index]) }
                    try append(row, line: reader.rowLine)
                }
            case .csv, .tsv:
                var reader = try DelimitedReader(input: input, dialect: format == .csv ? .csv : .tsv)
                var rowNumber = 0
                while let fields = try reader.nextRecord() {
                    rowNumber += 1
                    guard rowNumber <= CellReference.maxRow else {
                        throw TextInputError(file: input.name, line: reader.recordLine, "more than 1,048,576 records: outside Excel's grid")
                    }
                    guard fields.count <= CellReference.maxColumn else {
                        throw TextInputError(file: input.name, line: reader.recordLine, "\(fields.count) fields: Excel's grid has 16,384 columns")
                    }
                    var row = Row(index: rowNumber)
                    for (offset, field) in fields.enumerated() where !field.isEmpty {
                        if options.inferTypes, let (value, numberFormat) = TypeInference.value(of: field) {
                            let style = numberFormat.map { CellStyle(numberFormat: $0) }
                            row.cells.append(Cell(column: offset + 1, value: value, styleIndex: try styleIndex(style)))
                        } else {
                            row.cells.append(Cell(column: offset + 1, value: .string(field)))
                        }
                    }
                    try append(row, line: reader.recordLine)
                }
            }
            try writer.close()
            summary.bytesRead = input.bytesRead
            return summary
        } catch {
            writer.discard()
            throw error
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
