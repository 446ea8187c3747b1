/// The pre-flight report of one file, in the shape of CONTRACTS section 3.
public struct CheckReport: Sendable, Equatable {
    /// One sheet of the workbook: the imported one with its size, the others by name.
    public struct Worksheet: Sendable, Equatable {
        /// The sheet's name as shown on its tab.
        public var name: String
        /// Whether the import takes this sheet (only the first worksheet).
        public var imported: Bool
        /// Rows of the used range (the last row with a cell), for the imported sheet.
        public var rows: Int?
        /// Columns of the used range (the last column with a cell), for the imported sheet.
        public var columns: Int?
        /// Non-empty cells, for the imported sheet.
        public var cells: Int?
    }

    /// The file as named on the command line.
    public var file: String
    /// `xlsx`, `xlsm`, `xltx`, `xltm`, or what the file is instead (`xls`, `encrypted`, `ods`, `unknown`).
    public var format: String
    /// Every sheet, in tab order (empty when the workbook could not be opened).
    public var worksheets: [Worksheet] = []
    /// What was found, errors first.
    public var findings: [Finding] = []

    /// Whether the workbook can be imported: no error finding.
    public var importable: Bool { !findings.contains { $0.severity == .error } }

    /// Whether any finding is a warning or an error.
    public var hasWarnings: Bool { findings.contains { $0.severity <= .warning } }

    /// The report as one line of JSON, keys in the contract's order.
    public var json: String {
        var json = JSONText()
        json.raw("{"); json.key("file"); json.string(file)
        json.raw(","); json.key("format"); json.string(format)
        json.raw(","); json.key("importable"); json.raw(importable ? "true" : "false")
        json.raw(","); json.key("worksheets"); json.raw("[")
        for (index, sheet) in worksheets.enumerated() {
            if index > 0 { json.raw(",") }
            json.raw("{"); json.key("name"); json.string(sheet.name)
            if let rows = sheet.rows { json.raw(","); json.key("rows"); json.raw(String(rows)) }
            if let columns = sheet.columns { json.raw(","); json.key("columns"); json.raw(String(columns)) }
            if let cells = sheet.cells { json.raw(","); json.key("cells"); json.raw(String(cells)) }
            json.raw(","); json.key("imported"); json.raw(sheet.imported ? "true" : "false"); json.raw("}")
        }
        json.raw("],"); json.key("findings"); json.raw("[")
        json.raw(findings.map(\.json).joined(separator: ","))
        json.raw("]}")
        return json.text
    }
}

extension Finding {
    /// The finding as a JSON object: code, severity, message, part and count when present.
    public var json: String {
        var json = JSONText()
        json.raw("{"); json.key("code"); json.string(code)
        json.raw(","); json.key("severity"); json.string(severity.rawValue)
        json.raw(","); json.key("message"); json.string(message)
        if let part { json.raw(","); json.key("part"); json.string(part) }
        if let count { json.raw(","); json.key("count"); json.raw(String(count)) }
        json.raw("}")
        return json.text
    }
}

/// Compact JSON text built member by member, in the order written.
struct JSONText {
    private var bytes: [UInt8] = []

    /// `"name":`
    mutating func key(_ name: String) { bytes += Array("\"\(name)\":".utf8) }
    /// A string literal, escaped.
    mutating func string(_ text: String) { JSONLWriter.appendString(text, to: &bytes) }
    /// Text that already is JSON (punctuation, numbers, literals).
    mutating func raw(_ text: String) { bytes += Array(text.utf8) }
    /// The text so far.
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
