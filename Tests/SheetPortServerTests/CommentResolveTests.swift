import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport

/// A sheet of ann's with every kind of reader: editor, two commenters, a viewer, a stranger,
/// a viewer link, a commenter link and a deleted (revoked) link.
struct AnnexSetup {
    let fixture: ServerFixture
    let sheet: String
    let api: [String: API]
    let links: [String: String] // "link-viewer", "link-commenter", "link-revoked" -> link id

    var owner: API { fixture.api }
    static let everyone = ["owner", "editor", "commenter", "commenter2", "viewer", "stranger", "link-viewer", "link-commenter", "link-revoked"]

    init(rows: Int = 12) throws {
        fixture = try ServerFixture()
        let owner = fixture.api
        sheet = try owner.importSheet(try makeStyledWorkbook(in: fixture.folder, rows: rows))
        var api = ["owner": owner]
        for (subject, role) in [("editor", "editor"), ("commenter", "commenter"), ("commenter2", "commenter"), ("viewer", "viewer")] {
            let response = try owner.call("POST", "/api/sheets/\(sheet)/grants", json: ["subject": subject, "role": role])
            #expect(response.status == 201, "\(response.text)")
            api[subject] = fixture.server.api(try fixture.server.token(subject))
        }
        api["stranger"] = fixture.server.api(try fixture.server.token("stranger"))
        var links: [String: String] = [:]
        for (name, role) in [("link-viewer", "viewer"), ("link-commenter", "commenter"), ("link-revoked", "commenter")] {
            let response = try owner.call("POST", "/api/sheets/\(sheet)/links", json: ["role": role])
            try #require(response.status == 201, "\(response.text)")
            let link = try #require(response.object["link"] as? [String: Any])
            api[name] = fixture.server.api(try #require(link["token"] as? String))
            links[name] = try #require(link["id"] as? String)
        }
        #expect(try owner.call("DELETE", "/api/sheets/\(sheet)/links/\(links["link-revoked"]!)").status == 204)
        self.api = api
        self.links = links
    }

    /// The subject a party's comments carry.
    func subject(_ party: String) -> String { party == "owner" ? "ann" : party.hasPrefix("link-") ? "link:" + links[party]! : party }

    func close() { fixture.close() }
}

extension ServerTests {
    /// Who may comment, reply and resolve: commenters and up add and reply; a viewer (a viewer
    /// link too) gets 403, a stranger 404, a deleted link 401; a thread is resolved by the owner,
    /// an editor or its author, never by another commenter.
    @Test func commentThreadRoleMatrix() throws {
        let setup = try AnnexSetup()
        defer { setup.close() }
        let path = "/api/sheets/\(setup.sheet)/comments"
        let expectedAdd: [String: Int] = ["owner": 201, "editor": 201, "commenter": 201, "commenter2": 201, "viewer": 403,
                                          "stranger": 404, "link-viewer": 403, "link-commenter": 201, "link-revoked": 401]
        var threads: [String: Int] = [:]
        for party in AnnexSetup.everyone {
            let response = try setup.api[party]!.call("POST", path, json: ["ref": "C3", "text": "by \(party)"])
            #expect(response.status == expectedAdd[party], "add by \(party): \(response.status) \(response.text)")
            if response.status == 201 {
                #expect(response.object["author"] as? String == setup.subject(party))
                threads[party] = response.object["id"] as? Int
            }
        }
        // Replies to the commenter's thread: the same parties may.
        let thread = try #require(threads["commenter"])
        for party in AnnexSetup.everyone {
            let response = try setup.api[party]!.call("POST", path, json: ["text": "re: \(party)", "replyTo": thread])
            #expect(response.status == expectedAdd[party], "reply by \(party): \(response.status) \(response.text)")
            if response.status == 201 {
                #expect(response.object["replyTo"] as? Int == thread && response.object["ref"] as? String == "C3")
            }
        }
        // Resolving the commenter's thread (reopened after each success).
        let expectedResolve: [String: Int] = ["owner": 200, "editor": 200, "commenter": 200, "commenter2": 403, "viewer": 403,
                                              "stranger": 404, "link-viewer": 403, "link-commenter": 403, "link-revoked": 401]
        for party in AnnexSetup.everyone {
            let response = try setup.api[party]!.call("POST", "\(path)/\(thread)/resolve")
            #expect(response.status == expectedResolve[party], "resolve by \(party): \(response.status) \(response.text)")
            if response.status == 200 {
                #expect(response.object["resolved"] as? Bool == true && response.object["resolvedBy"] as? String == setup.subject(party))
                #expect(try setup.owner.call("POST", "\(path)/\(thread)/resolve", json: ["resolved": false]).object["resolved"] as? Bool == false)
            }
        }
        // A commenter link's holder resolves its own thread, through a reply's id too.
        let linkThread = try #require(threads["link-commenter"])
        let reply = try setup.api["link-commenter"]!.call("POST", path, json: ["ref": "C3", "text": "mine", "replyTo": String(linkThread)])
        #expect(reply.status == 201, "\(reply.text)")
        let viaReply = try setup.api["link-commenter"]!.call("POST", "\(path)/\(reply.object["id"] as? Int ?? 0)/resolve")
        #expect(viaReply.status == 200 && viaReply.object["id"] as? Int == linkThread, "\(viaReply.text)")

        // What every reader sees: each comment with its id, thread and resolution.
        let all = try setup.api["viewer"]!.object(path)["comments"] as? [[String: Any]] ?? []
        let added = all.filter { ($0["ref"] as? String) == "C3" }
        #expect(added.filter { $0["replyTo"] == nil }.count == threads.count)
        #expect(added.filter { $0["replyTo"] as? Int == thread }.count == threads.count)
        #expect(added.first { $0["id"] as? Int == linkThread }?["resolved"] as? Bool == true)
        #expect(added.first { $0["id"] as? Int == thread }?["resolved"] as? Bool == false)
        #expect(Set(all.compactMap { $0["id"] as? Int }).count == all.count, "ids are unique")
    }

