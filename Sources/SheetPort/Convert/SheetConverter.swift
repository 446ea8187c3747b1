/// The text formats a worksheet converts to.
public enum TextFormat: String, Sendable, CaseIterable {
    /// Comma-separated values, RFC 4180.
    case csv
    /// Tab-separated values.
    case tsv
    /// Cell JSON Lines (CONTRACTS section 2).
    case jsonl

    /// The format named by a file's extension, if any.
    public init?(fileName: String) {
        guard let dot = fileName.lastIndex(of: ".") else { return nil }
        self.init(rawValue: fileName[fileName.index(after: dot)...].lowercased())
    }
}

/// What a conversion wrote.
public struct ConversionSummary: Sendable, Equatable {
    /// Rows read from the sheet.
    public var rows = 0
    /// Non-empty cells written.
    public var cells = 0
}

/// Streams one worksheet into CSV, TSV or JSONL.
public enum SheetConverter {
    /// Converts `sheet` of `workbook` to `format`, writing to `output` row by row.
    @discardableResult
    public static func convert(_ workbook: Workbook, sheet: Sheet, to format: TextFormat,
                               output: ByteOutput) throws -> ConversionSummary {
        let reader = try workbook.rows(of: sheet)
        var summary = ConversionSummary()
        switch format {
        case .jsonl:
            let writer = try JSONLWriter(output: output, styles: workbook.styles(), dateSystem: workbook.dateSystem)
            while let row = try reader.nextRow() {
                try writer.write(row)
                summary.rows += 1
                summary.cells += row.cells.count
            }
        case .csv, .tsv:
            var writer = DelimitedWriter(output: output, dialect: format == .csv ? .csv : .tsv,
                                         dateSystem: workbook.dateSystem)
            while let row = try reader.nextRow() {
                try writer.write(row, dimension: reader.metadata.dimension)
                summary.rows += 1
                summary.cells += row.cells.count
            }
        }
        try output.flush()
        return summary
    }
}
