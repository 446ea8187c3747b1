/// A relationships part (`_rels/.rels`, `xl/_rels/workbook.xml.rels`, a sheet's rels).
struct RelationshipsWriter {
    /// The namespace prefix of the relationship types of ECMA-376 part 1.
    static let officeDocument = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
    private var relationships: [(type: String, target: String, id: String)] = []

    /// Adds a relationship of `type` (a full URI) to `target`, with id `id` or else the next
    /// `rIdN` (`rId1`, ...); returns its id.
    @discardableResult
    mutating func add(type: String, target: String, id: String? = nil) -> String {
        let id = id ?? "rId\(relationships.count + 1)"
        relationships.append((type, target, id))
        return id
    }

    /// Whether no relationship was added.
    var isEmpty: Bool { relationships.isEmpty }

    /// The part.
    func part() -> [UInt8] {
        var xml = XMLWriter()
        xml.declaration()
        xml.raw("<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">")
        for relationship in relationships {
            xml.raw("<Relationship Id=\""); xml.attribute(relationship.id)
            xml.raw("\" Type=\""); xml.attribute(relationship.type)
            xml.raw("\" Target=\""); xml.attribute(relationship.target); xml.raw("\"/>")
        }
        xml.raw("</Relationships>")
        return xml.bytes
    }
}
