import SheetPortCore
extension Workbook {
    /// The workbooks this one links to, in `externalReferences` order: element k is what formulas
    /// call `[k+1]`; nil for a DDE or OLE link or a reference whose part is missing. Throws when a
    /// part is malformed or caches more than `maxCells` cells.
    package func externalBooks(maxCells: Int = ExternalLinkPart.maxCells) throws -> [ExternalBook?] {
        let byID = Dictionary(relationships.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return try externalReferenceIDs.map { id -> ExternalBook? in
            guard let relationship = byID[id], !relationship.isExternal,
                  let entry = archive.entry(named: relationship.target) else { return nil }
            let handler = ExternalLinkPart(part: relationship.target, file: file, maxCells: maxCells)
            try XMLPushParser.parse(entry, in: archive, with: handler)
            guard var book = handler.book else { return nil }
            let links = try RelationshipsPart.read(of: relationship.target, in: archive)
            book.target = (links.first { $0.id == handler.relationshipID } ?? links.first)?.writtenTarget
            return book
        }
    }
}
