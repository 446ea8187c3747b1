import Foundation
import Testing
import SheetPortCore
import SheetPortEditing
@testable import SheetPortClient
import SheetPortTestSupport

/// The panels' requests of `HTTPEditingTransport` (history, restore, comments, grants, links)
/// against the real server, and what a hostile server answers.
@Suite struct EditingTransportPanelTests {
    @Test func historyCommentsGrantsAndLinksRoundTrip() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let book = fixture.folder.appendingPathComponent("p.xlsx").path
        try writeWithOpenpyxl("ws.append(['Qty'])\nws.append([1])\nws.row_dimensions[6].height = 45", to: book)
        let sheet = try fixture.api.importSheet(book)
        let transport = HTTPEditingTransport(connection: try ServerConnection(url: fixture.server.base, token: fixture.api.token!))
        let a2 = CellReference("A2")!

        _ = try transport.writeCells(sheet: sheet, [CellEdit(ref: a2, input: "5")])
        let history = try transport.history(sheet: sheet, ref: a2)
        #expect(history.map(\.input) == ["5", "1"])
        #expect(history.map(\.subject) == ["ann", "ann"])
        #expect(history.last?.change == "imported")
        #expect(history.first?.at.hasSuffix("Z") == true)
        let restored = try transport.restore(sheet: sheet, ref: a2, version: history.last!.version)
        #expect(restored.changed[a2]?.input == "1")
        let refused = #expect(throws: TransportError.self) { try transport.restore(sheet: sheet, ref: a2, version: 999) }
        #expect(refused?.status == 400 && refused?.retryable == false)

        try transport.addComment(sheet: sheet, ref: a2, text: "why 1?", replyTo: nil)
        let thread = try #require(try transport.comments(sheet: sheet).first)
        try transport.addComment(sheet: sheet, ref: CellReference("Z9")!, text: "because", replyTo: thread.id)
        try transport.resolveComment(sheet: sheet, comment: thread.id, resolved: true)
        let comments = try transport.comments(sheet: sheet)
        #expect(comments.map(\.text) == ["why 1?", "because"])
        #expect(comments.allSatisfy { $0.ref == a2 && $0.author == "ann" }, "\(comments)")
        // The panel reads a thread's state from its first comment (the server's replies may not carry it).
        #expect(comments.first?.resolved == true, "\(comments)")
        #expect(comments.last?.replyTo == thread.id)
        // Text the server refuses at its boundary is a refusal, not retried.
        let hostile = #expect(throws: TransportError.self) { try transport.addComment(sheet: sheet, ref: a2, text: "\u{1B}[2J", replyTo: nil) }
        #expect(hostile?.status == 400 && hostile?.description.contains("\u{1B}") == false)

        try transport.grant(sheet: sheet, subject: "bob smith", role: .commenter)
        let link = try transport.createLink(sheet: sheet, role: .viewer)
        #expect(link.url?.hasPrefix("\(fixture.server.base)/l/") == true)
        #expect(try transport.links(sheet: sheet) == [ShareLink(id: link.id, role: .viewer)])
        #expect(try transport.grants(sheet: sheet).contains(SheetGrant(subject: "bob smith", role: .commenter)))
        try transport.revokeGrant(sheet: sheet, subject: "bob smith")
        try transport.deleteLink(sheet: sheet, id: link.id)
        #expect(try transport.grants(sheet: sheet).filter { !$0.subject.hasPrefix("link:") }.isEmpty)
        #expect(try transport.links(sheet: sheet).isEmpty)
        let gone = #expect(throws: TransportError.self) { try transport.revokeGrant(sheet: sheet, subject: "bob smith") }
        #expect(gone?.status == 404)

        // A view: sorted and filtered by the server, source rows kept; a filter's `&`, `=` and
        // `#` travel inside its one argument.
        _ = try transport.writeCells(sheet: sheet, [CellEdit(ref: CellReference("A3")!, input: "x&y=1#2"), CellEdit(ref: CellReference("A4")!, input: "7")])
        let sorted = try transport.view(sheet: sheet, TableViewQuery(sort: "A:desc"), start: 1, count: 10)
        // Row 6 has a height and no cells: a blank row, last.
        #expect(sorted.rows.map(\.row) == [3, 1, 4, 2, 6], "\(sorted.rows)")
        #expect(sorted.total == 5 && sorted.rows.first?.cells[1]?.input == "x&y=1#2")
        let filtered = try transport.view(sheet: sheet, TableViewQuery(filters: ["A:contains:y=1#", "A:<>"]), start: 1, count: 10)
        #expect(filtered.rows.map(\.row) == [3] && filtered.total == 1, "\(filtered)")
        let bad = #expect(throws: TransportError.self) { try transport.view(sheet: sheet, TableViewQuery(sort: "A:sideways"), start: 1, count: 10) }
        #expect(bad?.status == 400 && bad?.retryable == false)

        // A row without cells keeps its height in the window: the grid draws it.
        let editor = SheetEditor(sheet: sheet, transport: transport)
        editor.show(start: 1, count: 10)
        #expect(editor.rowHeight(6) == 45)
        #expect(editor.rowHeight(5) == CellSizes.defaultRowHeight)
    }

    @Test func hostileAnswersLeaveOutWhatDoesNotRead() throws {
        let server = try HostileServer { _, path in
            if path.hasSuffix("/history") { return .json(200, #"{"history":[{"version":3,"subject":"\u001b[2J","input":"x","at":"now"},{"subject":"no version"}]}"#) }
            if path.hasSuffix("/comments") { return .json(200, #"{"comments":[{"id":1,"ref":"XFE1","text":"off the grid"},{"id":2,"ref":"B2","text":"ok","replyTo":1}]}"#) }
            if path.hasSuffix("/grants") { return .json(200, #"{"grants":[{"subject":"bob","role":"admin"},{"subject":"eve","role":"viewer"},{"role":"editor"}]}"#) }
            return .json(404, #"{"error":{"code":"not-found","message":"no"}}"#)
        }
        defer { server.stop() }
        var connection = try ServerConnection(url: server.url, token: "t")
        connection.retry.attempts = 1
        let transport = HTTPEditingTransport(connection: connection, timeout: 5)
        // An entry without a version makes the answer malformed: an error, not half a history.
        #expect(throws: TransportError.self) { try transport.history(sheet: "s", ref: CellReference("A1")!) }
        #expect(try transport.comments(sheet: "s").map(\.id) == [2])
        #expect(try transport.grants(sheet: "s") == [SheetGrant(subject: "eve", role: .viewer)])
        #expect(HTTPEditingTransport.link(JSONObject(["id": 7, "role": "viewer"])) == ShareLink(id: "7", role: .viewer))
        #expect(HTTPEditingTransport.link(JSONObject(["id": "7", "role": "admin"])) == nil)
    }
}
