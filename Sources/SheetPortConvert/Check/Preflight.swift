#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore
import SheetPortReader

/// What `check` may allow besides the archive limits.
public struct PreflightOptions: Sendable, Equatable {
    /// Limits on the package (entries, sizes, expansion ratio, text).
    public var limits = ArchiveLimits()
    /// The most cells the imported sheet's used range (rows x columns) may span: Google
    /// Sheets' limit of 10 million cells per spreadsheet.
    public var maxCells = 10_000_000
    /// Excel's (and Sheets') limit on a cell's text, in UTF-16 code units.
    public static let maxCellTextLength = 32_767
    /// The most characters a cell may hold here (a server's cap may be lower than Excel's).
    public var maxCellTextLength = PreflightOptions.maxCellTextLength
    /// The most rows and columns the imported sheet may use (Excel's grid unless a server's
    /// caps are smaller).
    public var maxRows = CellReference.maxRow
    public var maxColumns = CellReference.maxColumn
    /// The largest file a server accepts (`maxUploadBytes`); nil: no limit on the file's size.
    public var maxUploadBytes: Int64?
    /// Recompute every formula and report what disagrees (`check --recalc`: `stale-cached-value`,
    /// `unsupported-function`, `circular-reference`, `unsupported-formula`).
    public var recalc = false

    /// The defaults.
    public init() {}
}

/// The pre-flight of one workbook: one streaming pass over its package and its first
/// worksheet that tells what an import will do, as a `CheckReport`.
public enum Preflight {
    /// Checks the workbook at `path`. Throws only I/O errors (the file cannot be read);
    /// everything wrong with the file itself is a finding.
    /// `progress`, when given, hears how far the read of the first worksheet is every 4,096 rows.
    public static func check(path: String, options: PreflightOptions = PreflightOptions(),
                             progress: ((ConversionSummary) -> Void)? = nil) throws -> CheckReport {
        try check(name: path, options: options, size: fileSize(path), progress: progress) { try Workbook(path: path, limits: options.limits) }
    }

    /// Checks a workbook held in memory; `name` is used in the report.
    public static func check(bytes: [UInt8], name: String, options: PreflightOptions = PreflightOptions()) throws -> CheckReport {
        try check(name: name, options: options, size: Int64(bytes.count)) {
            try Workbook(bytes: bytes, name: name, limits: options.limits)
        }
    }

    /// Checks the workbook `open` returns (opened from a source of the caller's, such as a
    /// sealed upload); `name` is used in the report, `size` (the file's bytes, when known) is
    /// held against `maxUploadBytes`. Errors `open` throws become findings.
    public static func check(name: String, options: PreflightOptions, size: Int64? = nil,
                             progress: ((ConversionSummary) -> Void)? = nil,
                             open: () throws -> Workbook) throws -> CheckReport {
        var run = try PreflightRun(name: name, options: options, size: size, open: open)
        try run.readFirstWorksheet(progress: progress)
        if options.recalc, !run.hasError, let workbook = run.workbook {
            do {
                run.append(try RecalcFindings.findings(for: WorkbookCalculation(workbook)))
            } catch let error as ReaderError where error.code != .io && error.code != .usage {
                // Another worksheet than the imported one does not read: the import is not
                // affected, only the recomputation, which loads them all.
                run.append([Finding(.unsupportedFormula, .info, "the formulas were not recomputed: \(error.message)", part: error.part)])
            }
        }
        return run.report
    }

    static func fileSize(_ path: String) -> Int64? {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : nil
    }

    static func format(of error: ReaderError) -> String {
        switch error.code {
        case .legacyXLS: "xls"
        case .encryptedWorkbook: "encrypted"
        case .odsWorkbook: "ods"
        case .xlsbWorkbook: "xlsb"
        case .notAZip: "unknown"
        default: "xlsx"
        }
    }

    static func format(of workbook: Workbook) -> String {
        let type = workbook.contentTypes.type(of: workbook.workbookPart) ?? ""
        if type.contains("template.macroEnabled") { return "xltm" }
        if type.contains("macroEnabled") { return "xlsm" }
        if type.contains("template") { return "xltx" }
        return "xlsx"
    }
}
