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
        var bytes: [UInt8] = []
        func key(_ name: String) { bytes += Array("\"\(name)\":".utf8) }
        func string(_ text: String) { JSONLWriter.appendString(text, to: &bytes) }
        func raw(_ text: String) { bytes += Array(text.utf8) }
        raw("{"); key("file"); string(file)
        raw(","); key("format"); string(format)
        raw(","); key("importable"); raw(importable ? "true" : "false")
        raw(","); key("worksheets"); raw("[")
        for (index, sheet) in worksheets.enumerated() {
            if index > 0 { raw(",") }
            raw("{"); key("name"); string(sheet.name)
            if let rows = sheet.rows { raw(","); key("rows"); raw(String(rows)) }
            if let columns = sheet.columns { raw(","); key("columns"); raw(String(columns)) }
            if let cells = sheet.cells { raw(","); key("cells"); raw(String(cells)) }
            raw(","); key("imported"); raw(sheet.imported ? "true" : "false"); raw("}")
        }
        raw("],"); key("findings"); raw("[")
        raw(findings.map(\.json).joined(separator: ","))
        raw("]}")
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Finding {
    /// The finding as a JSON object: code, severity, message, part and count when present.
    public var json: String {
        var bytes: [UInt8] = []
        func key(_ name: String) { bytes += Array("\"\(name)\":".utf8) }
        func string(_ text: String) { JSONLWriter.appendString(text, to: &bytes) }
        func raw(_ text: String) { bytes += Array(text.utf8) }
        raw("{"); key("code"); string(code)
        raw(","); key("severity"); string(severity.rawValue)
        raw(","); key("message"); string(message)
        if let part { raw(","); key("part"); string(part) }
        if let count { raw(","); key("count"); raw(String(count)) }
        raw("}")
        return String(decoding: bytes, as: UTF8.self)
    }
}
