import SheetPortCore

extension WorkbookWriter {
    /// The text Excel (en-US) shows for `value` written with style `styleIndex`: in the style's
    /// number format, or for a date (a time) in the format the writer gives it
    /// (`StylesWriter.dateNumberFormat`). What a column's width is fitted to.
    package func displayedText(of value: CellValue, styleIndex: Int) -> String {
        let style = styles.count > styleIndex && styleIndex >= 0 ? styles.style(styleIndex) : .plain
        let code = switch value {
        case .date(let serial): StylesWriter.dateNumberFormat(of: style, duration: false, hasTime: serial != serial.rounded(.down))
        case .duration: StylesWriter.dateNumberFormat(of: style, duration: true, hasTime: true)
        case .isoDate(let iso): StylesWriter.dateNumberFormat(of: style, duration: false, hasTime: ExcelDateTime(iso: iso)?.hasTime ?? false)
        default: style.numberFormat
        }
        return NumberFormatRenderer.text(value, code: code, system: .excel1900)
    }
}
