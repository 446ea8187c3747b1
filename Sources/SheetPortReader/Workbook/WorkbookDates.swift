import Foundation
import SheetPortCore

extension Workbook {
    /// A Foundation `Date` for a date cell's value in this workbook's date system (1900 or 1904).
    public func date(of value: CellValue) -> Date? { value.date(in: dateSystem) }

    /// The ISO 8601 text the CLI prints for a date cell's value in this workbook.
    public func isoText(of value: CellValue) -> String? { value.isoText(in: dateSystem) }
}
