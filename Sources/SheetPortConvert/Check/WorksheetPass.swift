import SheetPortCore
import SheetPortReader
/// The one pass over the first worksheet that its findings come from. `check` drives it on
/// its own; the server's import drives it while it stores the rows, so the worksheet is read
/// once. Each row it returns is already counted into `statistics`.
package struct WorksheetPass {
    /// The sheet read.
    let sheet: Sheet
    /// The row reader: how far it is, and (once at the end) the sheet's metadata.
    package let reader: WorksheetReader
    /// What the cells returned so far add up to.
    private(set) var statistics: SheetStatistics
    /// Rows returned so far.
    private(set) var rows = 0
    private let options: PreflightOptions

    /// Opens the row reader of `sheet`, after the styles and shared strings it reads with.
    init(workbook: Workbook, sheet: Sheet, options: PreflightOptions) throws {
        // The order the pre-flight always loaded them in: a broken styles part is named before broken strings.
        let styles = try workbook.styles()
        _ = try workbook.sharedStrings()
        reader = try workbook.rows(of: sheet)
        self.sheet = sheet
        self.options = options
        statistics = SheetStatistics(styleCount: styles.cellFormats.count, maxTextLength: options.maxCellTextLength)
    }

    /// The next row, counted; nil at the end of the sheet.
    package mutating func nextRow() throws -> Row? {
        guard let row = try reader.nextRow() else { return nil }
        // Borrowed through the buffer: an array's element would be copied per cell.
        row.cells.withUnsafeBufferPointer { cells in
            for index in cells.indices { statistics.add(cells[index], row: row.index) }
        }
        rows += 1
        return row
    }

    /// Whether the cells returned so far already make an error finding certain (a cell's text
    /// too long, the used range past a cap; `Inspection` words them at the end). An import
    /// that sees this stores no more rows: it fails once the pass ends.
    package var refuses: Bool {
        statistics.longTextCount > 0 || statistics.lastRow > options.maxRows || statistics.lastColumn > options.maxColumns
            || statistics.lastRow * statistics.lastColumn > options.maxCells
    }
}
