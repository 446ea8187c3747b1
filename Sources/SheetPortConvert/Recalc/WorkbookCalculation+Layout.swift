import SheetPortCore
import SheetPortReader
import SheetPortCalc

extension WorkbookCalculation {
    /// The padding a `<col width>` counts besides the characters Excel shows: 5 pixels (margins
    /// and gridline) of a 7-pixel digit, Calibri 11's, the default font since Excel 2007.
    static let columnPadding = 5.0 / 7.0

    /// Gives the engine what CELL reads of a worksheet's layout: its column widths as Excel
    /// shows them (a hidden column is 0 wide) and, when the sheet is the selected one, its
    /// active cell.
    func applyLayout(_ metadata: WorksheetMetadata, sheet s: Int) {
        if let width = metadata.defaultColumnWidth, width.isFinite, width >= 0 {
            engine.setDefaultColumnWidth(Self.shownWidth(width), sheet: s)
        } else if let base = metadata.baseColumnWidth, base.isFinite, base >= 0 {
            engine.setDefaultColumnWidth(base, sheet: s)
        }
        for column in metadata.columns where column.first <= column.last {
            if column.isHidden {
                engine.setColumnWidth(0, columns: column.first...column.last, sheet: s)
            } else if let width = column.width, width.isFinite, width >= 0 {  // else the default's
                engine.setColumnWidth(Self.shownWidth(width), columns: column.first...column.last, sheet: s)
            }
        }
        if metadata.isTabSelected, !hasSelectedCell, let text = metadata.activeCell, let cell = CellReference(text) {
            engine.setSelectedCell(cell, sheet: s)
            hasSelectedCell = true
        }
    }

    /// A `<col width>` as Excel shows it: without the padding, to hundredths, never negative.
    static func shownWidth(_ width: Double) -> Double {
        max(0, ((width - columnPadding) * 100).rounded() / 100)
    }
}
