/// The XML namespaces SheetPort reads, with transitional and Strict URIs folded together,
/// so that a handler matches elements by meaning, never by prefix.
public enum Namespace: Sendable, Equatable {
    /// No namespace: some generators omit `xmlns`; part handlers read it as their own.
    case none
    /// SpreadsheetML main (`x:` or default).
    case spreadsheet
    /// Office document relationships, used by `r:id` attributes.
    case relationships
    /// Package relationships (`.rels` parts).
    case packageRelationships
    /// Package content types (`[Content_Types].xml`).
    case contentTypes
    /// DrawingML main, used by the theme part.
    case drawing
    /// The `xml:` namespace (`xml:space`).
    case xml
    /// Any other namespace.
    case other

    /// Whether the URI is a Strict OOXML (ISO 29500 Strict) namespace.
    public static func isStrict(_ uri: String) -> Bool { uri.hasPrefix("http://purl.oclc.org/ooxml/") }

    /// The namespace of a URI.
    public init(uri: String) {
        switch uri {
        case "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
             "http://purl.oclc.org/ooxml/spreadsheetml/main":
            self = .spreadsheet
        case "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
             "http://purl.oclc.org/ooxml/officeDocument/relationships":
            self = .relationships
        case "http://schemas.openxmlformats.org/package/2006/relationships":
            self = .packageRelationships
        case "http://schemas.openxmlformats.org/package/2006/content-types":
            self = .contentTypes
        case "http://schemas.openxmlformats.org/drawingml/2006/main",
             "http://purl.oclc.org/ooxml/drawingml/main":
            self = .drawing
        case "http://www.w3.org/XML/1998/namespace":
            self = .xml
        default:
            self = .other
        }
    }
}

/// Namespaces by libxml2's URI pointer: libxml2 interns names in its dictionary, so the same
/// URI comes back as the same pointer and a part's few namespaces resolve without strings.
struct NamespaceCache {
    private var cache: [(uri: UnsafePointer<UInt8>, namespace: Namespace)] = []
    private var lastURI: UnsafePointer<UInt8>?
    private var lastNamespace = Namespace.none

    /// Whether any URI seen was a Strict OOXML namespace.
    private(set) var usesStrictNamespaces = false

    /// The namespace of an element's or attribute's URI (nil: none).
    mutating func namespace(of uri: UnsafePointer<UInt8>?) -> Namespace {
        guard let uri else { return .none }
        if uri == lastURI { return lastNamespace }
        for cached in cache where cached.uri == uri {
            lastURI = uri
            lastNamespace = cached.namespace
            return cached.namespace
        }
        let text = String(cString: uri)
        let namespace = Namespace(uri: text)
        if Namespace.isStrict(text) { usesStrictNamespaces = true }
        if cache.count < 16 { cache.append((uri, namespace)) }
        return namespace
    }
}
