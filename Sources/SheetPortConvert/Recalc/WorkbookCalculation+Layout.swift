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
        Self.setColumnWidths(metadata.columns, defaultWidth: metadata.defaultColumnWidth, baseWidth: metadata.baseColumnWidth,
                             sheet: s, of: engine)
        if metadata.isTabSelected, !hasSelectedCell, let text = metadata.activeCell, let cell = CellReference(text) {
            engine.setSelectedCell(cell, sheet: s)
            hasSelectedCell = true
        }
    }

    /// Gives `engine` a sheet's column widths as `<cols>` and `sheetFormatPr` have them
    /// (`defaultColWidth` counts the padding as `<col width>` does, `baseColWidth` does not);
    /// the server gives the widths it stores the same way.
    package static func setColumnWidths(_ columns: [ColumnInfo], defaultWidth: Double? = nil, baseWidth: Double? = nil,
                                        sheet s: Int, of engine: CalcEngine) {
        if let width = defaultWidth, width.isFinite, width >= 0 {
            engine.setDefaultColumnWidth(shownWidth(width), sheet: s)
        } else if let base = baseWidth, base.isFinite, base >= 0 {
            engine.setDefaultColumnWidth(base, sheet: s)
        }
        for column in columns where column.first <= column.last {
            if column.isHidden {
                engine.setColumnWidth(0, columns: column.first...column.last, sheet: s)
            } else if let width = column.width, width.isFinite, width >= 0 {  // else the default's
                engine.setColumnWidth(shownWidth(width), columns: column.first...column.last, sheet: s)
            }
        }
    }

    /// A `<col width>` as Excel shows it: without the padding, to hundredths, never negative.
    static func shownWidth(_ width: Double) -> Double {
        max(0, ((width - columnPadding) * 100).rounded() / 100)
    }
}
