/// A one-sheet package whose workbook links to other workbooks: `links[k]` is the XML of
/// `xl/externalLinks/externalLink{k+1}.xml` (nil: the reference's part is missing), referred to
/// as `[k+1]`; `cells` is the sheet's `<c>` elements. Stored (not deflated) entries.
package func externalLinkWorkbook(cells: String, links: [String?]) -> [UInt8] {
    let main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    let rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    let pkg = "http://schemas.openxmlformats.org/package/2006/relationships"
    var parts: [(String, String)] = [
        ("[Content_Types].xml", "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
            + "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
            + "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
            + "<Override PartName=\"/xl/workbook.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>"
            + "<Override PartName=\"/xl/worksheets/sheet1.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\"/></Types>"),
        ("_rels/.rels", "<Relationships xmlns=\"\(pkg)\"><Relationship Id=\"rId1\" Type=\"\(rel)/officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>"),
        ("xl/worksheets/sheet1.xml", "<worksheet xmlns=\"\(main)\"><sheetData><row r=\"1\">\(cells)</row></sheetData></worksheet>"),
    ]
    var references = "", relationships = "<Relationship Id=\"rId1\" Type=\"\(rel)/worksheet\" Target=\"worksheets/sheet1.xml\"/>"
    for (k, link) in links.enumerated() {
        references += "<externalReference r:id=\"rIdL\(k + 1)\"/>"
        relationships += "<Relationship Id=\"rIdL\(k + 1)\" Type=\"\(rel)/externalLink\" Target=\"externalLinks/externalLink\(k + 1).xml\"/>"
        guard let link else { continue }
        parts.append(("xl/externalLinks/externalLink\(k + 1).xml", link))
        parts.append(("xl/externalLinks/_rels/externalLink\(k + 1).xml.rels",
                      "<Relationships xmlns=\"\(pkg)\"><Relationship Id=\"rId1\" Type=\"\(rel)/externalLinkPath\" Target=\"file:///C:/Shared%20Data/Book\(k + 1).xlsx\" TargetMode=\"External\"/></Relationships>"))
    }
    parts.append(("xl/workbook.xml", "<workbook xmlns=\"\(main)\" xmlns:r=\"\(rel)\"><sheets><sheet name=\"Here\" sheetId=\"1\" r:id=\"rId1\"/></sheets>"
        + (links.isEmpty ? "" : "<externalReferences>\(references)</externalReferences>") + "</workbook>"))
    parts.append(("xl/_rels/workbook.xml.rels", "<Relationships xmlns=\"\(pkg)\">\(relationships)</Relationships>"))
    return ZipBuilder.archive(parts.map { name, xml in
        let data = Array(xml.utf8)
        return ZipBuilder.Entry(name: name, method: 0, data: data, crc: ZipBuilder.crc32(data), size: UInt32(data.count))
    })
}

/// An externalLink part for one workbook: `sheets` names its sheets; `data[k]` is the inside of
/// sheet k's `sheetData` (nil: none cached); `names` its `definedName` elements.
package func externalLinkXML(sheets: [String], data: [Int: String], names: String = "") -> String {
    let main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    let rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    let sheetNames = sheets.map { "<sheetName val=\"\($0)\"/>" }.joined()
    let cached = data.keys.sorted().map { "<sheetData sheetId=\"\($0)\">\(data[$0]!)</sheetData>" }.joined()
    return "<externalLink xmlns=\"\(main)\"><externalBook xmlns:r=\"\(rel)\" r:id=\"rId1\"><sheetNames>\(sheetNames)</sheetNames>"
        + (names.isEmpty ? "" : "<definedNames>\(names)</definedNames>") + "<sheetDataSet>\(cached)</sheetDataSet></externalBook></externalLink>"
}
