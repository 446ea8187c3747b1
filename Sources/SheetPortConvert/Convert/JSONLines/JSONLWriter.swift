import SheetPortCore
import SheetPortReader
import SheetPortWriter
/// Writes cells as JSON Lines, one object per non-empty cell (Docs/Reference/Formats.md, "Cell JSONL"):
/// `{"ref":"B2","type":"number","value":1.5,"formula":"A1*2","style":{...}}`; an array
/// formula's cell adds `"arrayRange":"B2:B4"` (a key readers may add).
public struct JSONLWriter {
    private let output: ByteOutput
    private let styleMembers: [String?]
    private let dateSystem: DateSystem

    /// A writer of cells of a workbook with `styles` and `dateSystem`.
    public init(output: ByteOutput, styles: Styles, dateSystem: DateSystem) {
        self.output = output
        styleMembers = Self.styleMembers(styles)
        self.dateSystem = dateSystem
    }

    /// Writes every cell of `row`.
    public func write(_ row: Row) throws {
        let rowDigits = String(row.index)
        for cell in row.cells {
            try write(cell, rowDigits: rowDigits)
        }
    }

    /// Writes every cell of `row`, each object led by `"col":N,"input":"…",`, with the text
    /// `input` gives for the cell (the server's stored cell, Docs/Reference/HTTP.md).
    public func write(_ row: Row, input: (Cell) -> String) throws {
        let rowDigits = String(row.index)
        for cell in row.cells {
            try write(cell, rowDigits: rowDigits, input: input(cell))
        }
    }

    private func write(_ cell: Cell, rowDigits: String, input: String? = nil) throws {
        // An empty string alone carries nothing to write (Formats.md); the reader keeps it for formulas.
        if cell.isEmptyText { return }
        try output.write(byte: UInt8(ascii: "{"))
        if let input {
            try output.write("\"col\":" as StaticString)
            try output.write(String(cell.column))
            try output.write(",\"input\":" as StaticString)
            try Self.writeString(input, to: output)
            try output.write(byte: UInt8(ascii: ","))
        }
        try output.write("\"ref\":\"" as StaticString)
        try output.write(CellReference.columnName(cell.column))
        try output.write(rowDigits)
        try output.write("\"," as StaticString)
        try writeValue(cell.value)
        if let formula = cell.formula {
            try output.write(",\"formula\":" as StaticString)
            try Self.writeString(formula, to: output)
            // An array formula keeps its kind and range, so a workbook written back has it as one
            // (a range that does not start at its cell is not Excel's and is left out).
            if let text = cell.formulaKind.arrayRange, let range = CellRange(text),
               range.start.column == cell.column, String(range.start.row) == rowDigits {
                try output.write(",\"arrayRange\":\"" as StaticString)
                try output.write(range.description)
                try output.write(byte: UInt8(ascii: "\""))
                // A dynamic array (Excel 365's spill) names itself as its spill's anchor.
                if case .dynamicArray = cell.formulaKind {
                    try output.write(",\"spill\":\"" as StaticString)
                    try output.write(range.start.description)
                    try output.write(byte: UInt8(ascii: "\""))
                }
            }
        }
        try writeStyle(cell.styleIndex)
        try output.write("}\n" as StaticString)
    }

    private func writeValue(_ value: CellValue) throws {
        switch value {
        case .empty:
            try output.write("\"type\":\"empty\",\"value\":null" as StaticString)
        case .number(let number):
            try writeNumber(number)
        case .string(let text):
            try output.write("\"type\":\"string\",\"value\":" as StaticString)
            try Self.writeString(text, to: output)
        case .boolean(let flag):
            try output.write(flag ? "\"type\":\"boolean\",\"value\":true" as StaticString
                                  : "\"type\":\"boolean\",\"value\":false" as StaticString)
        case .error(let code):
            try output.write("\"type\":\"error\",\"value\":" as StaticString)
            try Self.writeString(code, to: output)
        case .date(let number), .duration(let number):
            if let dateTime = ValueText.dateTime(value, system: dateSystem) {
                try writeDate(dateTime)
            } else {
                try writeNumber(number) // outside the calendar: the serial itself
            }
        case .isoDate(let text):
            if let dateTime = ValueText.dateTime(value, system: dateSystem) {
                try writeDate(dateTime)
            } else {
                try output.write("\"type\":\"string\",\"value\":" as StaticString)
                try Self.writeString(text, to: output)
            }
        }
    }

    private func writeNumber(_ number: Double) throws {
        try output.write("\"type\":\"number\",\"value\":" as StaticString)
        output.putNumber(number) // ValueText.number's text
        try output.flushIfFull()
    }

    private func writeDate(_ dateTime: ExcelDateTime) throws {
        try output.write("\"type\":\"date\",\"value\":\"" as StaticString)
        try output.write(dateTime.iso8601)
        try output.write(byte: UInt8(ascii: "\""))
    }

    private func writeStyle(_ index: Int) throws {
        guard index > 0, index < styleMembers.count, let members = styleMembers[index] else { return }
        try output.write(members)
    }

    /// The `,"style":{...}` member of each cell format: the formatting Sheets keeps, where it
    /// differs from the workbook's default; nil when nothing differs. Built once per format.
    private static func styleMembers(_ styles: Styles) -> [String?] {
        let base = styles.format(0)
        return styles.cellFormats.map { styleMember($0.keptStyle(relativeTo: base)) }
    }

    /// `,"style":{...}` for a style, nil for the plain one.
    static func styleMember(_ style: CellStyle) -> String? {
        var members: [String] = []
        if style.isBold { members.append("\"bold\":true") }
        if style.isItalic { members.append("\"italic\":true") }
        if let horizontal = style.horizontalAlignment { members.append("\"horizontal\":" + JSON.quoted(horizontal)) }
        if style.numberFormat != "General" { members.append("\"numFmt\":" + JSON.quoted(style.numberFormat)) }
        if let fill = style.fillColor { members.append("\"fill\":" + JSON.quoted(fill)) }
        if let color = style.textColor { members.append("\"color\":" + JSON.quoted(color)) }
        return members.isEmpty ? nil : ",\"style\":{" + members.joined(separator: ",") + "}"
    }

    /// Writes a JSON string literal: `"` `\` and control characters escaped, the rest as UTF-8.
    static func writeString(_ text: String, to output: ByteOutput) throws {
        var text = text
        let plain = text.withUTF8 { bytes in
            !bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0xE2 }
        }
        if plain {
            try output.write(byte: UInt8(ascii: "\""))
            try output.write(text)
            try output.write(byte: UInt8(ascii: "\""))
            return
        }
        var bytes: [UInt8] = []
        JSON.appendQuoted(text, to: &bytes)
        try output.write(bytes)
    }
}
