/// `xl/workbook.xml`: the sheets in order, each pointing at its part through a relationship.
enum WorkbookPartWriter {
    /// The part, for sheets whose relationship ids are `rId1`...`rIdN` in order.
    static func part(sheetNames: [String], recalculateOnLoad: Bool) -> [UInt8] {
        var xml = XMLWriter()
        xml.declaration()
        xml.raw("<workbook xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"")
        xml.raw(" xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\">")
        xml.raw("<workbookPr/><bookViews><workbookView activeTab=\"0\"/></bookViews><sheets>")
        for (index, name) in sheetNames.enumerated() {
            xml.raw("<sheet name=\""); xml.attribute(name)
            xml.raw("\" sheetId=\""); xml.int(index + 1)
            xml.raw("\" r:id=\"rId"); xml.int(index + 1); xml.raw("\"/>")
        }
        xml.raw("</sheets>")
        // Formulas written without a cached value are computed when the workbook opens.
        xml.raw(recalculateOnLoad ? "<calcPr calcId=\"191029\" fullCalcOnLoad=\"1\"/>" : "<calcPr calcId=\"191029\"/>")
        xml.raw("</workbook>")
        return xml.bytes
    }
}
