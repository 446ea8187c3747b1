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
        summary.totalBytes = (source.size ?? 0) * (options.readsTwice ? 2 : 1)
        let layout = try layout(of: source, format: format, options: options, summary: &summary, progress: progress)
        try forEachRow(of: source, format: format, layout: layout, options: options, summary: &summary,
                       progress: progress, style: style) { row, line, _ in try body(row, line) }
        return summary
    }

    /// The first pass: the delimiter and each column's kind (nothing is read when types are
    /// not inferred).
    static func layout(of source: TextSource, format: TextFormat, options: Options, summary: inout ConversionSummary,
                       progress: ((ConversionSummary) -> Void)?) throws -> DelimitedLayout {
        guard options.readsTwice else { return DelimitedLayout(delimiter: options.delimiter) }
        let input = try source.open()
        var reader = try DelimitedReader(input: input, dialect: format == .tsv ? .tsv : .csv, delimiter: options.delimiter,
                                         preferSemicolon: options.rules.decimalComma)
        // A declared column that is not there is the options' fault: its error is thrown as it is.
        var columns = try ColumnTypes(rules: options.rules, hasHeader: options.hasHeader, declarations: options.declarations,
                                      infer: options.inferTypes)
        var record = DelimitedRecord()
        var number = 0
        while try reader.read(into: &record) {
            number += 1
            try checkGrid(number, reader: reader, input: input)
            try columns.count(record)
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
        // Each column's kind (nil: text), read once instead of through the optional layout a
        // field; declared kinds win, and a field that does not fit one is an error.
        let declared = layout.columns?.declared ?? [:]
        let width = max(layout.columns?.columnCount ?? 0, (declared.keys.max() ?? -1) + 1)
        let kinds = layout.columns.map { columns in (0..<width).map { declared[$0].map(\.inferred) ?? columns.kind(of: $0) } } ?? []
        let isDeclared = (0..<width).map { declared[$0] != nil }
        let declarations = options.declarations
        let nulls = !declarations.nullFields.isEmpty
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
                    if nulls, !isHeader, record.withField(column, declarations.isNull) { continue }
                    cells[written].column = column + 1
                    defer { written += 1 }
                    let typed: (value: CellValue, numberFormat: String?)?
                    if !isHeader, let code = record.withField(column, TypeInference.errorCode),
                       options.inferTypes ? declared[column] != .text : kinds.indices.contains(column) && kinds[column] != nil {
                        // An error value, unless the column is text (declared so, or --no-infer).
                        typed = (.error(code), nil)
                    } else if !isHeader, column < kinds.count, let kind = kinds[column] {
                        typed = isDeclared[column]
                            ? try record.withField(column) { field in
                                guard let value = TypeInference.declaredValue(of: field, as: kind, rules: rules) else {
                                    throw misfit(field, kind: declared[column]!, row: number, column: column, line: reader.recordLine, input: input)
                                }
                                return value
                            }
                            : record.withField(column) { TypeInference.value(of: $0, as: kind, rules: rules) }
                    } else {
                        typed = nil
                    }
                    guard let (value, numberFormat) = typed else {
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

    /// The error for a field of a declared column that is not of its kind.
    private static func misfit(_ field: UnsafeBufferPointer<UInt8>, kind: ColumnDeclarations.Kind, row: Int, column: Int,
                               line: Int, input: ByteInput) -> TextInputError {
        let text = String(decoding: field.prefix(80), as: UTF8.self).visibleControlCharacters
        return TextInputError(file: input.name, line: line, "row \(row), column \(CellReference.columnName(column + 1)): "
                              + "\"\(text)\"\(field.count > 80 ? "..." : "") is not a \(kind.rawValue), as --types declares the column")
    }

    /// Throws when record `number` falls outside Excel's grid.
    private static func checkGrid(_ number: Int, reader: DelimitedReader, input: ByteInput) throws {
        guard number <= CellReference.maxRow else {
            throw TextInputError(file: input.name, line: reader.recordLine, "more than 1,048,576 records: outside Excel's grid")
        }
    }
}
