/// The shared-string table of a workbook being written, and its part `xl/sharedStrings.xml`.
///
/// Memory grows with the distinct strings (as in every writer that shares them); a sheet of
/// mostly unique text can be written with inline strings instead (`WriterOptions`).
struct SharedStringsWriter {
    private var indexes: [String: Int] = [:]
    private var references = 0
    private var bytes = 0

    /// Whether no string was added.
    var isEmpty: Bool { indexes.isEmpty }

    /// The index of `text`, adding it when new; nil when it is new and adding it would take
    /// the table past `budget` bytes (see `WriterOptions.sharedStringBudget`).
    mutating func index(of text: String, budget: Int? = nil) -> Int? {
        if let index = indexes[text] { references += 1; return index }
        if let budget {
            let cost = text.utf8.count + 48
            guard bytes + cost <= budget else { return nil }
            bytes += cost
        }
        references += 1
        let index = indexes.count
        indexes[text] = index
        return index
    }

    /// `xl/sharedStrings.xml`.
    func part() -> [UInt8] {
        var ordered = [String](repeating: "", count: indexes.count)
        for (text, index) in indexes { ordered[index] = text }
        var xml = XMLWriter(capacity: 64 + ordered.count * 24)
        xml.declaration()
        xml.raw("<sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" count=\"")
        xml.int(references); xml.raw("\" uniqueCount=\""); xml.int(ordered.count); xml.raw("\">")
        for text in ordered {
            xml.raw("<si>")
            xml.textElement(text)
            xml.raw("</si>")
        }
        xml.raw("</sst>")
        return xml.bytes
    }
}

extension XMLWriter {
    /// `<t>text</t>`, with `xml:space="preserve"` when spaces or line breaks must survive.
    mutating func textElement(_ text: String) {
        if Self.needsPreserve(text) { raw("<t xml:space=\"preserve\">") } else { raw("<t>") }
        self.text(text)
        raw("</t>")
    }
}
