import SheetPortCore
extension NumberFormatRenderer {
    /// The text of `value` in the cell format `format` of a workbook in `system`, as Excel
    /// (en-US) shows it (built-in formats in their en-US form).
    public static func text(_ value: CellValue, format: CellFormat, system: DateSystem) -> String {
        text(value, code: displayCode(id: format.numberFormatID, code: format.numberFormat), system: system)
    }
}
