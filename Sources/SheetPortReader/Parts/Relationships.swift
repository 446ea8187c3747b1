import SheetPortCore
/// One relationship of a `.rels` part.
public struct Relationship: Sendable, Equatable {
    /// `Id`, referred to by `r:id` attributes.
    public var id: String
    /// The last segment of the `Type` URI (`worksheet`, `styles`, `officeDocument`, ...),
    /// which is the same in transitional and Strict packages.
    public var type: String
    /// The full `Type` URI.
    public var typeURI: String
    /// The target part, resolved to a package part name; the raw target when external.
    public var target: String
    /// Whether `TargetMode="External"` (a URL or another file, not a part).
    public var isExternal: Bool
    /// `Target` as written in the part.
    public var writtenTarget: String
}

/// Reads a relationships part (`_rels/.rels`, `xl/_rels/workbook.xml.rels`, ...).
final class RelationshipsPart: XMLHandler {
    private(set) var relationships: [Relationship] = []
    private let source: String

    private init(source: String) { self.source = source }

    /// The relationships of `part` (`""` for the package), empty when it has none.
    static func read(of part: String, in archive: ZipArchive) throws -> [Relationship] {
        guard let entry = archive.entry(named: PartName.relationshipsPart(of: part)) else { return [] }
        let handler = RelationshipsPart(source: part)
        try XMLPushParser.parse(entry, in: archive, with: handler)
        // A target that does not resolve from the source's folder is tried as written (a zip
        // entry may keep its `%20`), then from the root, as some generators write root-relative
        // targets without the leading slash.
        return handler.relationships.map { relationship in
            var relationship = relationship
            guard !relationship.isExternal, !archive.contains(relationship.target) else { return relationship }
            let candidates = [PartName.resolve(relationship.writtenTarget, from: part, decodingPercent: false),
                              PartName.resolve("/" + relationship.writtenTarget, from: ""),
                              PartName.resolve("/" + relationship.writtenTarget, from: "", decodingPercent: false)]
            if let found = candidates.first(where: archive.contains) { relationship.target = found }
            return relationship
        }
    }

    func startElement(_ name: XMLName, attributes: XMLAttributes) throws {
        guard name.is("Relationship"), let id = attributes.string("Id"), let type = attributes.string("Type"),
              let target = attributes.string("Target") else { return }
        let external = attributes.string("TargetMode")?.lowercased() == "external"
        let kind = type.split(separator: "/").last.map(String.init) ?? type
        relationships.append(Relationship(
            id: id, type: kind, typeURI: type,
            target: external ? target : PartName.resolve(target, from: source), isExternal: external,
            writtenTarget: target))
    }

    func endElement(_ name: XMLName) throws {}
    func characters(_ text: UnsafeBufferPointer<UInt8>) {}
}

