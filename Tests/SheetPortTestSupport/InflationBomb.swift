import Foundation

/// Which part of `makeInflationBomb`'s workbook inflates.
package enum BombedPart: Sendable {
    /// The worksheet: 300 MiB of spaces.
    case worksheet
    /// The shared-string table: 300 MiB of 1,000-character items (the worksheet refers to the first).
    case sharedStrings
}

/// A minimal one-sheet workbook whose `part` inflates from a few hundred KiB to 300 MiB, about
/// 1,000:1: past the 256 MiB below which the expansion ratio alone is no bomb.
package func makeInflationBomb(at path: String, part: BombedPart) throws {
    let script = """
    import sys, zipfile
    strings = sys.argv[2] == "strings"
    z = zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED)
    z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>')
    z.writestr("_rels/.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>')
    z.writestr("xl/workbook.xml", '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>')
    table = '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>' if strings else ''
    z.writestr("xl/_rels/workbook.xml.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' + table + '</Relationships>')
    head = b'<?xml version="1.0"?>'
    if strings:
        z.writestr("xl/worksheets/sheet1.xml", '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>')
        name, start, chunk, end = "xl/sharedStrings.xml", b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">', (b'<si><t>' + b'a' * 1000 + b'</t></si>') * 1024, b'</sst>'
    else:
        name, start, chunk, end = "xl/worksheets/sheet1.xml", b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/>', b' ' * (1 << 20), b'</worksheet>'
    with z.open(name, "w") as part:
        part.write(head + start)
        for _ in range(300):
            part.write(chunk)
        part.write(end)
    z.close()
    """
    let generated = try Project.python(["-c", script, path, part == .sharedStrings ? "strings" : "sheet"])
    guard generated.status == 0 else {
        throw NSError(domain: "bomb", code: Int(generated.status), userInfo: [NSLocalizedDescriptionKey: generated.output])
    }
}