    /// Hostile comment requests change nothing: refs past the grid, NUL and control
    /// characters, 100 KB of text, malformed JSON, replies to replies or to nothing.
    @Test func commentThreadsRefuseHostileValues() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let api = fixture.api
        let sheet = try api.importSheet(try makeStyledWorkbook(in: fixture.folder, rows: 5))
        let path = "/api/sheets/\(sheet)/comments"
        let first = try api.call("POST", path, json: ["ref": "B2", "text": "first"])
        let thread = try #require(first.object["id"] as? Int)
        let reply = try #require(try api.call("POST", path, json: ["text": "reply", "replyTo": thread]).object["id"] as? Int)
        let before = try api.object(path)["comments"] as? [[String: Any]] ?? []
        let version = try api.object("/api/sheets/\(sheet)")["version"] as? Int

        let refusals: [(json: [String: Any]?, raw: String?, status: Int, says: String)] = [
            (["ref": "XFE1", "text": "x"], nil, 400, "bad-ref"),
            (["ref": "A1048577", "text": "x"], nil, 400, "bad-ref"),
            (["ref": "B2:C3", "text": "x"], nil, 400, "bad-ref"),
            (["ref": "=A1", "text": "x"], nil, 400, "bad-ref"),
            (["ref": "B2", "text": "nul \u{0} inside"], nil, 400, "control character"),
            (["ref": "B2", "text": "escape \u{1B}[2J"], nil, 400, "control character"),
            (["ref": "B2", "text": String(repeating: "x", count: 32_768)], nil, 400, "32767"),
            (["ref": "B2", "text": String(repeating: "é", count: 50_000)], nil, 413, "too-large"), // 100 KB of UTF-8
            (["ref": "B2", "text": ""], nil, 400, "bad-request"),
            (["ref": "B2", "text": 5], nil, 400, "bad-request"),
            (["text": "no cell"], nil, 400, "bad-request"),
            (["text": "to a reply", "replyTo": reply], nil, 400, "first comment"),
            (["text": "to nothing", "replyTo": 999_999], nil, 404, "not-found"),
            (["text": "to a word", "replyTo": "abc"], nil, 400, "replyTo"),
            (["text": "to zero", "replyTo": 0], nil, 400, "replyTo"),
            (["text": "to a fraction", "replyTo": 1.5], nil, 400, "replyTo"),
            (["ref": "D9", "text": "elsewhere", "replyTo": thread], nil, 400, "B2"),
            (nil, "{\"ref\":\"B2\",\"text\":", 400, "bad-request"),
            (nil, "[1,2,3]", 400, "bad-request"),
            (nil, "\u{FEFF}\u{0}", 400, "bad-request"),
        ]
        for refusal in refusals {
            let response = try refusal.raw.map { try api.call("POST", path, body: .bytes(Array($0.utf8))) }
                ?? api.call("POST", path, json: refusal.json)
            #expect(response.status == refusal.status && response.text.contains(refusal.says),
                    "\(String(describing: refusal.json ?? [:]).prefix(80)) \(refusal.raw ?? ""): \(response.status) \(response.text.prefix(200))")
        }
        // Resolving what is not a comment, or with a bad body.
        for (cid, body, status) in [("999999", nil, 404), ("abc", nil, 404), ("-1", nil, 404), ("1e3", nil, 404),
                                    (String(thread), "{\"resolved\":\"yes\"}", 400), (String(thread), "{oops", 400)] as [(String, String?, Int)] {
            let response = try api.call("POST", "\(path)/\(cid)/resolve", body: body.map { .bytes(Array($0.utf8)) } ?? .none)
            #expect(response.status == status, "\(cid) \(body ?? ""): \(response.status) \(response.text)")
        }
        #expect(try api.call("GET", "\(path)/\(thread)/resolve").status == 405, "resolve is a POST")
        // Nothing changed.
        #expect((try api.object(path)["comments"] as? [[String: Any]] ?? []).count == before.count)
        #expect(try api.object("/api/sheets/\(sheet)")["version"] as? Int == version)
        // The refused texts are logged with their controls made visible (issue 35, attack 10):
        // no ESC, BEL, C1 CSI or bidi override reaches the terminal reading the log.
        let hostile = try api.call("POST", path, json: ["ref": "B2", "text": "title \u{1B}]0;PWNED\u{7} csi \u{9B}2J bidi \u{202E}gpj.exe"])
        #expect(hostile.status == 400)
        let logFile = fixture.folder.appendingPathComponent("server.log")
        func logged() -> String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }
        #expect(eventually(within: 10) { logged().contains(#"\u{9B}2J bidi \u{202E}gpj.exe"#) }, "\(logged())")
        #expect(logged().contains(#"refused text holding a control character (U+1B): title \u{1B}]0;PWNED\u{7}"#), "\(logged())")
        #expect(!logged().unicodeScalars.contains { $0.isUnsafeControl && $0 != "\n" }, "\(logged().debugDescription)")
    }

    /// Added comments, replies and resolutions are sealed at rest (nothing of their text in any
    /// file of the data directory, or in the shared database's rows), each a new version with a
    /// `comment` event, and the export still carries every comment of a cell as one thread.
    @Test func commentThreadsStaySealedAndVersioned() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let api = fixture.api
        let sheet = try api.importSheet(try makeStyledWorkbook(in: fixture.folder, rows: 5))
        let secret = "OCELOT-THREAD-SECRET-4K", replySecret = "MARMOT-REPLY-SECRET-8Z"
        let reader = try EventReader(port: RawConnection.port(of: fixture.server.base), path: "/api/sheets/\(sheet)/events", token: api.token!)
        defer { reader.close() }
        let first = try api.call("POST", "/api/sheets/\(sheet)/comments", json: ["ref": "D4", "text": secret])
        let thread = try #require(first.object["id"] as? Int)
        #expect(try api.call("POST", "/api/sheets/\(sheet)/comments", json: ["text": replySecret, "replyTo": thread]).status == 201)
        #expect(try api.call("POST", "/api/sheets/\(sheet)/comments/\(thread)/resolve").status == 200)
        var changes: [String] = []
        var versions: [Int] = []
        while changes.count < 3, case .event(let event) = reader.next() {
            if event.name == "version" {
                changes.append(event.object["change"] as? String ?? "")
                versions.append(event.object["version"] as? Int ?? 0)
            }
        }
        #expect(changes == ["comment", "comment", "comment"] && versions.count == 3 && versions == versions.sorted() && Set(versions).count == 3)

        fixture.server.stop()
        if fixture.server.databaseURL == nil {
            for file in filesUnder(fixture.server.data) {
                let bytes = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
                for text in [secret, replySecret] { #expect(bytes.range(of: Data(text.utf8)) == nil, "\(text) in \(file)") }
            }
        } else {
            let rows = try fixture.server.store().query("SELECT data FROM comments", [])
            for row in rows {
                let bytes = row[0].bytes ?? []
                for text in [secret, replySecret] { #expect(bytes.firstRange(of: Array(text.utf8)) == nil) }
            }
        }
        try fixture.server.restart()
        let export = try fixture.server.api(api.token).call("GET", "/api/sheets/\(sheet)/export.xlsx")
        let workbook = try Workbook(bytes: export.body, name: "export.xlsx")
        let note = try workbook.comments(of: try #require(workbook.firstWorksheet)).first { $0.reference == "D4" }
        #expect(note?.text.contains(secret) == true && note?.text.contains(replySecret) == true, "\(String(describing: note))")
    }
}

extension ServerTests {
    /// The list shows each reply with its thread's state: resolving marks the thread, so a reply
    /// written before is resolved too, with the same `resolvedBy`, and reopened with it.
    @Test func repliesInTheListFollowTheirThreadsState() throws {
        let setup = try AnnexSetup(rows: 3)
        defer { setup.close() }
        let path = "/api/sheets/\(setup.sheet)/comments"
        let first = try setup.owner.call("POST", path, json: ["ref": "B2", "text": "check this"])
        let id = try #require(first.object["id"] as? Int)
        let reply = try setup.api["commenter"]!.call("POST", path, json: ["replyTo": id, "text": "done"])
        let replyID = try #require(reply.object["id"] as? Int)
        let other = try setup.owner.call("POST", path, json: ["ref": "C2", "text": "an open thread"])
        let otherID = try #require(other.object["id"] as? Int)
        func listed() throws -> [Int: [String: Any]] {
            let comments = try #require(try setup.owner.call("GET", path).object["comments"] as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: comments.map { ($0["id"] as? Int ?? -1, $0) })
        }
        // Resolved through the reply's id: the whole thread.
        #expect(try setup.api["editor"]!.call("POST", "\(path)/\(replyID)/resolve").status == 200)
        var seen = try listed()
        for comment in [id, replyID] {
            #expect(seen[comment]?["resolved"] as? Bool == true && seen[comment]?["resolvedBy"] as? String == "editor", "\(seen[comment] ?? [:])")
        }
        #expect(seen[otherID]?["resolved"] as? Bool == false && seen[otherID]?["resolvedBy"] == nil)
        // Reopened: the reply with it.
        #expect(try setup.owner.call("POST", "\(path)/\(id)/resolve", json: ["resolved": false]).status == 200)
        seen = try listed()
        for comment in [id, replyID] {
            #expect(seen[comment]?["resolved"] as? Bool == false && seen[comment]?["resolvedBy"] == nil, "\(seen[comment] ?? [:])")
        }
    }
}
