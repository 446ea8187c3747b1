import SheetPortCore
import SheetPortReader
import SheetPortWriter
/// Writes a worksheet as records (`--to ndjson`, Docs/Reference/Formats.md, "Records"): one JSON object per data
/// row, keyed by the header row. Values are JSON numbers, strings, booleans, ISO dates (as cell
/// JSONL writes them), elapsed times as CSV spells them (`36:00:00`), errors as
/// `{"error":"#N/A"}` and `null` for empty; an empty header name becomes
/// `col_<LETTER>`, a repeated one gets `_2`, `_3`. Rows with no value are left out unless
/// `keepEmptyRows`. As `--to json`, the records are one JSON array (`finish()` closes it).
struct RecordWriter {
    private let output: ByteOutput
    private let dateSystem: DateSystem
    private let options: TextOutputOptions
    private let columns: ColumnSelection
    /// The keys (already JSON-quoted, with their `:`) by sheet column, in column order; nil until the header is read.
    private var keys: [(column: Int, member: [UInt8])]?
    private var keyIndex: [Int: Int] = [:]
    private var lastRow = 0
    /// Records written so far.
    private(set) var records = 0

    /// Whether the records are the elements of one JSON array (`--to json`) rather than lines.
    private let isArray: Bool

    /// The cell formats, for `--values displayed`.
    private let formats: [CellFormat]

    init(output: ByteOutput, dateSystem: DateSystem, options: TextOutputOptions, columns: ColumnSelection, isArray: Bool = false,
         formats: [CellFormat] = []) {
        self.output = output
        self.formats = formats
        self.isArray = isArray
        self.dateSystem = dateSystem
        self.options = options
        self.columns = columns
    }

    /// Takes the next row: the header, a row before it (skipped), or a record.
    mutating func write(_ row: Row) throws {
        let hasValue = row.cells.contains { UsedRange.hasValue($0.value) && columns.position(of: $0.column) != nil }
        guard keys != nil else {
            if let wanted = options.headerRow {
                if row.index < wanted { return }
                // The header row is absent or empty: every key is `col_<LETTER>`, and this row is data.
                setHeader(row.index == wanted ? row : Row(index: wanted))
                if row.index == wanted { return }
            } else {
                guard hasValue else { return }
                setHeader(row)
                return
            }
            return try write(row)
        }
        if options.skipEmptyRows || !options.keepEmptyRows {
            guard hasValue else { return }
        } else {
            while lastRow < row.index - 1 {
                try writeRecord(Row(index: lastRow + 1))
            }
        }
        try writeRecord(row)
    }

    private mutating func setHeader(_ row: Row) {
        lastRow = row.index
        var names: [Int: String] = [:]
        for cell in row.cells where columns.position(of: cell.column) != nil {
            names[cell.column] = ValueText.field(cell.value, system: dateSystem)
        }
        // Every kept column when a first pass found them, else the header's columns up to its last cell.
        let keyColumns = columns.kept ?? (row.cells.last.map { Array(1...$0.column) } ?? [])
        var taken: Set<String> = []
        var keys: [(Int, [UInt8])] = []
        for column in keyColumns {
            let name = names[column] ?? ""
            var key = name.isEmpty ? "col_" + CellReference.columnName(column) : name
            if taken.contains(key) {
                var counter = 2
                while taken.contains(key + "_\(counter)") { counter += 1 }
                key += "_\(counter)"
            }
            taken.insert(key)
            keyIndex[column] = keys.count
            keys.append((column, Array((JSON.quoted(key) + ":").utf8)))
        }
        self.keys = keys
    }

    private mutating func writeRecord(_ row: Row) throws {
        lastRow = row.index
        guard let keys, records < options.limit ?? Int.max else { return }
        if isArray { try output.write(records == 0 ? "[\n" as StaticString : ",\n" as StaticString) }
        var values = [CellValue?](repeating: nil, count: keys.count)
        var extra: [Cell] = []
        for cell in row.cells where columns.position(of: cell.column) != nil {
            var cell = cell
            if options.values == .displayed, cell.value != .empty {
                let format = cell.styleIndex >= 0 && cell.styleIndex < formats.count ? formats[cell.styleIndex] : CellFormat()
                cell.value = .string(NumberFormatRenderer.text(cell.value, format: format, system: dateSystem))
            }
            if let index = keyIndex[cell.column] { values[index] = cell.value } else { extra.append(cell) }
        }
        try output.write(byte: UInt8(ascii: "{"))
        for (index, key) in keys.enumerated() {
            if index > 0 { try output.write(byte: UInt8(ascii: ",")) }
            try output.write(key.member)
            try writeValue(values[index])
        }
        // Cells right of the header have no name there: they are keyed by their column.
        for (offset, cell) in extra.enumerated() {
            if offset > 0 || !keys.isEmpty { try output.write(byte: UInt8(ascii: ",")) }
            try JSONLWriter.writeString("col_" + CellReference.columnName(cell.column), to: output)
            try output.write(byte: UInt8(ascii: ":"))
            try writeValue(cell.value)
        }
        try output.write(isArray ? "}" as StaticString : "}\n" as StaticString)
        records += 1
    }

    /// Ends the output: the array's closing bracket (`[]` when there was no record).
    func finish() throws {
        guard isArray else { return }
        try output.write(records == 0 ? "[]\n" as StaticString : "\n]\n" as StaticString)
    }

    private func writeValue(_ value: CellValue?) throws {
        switch value {
        case nil, .empty?:
            try output.write("null" as StaticString)
        case .number(let number)?:
            try writeNumber(number)
        case .string(let text)?:
            text.isEmpty ? try output.write("null" as StaticString) : try JSONLWriter.writeString(text, to: output)
        case .boolean(let flag)?:
            try output.write(flag ? "true" as StaticString : "false" as StaticString)
        case .error(let code)?:
            // An object, so that an error is never taken for the text "#N/A".
            try output.write("{\"error\":" as StaticString)
            try JSONLWriter.writeString(code, to: output)
            try output.write(byte: UInt8(ascii: "}"))
        case .duration(let days)?:
            // Elapsed time as every text output spells it (`36:00:00`), not a date.
            try JSONLWriter.writeString(ValueText.elapsed(days), to: output)
        case .date(let number)?:
            if let dateTime = ValueText.dateTime(value!, system: dateSystem) {
                try JSONLWriter.writeString(dateTime.iso8601, to: output)
            } else {
                try writeNumber(number)
            }
        case .isoDate(let text)?:
            try JSONLWriter.writeString(ValueText.dateTime(value!, system: dateSystem)?.iso8601 ?? text, to: output)
        }
    }

    /// A JSON number; a value JSON cannot hold (infinite, NaN) as its text.
    private func writeNumber(_ number: Double) throws {
        guard number.isFinite else { return try JSONLWriter.writeString(String(number), to: output) }
        output.putNumber(number) // ValueText.number's text
        try output.flushIfFull()
    }
}
