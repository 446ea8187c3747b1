import SheetPortCore
import SheetPortCalc
import SheetPortReader
import SheetPortWriter
/// The text formats a worksheet converts to.
public enum TextFormat: String, Sendable, CaseIterable {
    /// Comma-separated values, RFC 4180.
    case csv
    /// Tab-separated values.
    case tsv
    /// Cell JSON Lines (Docs/Reference/Formats.md, "Cell JSONL").
    case jsonl
    /// Records: one JSON object per data row, keyed by the header row (Docs/Reference/Formats.md, "Records").
    case ndjson
    /// The ndjson records as one JSON array.
    case json

    /// The format named by a file's extension, if any.
    public init?(fileName: String) {
        guard let dot = fileName.lastIndex(of: ".") else { return nil }
        self.init(rawValue: fileName[fileName.index(after: dot)...].lowercased())
    }
}

/// What a conversion wrote, so far or in all.
public struct ConversionSummary: Sendable, Equatable {
    /// Rows read from the sheet while converting; once done, the rows written (CSV and TSV
    /// records, ndjson records, rows with a cell in cell JSONL).
    public var rows = 0
    /// Non-empty cells written.
    public var cells = 0
    /// Bytes of the worksheet part parsed.
    public var bytesRead: Int64 = 0
    /// The worksheet part's size in bytes.
    public var totalBytes: Int64 = 0
    /// Formula cells written with the engine's value: those without a cached value, or with
    /// `recalc` every formula cell written.
    public var computedFormulas = 0
    /// Functions the engine lacks among those cells (they hold `#NAME?`, or the cached value).
    public var unsupportedFunctions: [UnsupportedFunctionUse] = []
}

/// Streams one worksheet into CSV, TSV, cell JSONL or ndjson records.
public enum SheetConverter {
    /// Converts `sheet` of `workbook` to `format`, writing to `output` row by row;
    /// `progress`, when given, hears how far the read is every 4,096 rows. With
    /// `options.skipEmptyColumns` the sheet is read twice: once to find the columns with values.
    @discardableResult
    public static func convert(_ workbook: Workbook, sheet: Sheet, to format: TextFormat, output: ByteOutput,
                               options: TextOutputOptions = TextOutputOptions(),
                               progress: ((ConversionSummary) -> Void)? = nil) throws -> ConversionSummary {
        try convert(workbook, sheet: sheet, to: format, output: output, options: options, calculation: nil, progress: progress)
    }

