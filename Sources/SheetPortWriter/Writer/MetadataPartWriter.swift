/// `xl/metadata.xml`: the cell metadata Excel 365 gives a dynamic-array formula. One metadata
/// type (`XLDAPR`, dynamic-array properties), one future-metadata block saying `fDynamic`, and
/// one cell-metadata record pointing at it, which every spilling anchor names with `cm="1"`.
enum MetadataPartWriter {
    /// The `cm` of a dynamic-array anchor (cell metadata records count from 1).
    static let dynamicArrayIndex = 1

    /// The relationship type from the workbook.
    static let relationship = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sheetMetadata"
    /// The content type.
    static let contentType = ContentTypesWriter.spreadsheetML + "sheetMetadata+xml"

    /// The part, as Excel 365 writes it for a workbook holding dynamic arrays.
    static func part() -> [UInt8] {
        XMLWriter.fixedPart("""
            <metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" \
            xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">\
            <metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" \
            pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" \
            clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes>\
            <futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}">\
            <xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata>\
            <cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata>\
            </metadata>
            """)
    }
}
