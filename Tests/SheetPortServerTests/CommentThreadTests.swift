import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortClient
import SheetPortTestSupport

extension ServerTests {
    /// A cell with an imported comment and two added through the API exports as one thread:
    /// Excel's threaded comments part (first comment, then replies naming it as parent, each
    /// with its person), the persons part, their relationships and content types, and the
    /// legacy note (author `tc=ID` of the thread) that older readers show, holding every entry.
    /// A cell with one comment stays a plain note. Hostile text is escaped, not injected.
    @Test func severalCommentsOnACellExportAsAThread() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let api = fixture.api
        let sheet = try api.importSheet(try makeStyledWorkbook(in: fixture.folder, rows: 5)) // one note on B2, by Ann
        let imported = "NARWHAL-COMMENT-SECRET-9X" // makeStyledWorkbook's note
        let reply = "second </text><x:evil/> & \"quoted\""
        #expect(try api.call("POST", "/api/sheets/\(sheet)/comments", json: ["ref": "B2", "text": reply]).status == 201)
        #expect(try api.call("POST", "/api/sheets/\(sheet)/comments", json: ["ref": "B2", "text": "third"]).status == 201)
        #expect(try api.call("POST", "/api/sheets/\(sheet)/comments", json: ["ref": "C3", "text": "alone"]).status == 201)
        let answer = try api.call("GET", "/api/sheets/\(sheet)/export.xlsx")
        #expect(answer.status == 200)

        let archive = try ZipArchive(bytes: answer.body, name: "export.xlsx")
        func text(_ part: String) throws -> String {
            let entry = try #require(archive.entry(named: part), "\(part) is missing")
            var bytes: [UInt8] = []
            try archive.read(entry) { bytes += $0 }
            return String(decoding: bytes, as: UTF8.self)
        }
        let threads = try text("xl/threadedComments/threadedComment1.xml")
        let pattern = try NSRegularExpression(pattern: "<threadedComment ref=\"B2\" personId=\"(\\{[0-9A-F-]{36}\\})\" id=\"(\\{[0-9A-F-]{36}\\})\"( parentId=\"(\\{[0-9A-F-]{36}\\})\")?><text>([^<]*)</text></threadedComment>")
        let matches = pattern.matches(in: threads, range: NSRange(threads.startIndex..., in: threads)).map { match in
            (1...5).map { index in Range(match.range(at: index), in: threads).map { String(threads[$0]) } }
        }
        try #require(matches.count == 3, "\(threads)")
        #expect(matches[0][2] == nil && matches[1][3] == matches[0][1] && matches[2][3] == matches[0][1], "replies name the first as parent")
        #expect(Set(matches.map { $0[1]! }).count == 3, "each comment has its own id")
        #expect(matches.map { $0[4]! } == [imported, "second &lt;/text&gt;&lt;x:evil/&gt; &amp; \"quoted\"", "third"])
        #expect(matches[0][0] != matches[1][0] && matches[1][0] == matches[2][0], "Ann's person, then ann's")
        #expect(!threads.contains("C3"), "a single comment stays a note")

        let persons = try text("xl/persons/person.xml")
        for id in Set(matches.map { $0[0]! }) { #expect(persons.contains("id=\"\(id)\""), "\(persons)") }
        #expect(try text("xl/_rels/workbook.xml.rels").contains("relationships/person\" Target=\"persons/person.xml\""))
        #expect(try text("xl/worksheets/_rels/sheet1.xml.rels").contains("Target=\"../threadedComments/threadedComment1.xml\""))
        let types = try text("[Content_Types].xml")
        #expect(types.contains("vnd.ms-excel.threadedcomments+xml") && types.contains("vnd.ms-excel.person+xml"))

        // The legacy note: authored by the thread, showing every entry.
        let workbook = try Workbook(bytes: answer.body, name: "export.xlsx")
        let notes = try workbook.comments(of: try #require(workbook.firstWorksheet))
        let note = try #require(notes.first { $0.reference == "B2" })
        #expect(note.author == "tc=" + matches[0][1]!)
        #expect(note.text.hasPrefix("[Threaded comment]") && note.text.contains("Ann: \(imported)")
                && note.text.contains("ann: \(reply)") && note.text.contains("ann: third"), "\(note.text)")
        #expect(notes.first { $0.reference == "C3" }.map { [$0.author, $0.text] } == ["ann", "alone"])
    }
}
