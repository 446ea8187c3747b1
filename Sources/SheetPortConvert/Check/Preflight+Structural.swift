import SheetPortCore
import SheetPortReader
/// The pre-flight `sheetport import` makes before it uploads (issue 26): what can be known
/// without reading every cell, so that the workbook is read once, by the server's import.
extension Preflight {
    /// Checks the package and its parts at `path` (the zip, its entries and limits, the
    /// content types, the workbook and its sheets, the relationships the import follows, the
    /// styles), the file's size against `maxUploadBytes`, and the first worksheet's declared
    /// `<dimension>` against the caps. A dimension over a cap is often wrong, so it is not a
    /// finding by itself: the full `check` then decides from the cells. Anything else about
    /// the cells (their text, the used range they really span, formulas) is the import's to
    /// find, as job errors and warnings. The report gives no row, column or cell counts.
    public static func structural(path: String, options: PreflightOptions) throws -> CheckReport {
        var run = try PreflightRun(name: path, options: options, size: fileSize(path)) { try Workbook(path: path, limits: options.limits) }
        guard !run.hasError, let workbook = run.workbook, let sheet = run.firstWorksheet else { return run.report }
        do {
            _ = try workbook.styles()
            if let declared = try declaredRange(of: sheet, in: workbook),
               declared.rows > options.maxRows || declared.columns > options.maxColumns || declared.rows * declared.columns > options.maxCells {
                return try check(path: path, options: options)
            }
        } catch let error as ReaderError where error.code != .io && error.code != .usage {
            run.append([Finding(error)])
        }
        return run.report
    }

    /// The last row and column of the `<dimension ref>` `sheet` declares; nil when there is none.
    static func declaredRange(of sheet: Sheet, in workbook: Workbook) throws -> (rows: Int, columns: Int)? {
        guard let text = try workbook.declaredDimension(of: sheet), text.utf8.count <= 32 else { return nil }
        let last = text.split(separator: ":").last.map(String.init) ?? text
        guard let cell = CellReference(last.replacingDollars()) else { return nil }
        return (cell.row, cell.column)
    }
}

private extension String {
    /// The reference without `$` signs (`$J$20` is `J20`).
    func replacingDollars() -> String { String(filter { $0 != "$" }) }
}
