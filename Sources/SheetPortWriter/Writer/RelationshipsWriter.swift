/// A relationships part (`_rels/.rels`, `xl/_rels/workbook.xml.rels`, a sheet's rels).
struct RelationshipsWriter {
    /// The namespace prefix of the relationship types of ECMA-376 part 1.
    static let officeDocument = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
    private var relationships: [(type: String, target: String)] = []

    /// Adds a relationship of `type` (a full URI) to `target`; returns its id (`rId1`, ...).
    @discardableResult
    mutating func add(type: String, target: String) -> String {
        relationships.append((type, target))
        return "rId\(relationships.count)"
    }

    /// The part.
    func part() -> [UInt8] {
        var xml = XMLWriter()
        xml.declaration()
        xml.raw("<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">")
        for (index, relationship) in relationships.enumerated() {
            xml.raw("<Relationship Id=\"rId"); xml.int(index + 1)
            xml.raw("\" Type=\""); xml.attribute(relationship.type)
            xml.raw("\" Target=\""); xml.attribute(relationship.target); xml.raw("\"/>")
        }
        xml.raw("</Relationships>")
        return xml.bytes
    }
}
