import SheetPortCore
import SheetPortReader
/// A pre-flight in two steps, so that the first worksheet can be read by whoever needs its
/// rows: opening the workbook and inspecting its package (`init`), then the pass over the
/// first worksheet, read by the pre-flight itself (`check`) or by the server's import as it
/// stores the rows. Either way the findings come from the same `Inspection`.
package struct PreflightRun {
    private var partial: CheckReport
    private var inspection: Inspection?
    /// The first worksheet, when the workbook opened and has one; nil: the report says why not.
    package private(set) var firstWorksheet: Sheet?
    /// Whether the first worksheet's pass has run (it runs at most once).
    private var worksheetRead = false

    /// Opens the workbook `open` returns and inspects all that needs no pass over the first
    /// worksheet's cells. Errors `open` throws become findings, except I/O and usage errors.
    package init(name: String, options: PreflightOptions, size: Int64? = nil, open: () throws -> Workbook) throws {
        partial = CheckReport(file: name, format: "xlsx")
        let workbook: Workbook
        do {
            workbook = try open()
        } catch let error as ReaderError where error.code != .io && error.code != .usage {
            partial.format = Preflight.format(of: error)
            partial.findings = [Finding(error)]
            return
        }
        partial.format = Preflight.format(of: workbook)
        if let cap = options.maxUploadBytes, let size, size > cap {
            partial.findings.append(Finding(ReaderError(.exceedsLimit, file: name, "the file is \(size) bytes, over the server's upload limit of \(cap) bytes")))
        }
        var inspection = Inspection(workbook: workbook, options: options)
        firstWorksheet = inspection.inspectPackage()
        self.inspection = inspection
    }

    /// Adds findings made outside the inspection (`check --recalc`'s).
    package mutating func append(_ findings: [Finding]) {
        partial.findings += findings
    }

    /// The open workbook (nil when it did not open).
    package var workbook: Workbook? { inspection?.workbook }

    /// The first worksheet's comments, once its pass has read them.
    package var comments: [Comment]? { inspection?.comments }

    /// Whether the findings so far hold an error.
    package var hasError: Bool { report.findings.contains { $0.severity == .error } }

    /// The first worksheet's pass, read here; `progress` hears how far it is every 4,096 rows.
    /// Does nothing when there is no worksheet to read or it was read already.
    package mutating func readFirstWorksheet(progress: ((ConversionSummary) -> Void)? = nil) throws {
        try readFirstWorksheet { pass in
            while try pass.nextRow() != nil {
                if let progress, pass.rows & 4095 == 0 {
                    let (bytesRead, totalBytes) = pass.reader.progress
                    progress(ConversionSummary(rows: pass.rows, cells: pass.statistics.cells, bytesRead: bytesRead, totalBytes: totalBytes))
                }
            }
        }
    }

    /// The first worksheet's pass, driven by `read` (see `Inspection.inspectFirstWorksheet`).
    /// Does nothing when there is no worksheet to read or it was read already.
    package mutating func readFirstWorksheet(_ read: (inout WorksheetPass) throws -> Void) throws {
        guard let sheet = firstWorksheet, !worksheetRead, inspection != nil else { return }
        worksheetRead = true
        try inspection!.inspectFirstWorksheet(sheet, read: read)
    }

    /// The report of what was found so far (all of it once the worksheet was read), errors
    /// first, each severity in the order found.
    package var report: CheckReport {
        var report = partial
        guard let inspection else { return report }
        report.worksheets = inspection.worksheets
        report.findings = (report.findings + inspection.findings).enumerated()
            .sorted { $0.element.severity == $1.element.severity ? $0.offset < $1.offset : $0.element.severity < $1.element.severity }
            .map(\.element)
        return report
    }
}