    /// `convert` with the workbook's calculation shared by several sheets (`--all`); with none
    /// given, one is made here as `options` ask.
    static func convert(_ workbook: Workbook, sheet: Sheet, to format: TextFormat, output: ByteOutput,
                        options: TextOutputOptions, calculation given: ConversionCalculation?,
                        progress: ((ConversionSummary) -> Void)?) throws -> ConversionSummary {
        let calculation = try given ?? ConversionCalculation(workbook, options: options)
        var computed = Set<CellLocation>()
        // Skipped columns need the values of a first pass (with `--recalc` the calculation's
        // load was that pass). CSV and TSV records are all as wide as the used range: its width
        // comes from a scan of the cells' tags alone (`<dimension>` is often missing or wrong),
        // so that records are written as they are read.
        let used = options.skipEmptyColumns && format != .jsonl
            ? try calculation?.usedRange(of: sheet) ?? workbook.usedRange(of: sheet) : nil
        let window = SheetWindow(range: options.range, moves: format != .jsonl)
        var filler = options.fillMerged ? MergeFiller(ranges: try mergedRanges(workbook, sheet)) : MergeFiller(ranges: [])
        var columns = options.skipEmptyColumns && format != .jsonl ? ColumnSelection(keeping: used!.columnsWithValues) : ColumnSelection()
        if !filler.isEmpty, let kept = columns.kept {
            // Columns a range fills have values too.
            let filled = Set(kept).union(try filledColumns(workbook, sheet))
            columns = ColumnSelection(keeping: filled.sorted())
        }
        // The records' width for cells reaching `columns`.
        func recordWidth(_ columns: Int) -> Int {
            window.width(within: filler.isEmpty ? columns : max(columns, filler.extent.columns))
        }
        var width = used?.columns
        // The scan runs while the rows are read (`RowsAwaitingWidth`): the first record waits for it.
        var scan: UsedWidthScan?
        if width == nil, format == .csv || format == .tsv {
            width = calculation?.usedRange(of: sheet)?.columns
            if width == nil { scan = try UsedWidthScan(workbook, sheet: sheet) }
        }
        width = width.map(recordWidth)
        let reader = try workbook.rows(of: sheet)
        var summary = ConversionSummary()
        // Each writer is driven through a non-escaping closure: a writer captured by an
        // escaping one lives in a box with an exclusivity check on every row.
        var lastRow = 0
        // `isFull` says when `--limit` records are written: the sheet is read no further.
        func drain(_ write: (Row) throws -> Void, isFull: () -> Bool) throws {
            // A row in the window (`--range`), moved to its place; false once past it or full.
            func put(_ row: Row) throws -> Bool {
                var row = row
                switch window.fit(&row) {
                case .skip: return true
                case .stop: return false
                case .write:
                    try write(row)
                    return !isFull()
                }
            }
            reading: while var row = try reader.nextRow() {
                try calculation?.substitute(&row, of: sheet, written: &computed)
                if !filler.isEmpty {
                    // Rows a range covers that the sheet does not have are made, to be filled.
                    while lastRow + 1 < row.index {
                        lastRow += 1
                        guard filler.covers(lastRow) else { continue }
                        var made = Row(index: lastRow)
                        filler.fill(&made)
                        if !made.cells.isEmpty, try !put(made) { break reading }
                    }
                    filler.fill(&row)
                    lastRow = row.index
                }
                summary.rows += 1
                summary.cells += row.cells.count
                if try !put(row) { return }
                if let progress, summary.rows & 4095 == 0 {
                    (summary.bytesRead, summary.totalBytes) = reader.progress
                    progress(summary)
                }
            }
            // Rows below the last row element that a range still covers.
            while !filler.isEmpty, lastRow < filler.extent.rows {
                lastRow += 1
                var made = Row(index: lastRow)
                filler.fill(&made)
                if !made.cells.isEmpty, try !put(made) { return }
            }
        }
        let limit = options.limit ?? Int.max
        let written: Int
        switch format {
        case .jsonl:
            let writer = try JSONLWriter(output: output, styles: workbook.styles(), dateSystem: workbook.dateSystem)
            var rowsWithCells = 0
            try drain({ row in
                guard !row.cells.isEmpty else { return }
                try writer.write(row)
                rowsWithCells += 1
            }, isFull: { rowsWithCells >= limit })
            written = rowsWithCells
        case .ndjson, .json:
            var writer = RecordWriter(output: output, dateSystem: workbook.dateSystem, options: options, columns: columns,
                                      isArray: format == .json, formats: options.values == .displayed ? try workbook.styles().cellFormats : [])
            try drain({ try writer.write($0) }, isFull: { writer.records >= limit })
            try writer.finish()
            written = writer.records
        case .csv, .tsv:
            var writer = DelimitedWriter(output: output, dialect: format == .csv ? .csv : .tsv, dateSystem: workbook.dateSystem,
                                         styles: try workbook.styles(), options: options, columns: columns, width: width)
            // With `--limit` the first record is what counts: it waits for the scan, holding no rows.
            var held = RowsAwaitingWidth(scan: scan, holds: options.limit == nil)
            // Once the scan ended: the records' width, and the rows held meanwhile written.
            func settle() throws {
                guard let (columns, rows) = try held.end() else { return }
                writer.width = recordWidth(try columns ?? workbook.usedRange(of: sheet).columns)
                for row in rows { try writer.write(row, dimensionOnce: nil) }
            }
            do {
                try drain({ row in
                    if held.hold(row) { return }
                    try settle()
                    try writer.write(row, dimensionOnce: nil)
                }, isFull: { writer.records >= limit })
                try settle()
            } catch {
                try held.scanFailure() // the part's damage as the scan met it, as when it ran before the read
                throw error
            }
            written = writer.records
        }
        summary.rows = written
        summary.computedFormulas = computed.count
        summary.unsupportedFunctions = calculation?.unsupportedFunctions(among: computed) ?? []
        try output.flush()
        (summary.bytesRead, summary.totalBytes) = reader.progress
        return summary
    }

    /// The merged ranges of `sheet` (they follow the rows: the sheet is read once for them).
    private static func mergedRanges(_ workbook: Workbook, _ sheet: Sheet) throws -> [String] {
        let reader = try workbook.rows(of: sheet)
        while try reader.nextRow() != nil {}
        return reader.metadata.mergedRanges
    }

    /// The columns merged ranges fill.
    private static func filledColumns(_ workbook: Workbook, _ sheet: Sheet) throws -> [Int] {
        try mergedRanges(workbook, sheet).compactMap(CellRange.init).flatMap { Array($0.start.column...$0.end.column) }
    }
}
