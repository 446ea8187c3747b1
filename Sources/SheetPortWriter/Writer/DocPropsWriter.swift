/// `docProps/core.xml` and `docProps/app.xml`. No dates are written, so the same cells
/// always give the same bytes.
enum DocPropsWriter {
    /// `docProps/core.xml`.
    static func core() -> [UInt8] {
        XMLWriter.fixedPart("""
            <cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" \
            xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" \
            xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\
            <dc:creator>SheetPort</dc:creator></cp:coreProperties>
            """)
    }

    /// `docProps/app.xml`, naming the application and the sheets.
    static func app(sheetNames: [String]) -> [UInt8] {
        var xml = XMLWriter()
        xml.declaration()
        xml.raw("<Properties xmlns=\"http://schemas.openxmlformats.org/officeDocument/2006/extended-properties\"")
        xml.raw(" xmlns:vt=\"http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes\">")
        xml.raw("<Application>SheetPort</Application><HeadingPairs><vt:vector size=\"2\" baseType=\"variant\">")
        xml.raw("<vt:variant><vt:lpstr>Worksheets</vt:lpstr></vt:variant><vt:variant><vt:i4>")
        xml.int(sheetNames.count)
        xml.raw("</vt:i4></vt:variant></vt:vector></HeadingPairs><TitlesOfParts><vt:vector size=\"")
        xml.int(sheetNames.count); xml.raw("\" baseType=\"lpstr\">")
        for name in sheetNames { xml.raw("<vt:lpstr>"); xml.text(name); xml.raw("</vt:lpstr>") }
        xml.raw("</vt:vector></TitlesOfParts></Properties>")
        return xml.bytes
    }
}
