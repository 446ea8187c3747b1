/// `xl/workbook.xml`: the sheets in order, each pointing at its part through a relationship,
/// and the defined names.
enum WorkbookPartWriter {
    /// The part, for sheets whose relationship ids are `rId1`...`rIdN` in order.
    static func part(sheetNames: [String], definedNames: [WrittenName] = [], recalculateOnLoad: Bool) -> [UInt8] {
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
        if !definedNames.isEmpty {
            xml.raw("<definedNames>")
            for name in definedNames {
                xml.raw("<definedName name=\""); xml.attribute(name.name); xml.raw("\"")
                if let sheet = name.localSheet { xml.raw(" localSheetId=\""); xml.int(sheet); xml.raw("\"") }
                if name.isHidden { xml.raw(" hidden=\"1\"") }
                xml.raw(">"); xml.text(name.formula); xml.raw("</definedName>")
            }
            xml.raw("</definedNames>")
        }
        // Formulas written without a cached value are computed when the workbook opens.
        xml.raw(recalculateOnLoad ? "<calcPr calcId=\"191029\" fullCalcOnLoad=\"1\"/>" : "<calcPr calcId=\"191029\"/>")
        xml.raw("</workbook>")
        return xml.bytes
    }
}
