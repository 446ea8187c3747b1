import SheetPortCore
/// A sheet's comments part (`xl/commentsN.xml`): the text of each note and its author.
/// Excel and LibreOffice show the notes through the sheet's VML drawing (`VMLDrawingWriter`).
enum CommentsWriter {
    /// The part for `comments`, in the order they were added.
    static func part(_ comments: [Comment]) -> [UInt8] {
        var authors: [String] = []
        var authorIDs: [String: Int] = [:]
        for comment in comments where authorIDs[comment.author] == nil {
            authorIDs[comment.author] = authors.count
            authors.append(comment.author)
        }
        var xml = XMLWriter()
        xml.declaration()
        xml.raw("<comments xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><authors>")
        for author in authors { xml.raw("<author>"); xml.text(author); xml.raw("</author>") }
        xml.raw("</authors><commentList>")
        for comment in comments {
            xml.raw("<comment ref=\""); xml.attribute(comment.reference)
            xml.raw("\" authorId=\""); xml.int(authorIDs[comment.author]!); xml.raw("\"><text>")
            xml.textElement(comment.text)
            xml.raw("</text></comment>")
        }
        xml.raw("</commentList></comments>")
        return xml.bytes
    }
}
