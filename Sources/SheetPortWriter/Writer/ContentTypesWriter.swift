/// `[Content_Types].xml`: a default per extension and an override per part.
struct ContentTypesWriter {
    private var overrides: [(part: String, type: String)] = []
    private var hasVML = false

    /// The content type of SpreadsheetML parts, by part kind.
    static let spreadsheetML = "application/vnd.openxmlformats-officedocument.spreadsheetml."

    /// Declares `part` (a name without the leading `/`) with `type`.
    mutating func add(_ part: String, type: String) { overrides.append((part, type)) }

    /// Declares the `vml` extension, used by the legacy drawings that show comments.
    mutating func addVML() { hasVML = true }

    /// The part.
    func part() -> [UInt8] {
        var xml = XMLWriter()
        xml.declaration()
        xml.raw("<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">")
        xml.raw("<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>")
        xml.raw("<Default Extension=\"xml\" ContentType=\"application/xml\"/>")
        if hasVML {
            xml.raw("<Default Extension=\"vml\" ContentType=\"application/vnd.openxmlformats-officedocument.vmlDrawing\"/>")
        }
        for override in overrides {
            xml.raw("<Override PartName=\"/"); xml.attribute(override.part)
            xml.raw("\" ContentType=\""); xml.attribute(override.type); xml.raw("\"/>")
        }
        xml.raw("</Types>")
        return xml.bytes
    }
}
