import SheetPortCore
/// Reads a comments part (`xl/comments1.xml`).
final class CommentsPart: XMLHandler {
    private(set) var comments: [Comment] = []
    private var authors: [String] = []
    private var item = StringItemReader()
    private var inAuthor = false
    private var inText = false
    private var pending: (reference: String, authorID: Int)?

    func startElement(_ name: XMLName, attributes: XMLAttributes) throws {
        if name.isSpreadsheet("author") {
            item.begin()
            item.collectText()
            inAuthor = true
        } else if name.isSpreadsheet("comment") {
            pending = (attributes.string("ref") ?? "", attributes.int("authorId") ?? -1)
        } else if name.isSpreadsheet("text"), pending != nil {
            item.begin()
            inText = true
        } else if inText {
            item.start(name)
        }
    }

    func endElement(_ name: XMLName) throws {
        if name.isSpreadsheet("author") {
            try item.finish()
            authors.append(item.text.string)
            inAuthor = false
        } else if name.isSpreadsheet("text"), let pending {
            inText = false
            try item.finish()
            let author = pending.authorID >= 0 && pending.authorID < authors.count ? authors[pending.authorID] : ""
            comments.append(Comment(reference: pending.reference, author: author, text: item.string))
        } else if name.isSpreadsheet("comment") {
            pending = nil
        } else if inText {
            try item.end(name)
        }
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) {
        if inAuthor || inText { item.characters(text) }
    }
}
