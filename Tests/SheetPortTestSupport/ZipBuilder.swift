import Foundation

/// Writes zip archives byte by byte, so that tests can put any compressed data, CRC-32 and
/// sizes in an entry (damaged streams that no zip library writes).
package enum ZipBuilder {
    /// One entry as stored: its compressed bytes and what the headers declare about them.
    package struct Entry {
        package var name: String
        /// 8 deflate, 0 stored.
        package var method: UInt16 = 8
        package var data: [UInt8]
        package var crc: UInt32
        package var size: UInt32

        package init(name: String, method: UInt16 = 8, data: [UInt8], crc: UInt32, size: UInt32) {
            self.name = name
            self.method = method
            self.data = data
            self.crc = crc
            self.size = size
        }
    }

    /// The archive: local headers and data, the central directory, its end record.
    package static func archive(_ entries: [Entry]) -> [UInt8] {
        var out: [UInt8] = []
        var directory: [UInt8] = []
        for entry in entries {
            let name = Array(entry.name.utf8)
            let offset = UInt32(out.count)
            out += le32(0x0403_4B50) + le16(20) + le16(0) + le16(entry.method) + le16(0) + le16(0x21)
            out += le32(entry.crc) + le32(UInt32(entry.data.count)) + le32(entry.size)
            out += le16(UInt16(name.count)) + le16(0) + name + entry.data
            directory += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0) + le16(entry.method) + le16(0) + le16(0x21)
            directory += le32(entry.crc) + le32(UInt32(entry.data.count)) + le32(entry.size)
            directory += le16(UInt16(name.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + name
        }
        let start = UInt32(out.count)
        out += directory
        out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        out += le32(UInt32(directory.count)) + le32(start) + le16(0)
        return out
    }

    /// The CRC-32 (ISO-HDLC, as zip uses) of `bytes`.
    package static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    private static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
}

/// A one-sheet package around `sheetXML`, with `extraParts` (name to XML) beside it, zipped by
/// Python's zipfile (the writer refuses to write what these tests need: malformed XML, parts
/// that are missing).
package func minimalWorkbook(sheetXML: String, extraParts: [String: String] = [:], in folder: URL) throws -> String {
    let path = folder.appendingPathComponent("minimal.xlsx").path
    let sheet = folder.appendingPathComponent("sheet1.xml")
    try sheetXML.write(to: sheet, atomically: true, encoding: .utf8)
    let extras = folder.appendingPathComponent("extra-parts.json")
    try JSONSerialization.data(withJSONObject: extraParts).write(to: extras)
    let script = """
    import json, sys, zipfile
    out, sheet, extras = sys.argv[1], sys.argv[2], sys.argv[3]
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    pkg = "http://schemas.openxmlformats.org/package/2006/relationships"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>')
        z.writestr("_rels/.rels", '<Relationships xmlns="%s"><Relationship Id="rId1" Target="xl/workbook.xml" '
            'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"/></Relationships>' % pkg)
        z.writestr("xl/workbook.xml", '<workbook xmlns="%s" xmlns:r="%s"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>' % (main, rel))
        z.writestr("xl/_rels/workbook.xml.rels", '<Relationships xmlns="%s"><Relationship Id="rId1" Target="worksheets/sheet1.xml" '
            'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"/></Relationships>' % pkg)
        z.write(sheet, "xl/worksheets/sheet1.xml")
        for name, text in json.load(open(extras)).items():
            z.writestr(name, text)
    """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, path, sheet.path, extras.path]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    return path
}
