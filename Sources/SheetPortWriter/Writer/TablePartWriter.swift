import SheetPortCore
/// A table part (`xl/tables/tableN.xml`): the table's name, range, autoFilter, columns (their
/// totals-row functions, labels and formulas, their calculated-column formulas) and style.
/// The sheet lists its tables in `<tableParts>`, each through a relationship of its own.
enum TablePartWriter {
    /// The relationship type of a sheet's table part.
    static let relationship = RelationshipsWriter.officeDocument + "table"
    /// The table part's content type.
    static let contentType = ContentTypesWriter.spreadsheetML + "table+xml"

    /// The id of the sheet's relationship to its `index`th table (0-based): apart from the
    /// comments' `rId1`... so that tables and comments may be added in any order.
    static func relationshipID(_ index: Int) -> String { "rIdTable\(index + 1)" }

    /// The sheet's `<tableParts>` element (nothing without tables).
    static func tableParts(count: Int, into xml: inout XMLWriter) {
        guard count > 0 else { return }
        xml.raw("<tableParts count=\""); xml.int(count); xml.raw("\">")
        for index in 0..<count {
            xml.raw("<tablePart r:id=\""); xml.attribute(relationshipID(index)); xml.raw("\"/>")
        }
        xml.raw("</tableParts>")
    }

    /// The part for `table`, whose workbook-wide id is `id`.
    static func part(_ table: WorksheetTable, id: Int) -> [UInt8] {
        var xml = XMLWriter()
        xml.declaration()
        xml.raw("<table xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" id=\""); xml.int(id)
        xml.raw("\" name=\""); xml.attribute(table.name)
        xml.raw("\" displayName=\""); xml.attribute(table.name)
        xml.raw("\" ref=\""); xml.attribute(table.range.description); xml.raw("\"")
        if !table.hasHeaderRow { xml.raw(" headerRowCount=\"0\"") }
        if table.hasTotalsRow { xml.raw(" totalsRowCount=\"1\"") } else { xml.raw(" totalsRowShown=\"0\"") }
        xml.raw(">")
        // The filter buttons sit on the header row and cover the data, not the totals row.
        if table.hasHeaderRow {
            let end = CellReference(row: table.range.end.row - (table.hasTotalsRow ? 1 : 0), column: table.range.end.column)
            xml.raw("<autoFilter ref=\""); xml.attribute(CellRange(start: table.range.start, end: end).description); xml.raw("\"/>")
        }
        xml.raw("<tableColumns count=\""); xml.int(table.columns.count); xml.raw("\">")
        for (index, column) in table.columns.enumerated() {
            xml.raw("<tableColumn id=\""); xml.int(index + 1)
            xml.raw("\" name=\""); xml.attribute(column.name); xml.raw("\"")
            if let function = column.totalsRowFunction { xml.raw(" totalsRowFunction=\""); xml.attribute(function); xml.raw("\"") }
            if let label = column.totalsRowLabel { xml.raw(" totalsRowLabel=\""); xml.attribute(label); xml.raw("\"") }
            guard column.calculatedColumnFormula != nil || column.totalsRowFormula != nil else { xml.raw("/>"); continue }
            xml.raw(">")
            if let formula = column.calculatedColumnFormula {
                xml.raw("<calculatedColumnFormula>"); xml.text(formula); xml.raw("</calculatedColumnFormula>")
            }
            if let formula = column.totalsRowFormula {
                xml.raw("<totalsRowFormula>"); xml.text(formula); xml.raw("</totalsRowFormula>")
            }
            xml.raw("</tableColumn>")
        }
        xml.raw("</tableColumns>")
        xml.raw("<tableStyleInfo name=\""); xml.attribute(table.styleName ?? "TableStyleMedium2")
        xml.raw("\" showFirstColumn=\"0\" showLastColumn=\"0\" showRowStripes=\"1\" showColumnStripes=\"0\"/>")
        xml.raw("</table>")
        return xml.bytes
    }
}
