import SheetPortCore
import SheetPortReader
/// The pre-flight report of one file, in the shape of Docs/Reference/Formats.md, "Check reports".
public struct CheckReport: Sendable, Equatable {
    /// One sheet of the workbook: the imported one with its size, the others by name.
    public struct Worksheet: Sendable, Equatable {
        /// The sheet's name as shown on its tab.
        public var name: String
        /// Whether the import takes this sheet (only the first worksheet).
        public var imported: Bool
        /// Whether the sheet's tab is shown.
        public var state: SheetState = .visible
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
    public var hasWarnings: Bool { hasWarnings(ignoring: []) }

    /// Whether any finding whose code is not in `ignored` is a warning or an error.
    public func hasWarnings(ignoring ignored: Set<String>) -> Bool {
        findings.contains { $0.severity <= .warning && !ignored.contains($0.code) }
    }

    /// The report as one line of JSON, keys in the contract's order.
    public var json: String {
        JSON.object([
            ("file", .string(file)), ("format", .string(format)), ("importable", .bool(importable)),
            ("worksheets", .array(worksheets.map { sheet in
                var members: [(String, JSON)] = [("name", .string(sheet.name)), ("state", .string(sheet.state.rawValue))]
                if let rows = sheet.rows { members.append(("rows", .int(rows))) }
                if let columns = sheet.columns { members.append(("columns", .int(columns))) }
                if let cells = sheet.cells { members.append(("cells", .int(cells))) }
                members.append(("imported", .bool(sheet.imported)))
                return .object(members)
            })),
            ("findings", .array(findings.map { .raw($0.json) })),
        ]).text
    }
}

extension Finding {
    /// The finding as a JSON object: code, severity, message, part and count when present.
    public var json: String {
        var members: [(String, JSON)] = [("code", .string(code)), ("severity", .string(severity.rawValue)),
                                         ("message", .string(message))]
        if let part { members.append(("part", .string(part))) }
        if let count { members.append(("count", .int(count))) }
        return JSON.object(members).text
    }
}
