import SheetPortCore
import SheetPortReader

/// Everything reading one worksheet gives: the differential tests and the worksheet fuzzer
/// compare it between the fast path and libxml2 (`WorksheetReader.Engine`).
package struct WorksheetReading: Equatable {
    /// The rows, in the order read.
    package var rows: [Row] = []
    /// The metadata once the rows are read (or where the error stopped them).
    package var metadata = WorksheetMetadata()
    /// The error, as code and message.
    package var error: String?
    /// Whether the fast path handed over to libxml2 (not compared).
    package var handedOver = false

    package static func == (left: WorksheetReading, right: WorksheetReading) -> Bool {
        left.rows == right.rows && left.metadata == right.metadata && left.error == right.error
    }

    /// Reads `sheet` of `workbook` with `engine`, at most `maxRows` rows.
    package init(_ sheet: Sheet, of workbook: Workbook, engine: WorksheetReader.Engine, maxRows: Int = .max) {
        var reader: WorksheetReader?
        do {
            let opened = try workbook.rows(of: sheet, engine: engine)
            reader = opened
            while rows.count < maxRows, let row = try opened.nextRow() { rows.append(row) }
        } catch let failure as ReaderError {
            error = "\(failure.code) \(failure.message)"
        } catch {
            self.error = String(describing: error)
        }
        metadata = reader?.metadata ?? WorksheetMetadata()
        handedOver = reader?.handedOver ?? false
    }
}
