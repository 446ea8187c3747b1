import Foundation

extension Workbook {
    /// When the package was last saved, as its core properties (`docProps/core.xml`,
    /// `dcterms:modified`) record it; nil when the part or the property is missing, damaged or no
    /// W3CDTF date-time. Excel writes it as it saves, just after it last calculated, so it is the
    /// moment the cached values of `NOW()` and `TODAY()` were taken.
    public func lastModified() -> Date? {
        let name = packageRelationships.first { $0.type == "core-properties" && !$0.isExternal }?.target ?? "docProps/core.xml"
        let handler = PropertyPart("modified", limit: 64)
        guard let entry = archive.entry(named: name), (try? XMLPushParser.parse(entry, in: archive, with: handler)) != nil,
              let text = handler.value, let seconds = W3CDateTime.unixTime(text) else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }
}
