/// Builds a small zip package in memory with its entries stored (not deflated): the
/// differential tests and the worksheet fuzzer wrap generated XML in a workbook with it,
/// without a process or a temporary file per input.
package enum StoredZip {
    /// The package bytes holding `entries` (name, content) in order.
    package static func make(_ entries: [(name: String, bytes: [UInt8])]) -> [UInt8] {
        var output: [UInt8] = []
        var directory: [UInt8] = []
        for (name, bytes) in entries {
            let offset = UInt32(output.count)
            let crc = crc32(bytes)
            let nameBytes = Array(name.utf8)
            // Local file header: version 2.0, UTF-8 names, stored, no time, CRC, sizes, name.
            output += le32(0x0403_4B50) + le16(20) + le16(0x0800) + le16(0) + le16(0) + le16(0x21)
            output += le32(crc) + le32(UInt32(bytes.count)) + le32(UInt32(bytes.count))
            output += le16(UInt16(nameBytes.count)) + le16(0) + nameBytes + bytes
            directory += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0x0800) + le16(0) + le16(0) + le16(0x21)
            directory += le32(crc) + le32(UInt32(bytes.count)) + le32(UInt32(bytes.count))
            directory += le16(UInt16(nameBytes.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset)
            directory += nameBytes
        }
        let directoryOffset = UInt32(output.count)
        output += directory
        output += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        output += le32(UInt32(directory.count)) + le32(directoryOffset) + le16(0)
        return output
    }

    /// A workbook of one worksheet whose part is `sheetXML` as given, byte for byte, and a
    /// shared-string table of three items or `sharedStringsXML`.
    static func workbook(sheetXML: [UInt8], sharedStringsXML: [UInt8]? = nil) -> [UInt8] {
        let main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
        let package = "http://schemas.openxmlformats.org/package/2006/relationships"
        let office = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
        return make([
            ("[Content_Types].xml", Array(("<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
                + "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
                + "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
                + "<Override PartName=\"/xl/workbook.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>"
                + "</Types>").utf8)),
            ("_rels/.rels", Array(("<Relationships xmlns=\"\(package)\"><Relationship Id=\"rId1\" Target=\"xl/workbook.xml\" "
                + "Type=\"\(office)/officeDocument\"/></Relationships>").utf8)),
            ("xl/workbook.xml", Array(("<workbook xmlns=\"\(main)\" xmlns:r=\"\(office)\"><sheets>"
                + "<sheet name=\"S\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>").utf8)),
            ("xl/_rels/workbook.xml.rels", Array(("<Relationships xmlns=\"\(package)\"><Relationship Id=\"rId1\" "
                + "Target=\"worksheets/sheet1.xml\" Type=\"\(office)/worksheet\"/>"
                + "<Relationship Id=\"rId2\" Target=\"sharedStrings.xml\" Type=\"\(office)/sharedStrings\"/></Relationships>").utf8)),
            ("xl/sharedStrings.xml", sharedStringsXML ?? Array(("<sst xmlns=\"\(main)\"><si><t>zero</t></si><si><t>one &amp; two</t></si>"
                + "<si><r><t>rich</t></r></si></sst>").utf8)),
            ("xl/worksheets/sheet1.xml", sheetXML),
        ])
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> ($0 * 8)) & 0xFF) } }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
