import SheetPortCore
/// CSV and TSV as typed rows: the two passes of `TextToWorkbook.convert` (one decides each
/// column's kind, `ColumnTypes`; the next makes each record a row), shared with `sheetport
/// bench csv`, which times them without a writer.
extension TextToWorkbook {
    /// What the first pass found: the delimiter, and the columns' kinds when types are inferred.
    struct DelimitedLayout {
        var delimiter: UInt8?
        var columns: ColumnTypes?
    }

    /// Reads CSV or TSV `source` as typed rows, handing each to `body` with the line it
    /// started on (the row is reused: copy what you keep); `style` gives the style index of a
    /// number format (dates and times). Returns the rows, cells and bytes read.
    public static func readRows(_ source: TextSource, format: TextFormat, options: Options = Options(),
                                progress: ((ConversionSummary) -> Void)? = nil,
                                style: (String) throws -> Int, body: (Row, Int) throws -> Void) throws -> ConversionSummary {
        var summary = ConversionSummary()
        summary.totalBytes = (source.size ?? 0) * (options.inferTypes ? 2 : 1)
        let layout = try layout(of: source, format: format, options: options, summary: &summary, progress: progress)
        try forEachRow(of: source, format: format, layout: layout, options: options, summary: &summary,
                       progress: progress, style: style) { row, line, _ in try body(row, line) }
        return summary
    }

    /// The first pass: the delimiter and each column's kind (nothing is read when types are
    /// not inferred).
    static func layout(of source: TextSource, format: TextFormat, options: Options, summary: inout ConversionSummary,
                       progress: ((ConversionSummary) -> Void)?) throws -> DelimitedLayout {
        guard options.inferTypes else { return DelimitedLayout(delimiter: options.delimiter) }
        let input = try source.open()
        var reader = try DelimitedReader(input: input, dialect: format == .tsv ? .tsv : .csv, delimiter: options.delimiter,
                                         preferSemicolon: options.rules.decimalComma)
        var columns = ColumnTypes(rules: options.rules, hasHeader: options.hasHeader)
        var record = DelimitedRecord()
        var number = 0
        while try reader.read(into: &record) {
            number += 1
            try checkGrid(number, reader: reader, input: input)
            columns.count(record)
            if let progress, number & 4095 == 0 {
                (summary.rows, summary.bytesRead) = (number, input.sourceBytesRead)
                progress(summary)
            }
        }
        summary.bytesRead = input.sourceBytesRead
        return DelimitedLayout(delimiter: reader.delimiter, columns: columns)
    }

    /// The second pass: each record as a row of typed cells (text where the column is text,
    /// and in the header), handed to `body` with its line and the input.
    static func forEachRow(of source: TextSource, format: TextFormat, layout: DelimitedLayout, options: Options,
                           summary: inout ConversionSummary, progress: ((ConversionSummary) -> Void)?,
                           style: (String) throws -> Int, body: (Row, Int, ByteInput) throws -> Void) throws {
        let firstPass = summary.bytesRead
        summary.rows = 0
        let input = try source.open()
        var reader = try DelimitedReader(input: input, dialect: format == .tsv ? .tsv : .csv, delimiter: layout.delimiter,
                                         preferSemicolon: options.rules.decimalComma)
        var headerPending = options.hasHeader
        var record = DelimitedRecord()
        var row = Row(index: 0)
        // Each column's kind (nil: text), read once instead of through the optional layout a field.
        let kinds = layout.columns.map { columns in (0..<columns.columnCount).map { columns.kind(of: $0) } } ?? []
        let rules = options.rules
        // Each column's last number format and its style index: a column's format rarely changes.
        var styles: [(format: String, index: Int)?] = []
        var recent = RecentText()
        while try reader.read(into: &record) {
            let number = summary.rows + 1
            try checkGrid(number, reader: reader, input: input)
            row.index = number
            let isHeader = ColumnTypes.isHeader(record, pending: &headerPending)
            // The row's cells are overwritten in place, field by field (a cell built and
            // appended is copied and destroyed, and emptying the array is a generic call: two
            // thirds of this pass), then cut to the number written.
            if row.cells.count < record.count {
                row.cells += repeatElement(Cell(column: 0, value: .empty), count: record.count - row.cells.count)
            }
            let written = try row.cells.withUnsafeMutableBufferPointer { cells -> Int in
                var written = 0
                for column in 0..<record.count where !record.isEmpty(at: column) {
                    cells[written].column = column + 1
                    defer { written += 1 }
                    guard !isHeader, column < kinds.count, let kind = kinds[column],
                          let (value, numberFormat) = record.withField(column, { TypeInference.value(of: $0, as: kind, rules: rules) }) else {
                        cells[written].value = .string(record.withField(column) { recent.string($0, column: column) })
                        cells[written].styleIndex = 0
                        continue
                    }
                    var styleIndex = 0
                    if let numberFormat {
                        if column >= styles.count { styles += repeatElement(nil, count: column + 1 - styles.count) }
                        if let cached = styles[column], cached.format == numberFormat {
                            styleIndex = cached.index
                        } else {
                            styleIndex = try style(numberFormat)
                            styles[column] = (numberFormat, styleIndex)
                        }
                    }
                    cells[written].value = value
                    cells[written].styleIndex = styleIndex
                }
                return written
            }
            if written < row.cells.count { row.cells.removeLast(row.cells.count - written) }
            try body(row, reader.recordLine, input)
            summary.rows = number
            summary.cells += row.cells.count
            if let progress, number & 4095 == 0 {
                summary.bytesRead = firstPass + input.sourceBytesRead
                progress(summary)
            }
        }
        summary.bytesRead = firstPass + input.sourceBytesRead
    }

    /// Throws when record `number` falls outside Excel's grid.
    private static func checkGrid(_ number: Int, reader: DelimitedReader, input: ByteInput) throws {
        guard number <= CellReference.maxRow else {
            throw TextInputError(file: input.name, line: reader.recordLine, "more than 1,048,576 records: outside Excel's grid")
        }
    }
}
