/// Writes cells as JSON Lines, one object per non-empty cell (CONTRACTS section 2):
/// `{"ref":"B2","type":"number","value":1.5,"formula":"A1*2","style":{...}}`.
public struct JSONLWriter {
    private let output: ByteOutput
    private let styles: Styles
    private let dateSystem: DateSystem

    /// A writer of cells of a workbook with `styles` and `dateSystem`.
    public init(output: ByteOutput, styles: Styles, dateSystem: DateSystem) {
        self.output = output
        self.styles = styles
        self.dateSystem = dateSystem
    }

    /// Writes every cell of `row`.
    public func write(_ row: Row) throws {
        let rowDigits = String(row.index)
        for cell in row.cells {
            try output.write("{\"ref\":\"")
            try output.write(CellReference.columnName(cell.column))
            try output.write(rowDigits)
            try output.write("\",")
            try writeValue(cell.value)
            if let formula = cell.formula {
                try output.write(",\"formula\":")
                try Self.writeString(formula, to: output)
            }
            try writeStyle(cell.styleIndex)
            try output.write("}\n")
        }
    }

    private func writeValue(_ value: CellValue) throws {
        switch value {
        case .empty:
            try output.write("\"type\":\"empty\",\"value\":null")
        case .number(let number):
            try output.write("\"type\":\"number\",\"value\":" + ValueText.number(number))
        case .string(let text):
            try output.write("\"type\":\"string\",\"value\":")
            try Self.writeString(text, to: output)
        case .boolean(let flag):
            try output.write(flag ? "\"type\":\"boolean\",\"value\":true" : "\"type\":\"boolean\",\"value\":false")
        case .error(let code):
            try output.write("\"type\":\"error\",\"value\":")
            try Self.writeString(code, to: output)
        case .date(let serial):
            if let dateTime = ExcelDateTime(serial: serial, system: dateSystem) {
                try output.write("\"type\":\"date\",\"value\":\"" + dateTime.iso8601 + "\"")
            } else {
                try output.write("\"type\":\"number\",\"value\":" + ValueText.number(serial))
            }
        case .duration(let days):
            if let dateTime = ExcelDateTime(elapsedDays: days) {
                try output.write("\"type\":\"date\",\"value\":\"" + dateTime.iso8601 + "\"")
            } else {
                try output.write("\"type\":\"number\",\"value\":" + ValueText.number(days))
            }
        case .isoDate(let text):
            if let dateTime = ExcelDateTime(iso: text) {
                try output.write("\"type\":\"date\",\"value\":\"" + dateTime.iso8601 + "\"")
            } else {
                try output.write("\"type\":\"string\",\"value\":")
                try Self.writeString(text, to: output)
            }
        }
    }

    /// The formatting Sheets keeps, when it differs from the workbook's default.
    private func writeStyle(_ index: Int) throws {
        guard index != 0 else { return }
        let format = styles.format(index)
        let base = styles.format(0)
        var members: [String] = []
        if format.isBold { members.append("\"bold\":true") }
        if format.isItalic { members.append("\"italic\":true") }
        if let horizontal = format.horizontalAlignment { members.append("\"horizontal\":" + Self.quoted(horizontal)) }
        if format.numberFormat != "General" { members.append("\"numFmt\":" + Self.quoted(format.numberFormat)) }
        if let fill = format.fillColor, fill != base.fillColor { members.append("\"fill\":\"" + fill + "\"") }
        if let color = format.textColor, color != base.textColor { members.append("\"color\":\"" + color + "\"") }
        guard !members.isEmpty else { return }
        try output.write(",\"style\":{" + members.joined(separator: ",") + "}")
    }

    private static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        appendString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes a JSON string literal: `"` `\` and control characters escaped, the rest as UTF-8.
    static func writeString(_ text: String, to output: ByteOutput) throws {
        var bytes: [UInt8] = []
        appendString(text, to: &bytes)
        try output.write(bytes)
    }

    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
