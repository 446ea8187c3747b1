/// A sheet's threaded comments (`xl/threadedComments/threadedCommentN.xml`) and the
/// workbook's people (`xl/persons/person.xml`), as Excel 365 writes them: a thread is its
/// first comment and the replies that name it as `parentId`. Each thread also has a legacy
/// note (`CommentsWriter`, author `tc=ID`) holding the whole thread, which older readers show.
/// Ids are derived from positions, so the same workbook gives the same bytes.
enum ThreadedCommentsWriter {
    /// The namespace of both parts.
    static let namespace = "http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments"
    /// The relationship type from a worksheet to its threaded comments.
    static let threadRelationship = "http://schemas.microsoft.com/office/2017/10/relationships/threadedComment"
    /// The relationship type from the workbook to its people.
    static let personRelationship = "http://schemas.microsoft.com/office/2017/10/relationships/person"
    /// The content types.
    static let threadType = "application/vnd.ms-excel.threadedcomments+xml"
    static let personType = "application/vnd.ms-excel.person+xml"

    /// A GUID-shaped id, `{SSSSSSSS-0000-4000-8000-NNNNNNNNNNNN}`, for item `number` of scope
    /// `scope` (a sheet's number for its comments, 0 for people).
    static func identifier(scope: Int, _ number: Int) -> String {
        func hex(_ value: Int, _ digits: Int) -> String {
            let text = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        return "{" + hex(scope, 8) + "-0000-4000-8000-" + hex(number, 12) + "}"
    }

    /// The legacy note of a thread, worded as Excel words it.
    static func legacyText(_ entries: [(author: String, text: String)]) -> String {
        var text = "[Threaded comment]\n\nYour version of Excel allows you to read this threaded comment; however, any edits "
            + "to it will get removed if the file is opened in a newer version of Excel. Learn more: "
            + "https://go.microsoft.com/fwlink/?linkid=870924\n\nComment:\n"
        for (index, entry) in entries.enumerated() {
            if index == 1 { text += "Reply:\n" }
            text += "    " + entry.author + ": " + entry.text + "\n"
        }
        return String(text.dropLast())
    }

    /// The threaded comments part of sheet `sheet`; `people` gives each author's person id.
    static func part(sheet: Int, threads: [CommentThread], people: [String: String]) -> [UInt8] {
        var xml = XMLWriter()
        xml.declaration()
        xml.raw("<ThreadedComments xmlns=\"http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments\" ")
        xml.raw("xmlns:x=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">")
        for thread in threads {
            let root = identifier(scope: sheet, thread.firstID)
            for (index, entry) in thread.entries.enumerated() {
                xml.raw("<threadedComment ref=\""); xml.attribute(thread.reference)
                xml.raw("\" personId=\""); xml.attribute(people[entry.author]!)
                xml.raw("\" id=\""); xml.attribute(identifier(scope: sheet, thread.firstID + index))
                if index > 0 { xml.raw("\" parentId=\""); xml.attribute(root) }
                xml.raw("\"><text>"); xml.text(entry.text); xml.raw("</text></threadedComment>")
            }
        }
        xml.raw("</ThreadedComments>")
        return xml.bytes
    }

    /// The people part: one person per author, in order of first appearance.
    static func personsPart(_ authors: [String], people: [String: String]) -> [UInt8] {
        var xml = XMLWriter()
        xml.declaration()
        xml.raw("<personList xmlns=\"http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments\" ")
        xml.raw("xmlns:x=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">")
        for author in authors {
            xml.raw("<person displayName=\""); xml.attribute(author)
            xml.raw("\" id=\""); xml.attribute(people[author]!)
            xml.raw("\" userId=\""); xml.attribute(author)
            xml.raw("\" providerId=\"None\"/>")
        }
        xml.raw("</personList>")
        return xml.bytes
    }
}

/// A comment thread on one cell: its first comment, then the replies, in order.
struct CommentThread {
    /// The cell (`B2`).
    var reference: String
    /// Author and text of each comment.
    var entries: [(author: String, text: String)]
    /// The number of its first comment's id in its sheet (the others follow).
    var firstID: Int
}
