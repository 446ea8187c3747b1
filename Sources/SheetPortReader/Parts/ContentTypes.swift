import SheetPortCore
/// `[Content_Types].xml`: the content type of each part, by override or by extension.
public struct ContentTypes: Sendable {
    /// `Override` entries: part name key -> content type.
    public var overrides: [String: String] = [:]
    /// `Default` entries: lower-cased extension -> content type.
    public var defaults: [String: String] = [:]

    /// The content type of a part, or nil when the package does not say.
    public func type(of part: String) -> String? {
        if let type = overrides[PartName.key(part)] { return type }
        guard let dot = part.lastIndex(of: ".") else { return nil }
        return defaults[part[part.index(after: dot)...].lowercased()]
    }

    /// The parts whose content type is one of `types`, in no particular order.
    public func parts(ofType types: Set<String>) -> [String] {
        overrides.filter { types.contains($0.value) }.map(\.key)
    }

    /// Reads `[Content_Types].xml`; an empty table when the package has none.
    static func read(in archive: ZipArchive) throws -> ContentTypes {
        guard let entry = archive.entry(named: "[Content_Types].xml") else { return ContentTypes() }
        let handler = Handler()
        try XMLPushParser.parse(entry, in: archive, with: handler)
        return handler.table
    }

    private final class Handler: XMLHandler {
        var table = ContentTypes()

        func startElement(_ name: XMLName, attributes: XMLAttributes) throws {
            guard let type = attributes.string("ContentType") else { return }
            if name.is("Override"), let part = attributes.string("PartName") {
                table.overrides[PartName.key(part)] = type
            } else if name.is("Default"), let ext = attributes.string("Extension") {
                table.defaults[ext.lowercased()] = type
            }
        }

        func endElement(_ name: XMLName) throws {}
        func characters(_ text: UnsafeBufferPointer<UInt8>) {}
    }
}
