import Foundation
import Testing
@testable import SheetPortClient
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert
@testable import SheetPortServer

extension ServerTests {
    /// Only the owner creates, lists and deletes links; a link's token opens its sheet alone
    /// with its role (the list shows that sheet only, another sheet of the owner's is 404,
    /// imports are 403), on every reading route including the view and the export; a deleted
    /// link's token is 401 everywhere.
    @Test func shareLinkRoleMatrix() throws {
        let setup = try AnnexSetup()
        defer { setup.close() }
        let sheet = setup.sheet, owner = setup.owner
        let other = try owner.importSheet(try makeStyledWorkbook(in: setup.fixture.folder, name: "other.xlsx", rows: 3))

        // Creating, listing and deleting links.
        let expectedCreate: [String: Int] = ["owner": 201, "editor": 403, "commenter": 403, "commenter2": 403, "viewer": 403,
                                             "stranger": 404, "link-viewer": 403, "link-commenter": 403, "link-revoked": 401]
        var made: [String] = []
        for party in AnnexSetup.everyone {
            let create = try setup.api[party]!.call("POST", "/api/sheets/\(sheet)/links", json: ["role": "viewer"])
            #expect(create.status == expectedCreate[party], "create by \(party): \(create.status) \(create.text)")
            if let link = create.object["link"] as? [String: Any] {
                #expect((link["token"] as? String)?.count == 64 && (link["id"] as? String)?.count == 32 && link["role"] as? String == "viewer")
                made.append(link["id"] as? String ?? "")
            }
            let list = try setup.api[party]!.call("GET", "/api/sheets/\(sheet)/links")
            #expect(list.status == (expectedCreate[party] == 201 ? 200 : expectedCreate[party]), "list by \(party): \(list.status)")
            #expect(!list.text.contains("\"token\""), "a listed link never shows its token")
        }
        let listed = try owner.object("/api/sheets/\(sheet)/links")["links"] as? [[String: Any]] ?? []
        #expect(Set(listed.compactMap { $0["id"] as? String }) == Set([setup.links["link-viewer"]!, setup.links["link-commenter"]!] + made))
        for party in AnnexSetup.everyone where party != "owner" {
            let delete = try setup.api[party]!.call("DELETE", "/api/sheets/\(sheet)/links/\(made[0])")
            #expect(delete.status == expectedCreate[party], "delete by \(party): \(delete.status)")
        }
        #expect(try owner.call("DELETE", "/api/sheets/\(sheet)/links/\(made[0])").status == 204)
        #expect(try owner.call("DELETE", "/api/sheets/\(sheet)/links/\(made[0])").status == 404)
        // A link of one sheet cannot be deleted through another.
        #expect(try owner.call("DELETE", "/api/sheets/\(other)/links/\(setup.links["link-viewer"]!)").status == 404)

        // What each link token may do.
        let reads = ["/api/sheets/\(sheet)", "/api/sheets/\(sheet)/rows?start=1&count=5", "/api/sheets/\(sheet)/view?sort=B:desc",
                     "/api/sheets/\(sheet)/comments", "/api/sheets/\(sheet)/export.xlsx"]
        for party in ["link-viewer", "link-commenter"] {
            let link = setup.api[party]!
            let sheets = try link.object("/api/sheets")["sheets"] as? [[String: Any]] ?? []
            #expect(sheets.map { $0["id"] as? String } == [sheet] && sheets.first?["role"] as? String == String(party.dropFirst(5)))
            for path in reads { #expect(try link.call("GET", path).status == 200, "\(party) \(path)") }
            #expect(try link.call("GET", "/api/sheets/\(other)").status == 404)
            #expect(try link.call("GET", "/api/sheets/\(other)/view").status == 404)
            #expect(try link.call("PATCH", "/api/sheets/\(sheet)", json: ["name": "Taken"]).status == 403)
            #expect(try link.call("GET", "/api/sheets/\(sheet)/grants").status == 403)
            #expect(try link.call("POST", "/api/sheets/\(sheet)/grants", json: ["subject": "x", "role": "editor"]).status == 403)
            #expect(try link.call("DELETE", "/api/sheets/\(sheet)").status == 403)
            #expect(try link.call("GET", "/api/imports").status == 403)
            #expect(try link.upload(try makeStyledWorkbook(in: setup.fixture.folder, name: "sneak.xlsx", rows: 2)).status == 403)
        }
        for path in reads + ["/api/sheets"] {
            let response = try setup.api["link-revoked"]!.call("GET", path)
            #expect(response.status == 401 && response.text.contains("unauthorized"), "revoked link \(path)")
        }
        // The owner sees the links' grants, and the sheet is unchanged by the refusals.
        #expect(try owner.object("/api/sheets/\(sheet)")["name"] as? String == "Data")
    }

    /// Links refuse hostile requests: roles other than viewer and commenter, malformed JSON,
    /// control characters; no person may take a link's subject (a grant or a token for
    /// `link:...`), so a link never opens another sheet.
    @Test func shareLinksRefuseHostileValues() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let api = fixture.api
        let sheet = try api.importSheet(try makeStyledWorkbook(in: fixture.folder, rows: 3))
        let other = try api.importSheet(try makeStyledWorkbook(in: fixture.folder, name: "other.xlsx", rows: 3))
        for body in ["{\"role\":\"editor\"}", "{\"role\":\"owner\"}", "{\"role\":\"VIEWER\"}", "{\"role\":null}", "{}", "{\"role\":\"viewer\"",
                     "[\"viewer\"]", "{\"role\":\"viewer\u{0}\"}", ""] {
            let response = try api.call("POST", "/api/sheets/\(sheet)/links", body: .bytes(Array(body.utf8)))
            #expect(response.status == 400, "\(body): \(response.status) \(response.text)")
        }
        #expect((try api.object("/api/sheets/\(sheet)/links")["links"] as? [Any])?.isEmpty == true)
        let link = try #require(try api.call("POST", "/api/sheets/\(sheet)/links", json: ["role": "commenter"]).object["link"] as? [String: Any])
        let id = try #require(link["id"] as? String), token = try #require(link["token"] as? String)
        // Granting the link's subject another sheet is refused, as is a token for a link subject.
        let grant = try api.call("POST", "/api/sheets/\(other)/grants", json: ["subject": "link:\(id)", "role": "editor"])
        #expect(grant.status == 400 && grant.text.contains("share links"), "\(grant.text)")
        #expect { try fixture.server.token("link:\(id)") } throws: { "\($0)".contains("share links") }
        #expect(try fixture.server.api(token).call("GET", "/api/sheets/\(other)").status == 404)
        // Hostile link ids in the path.
        for lid in ["..%2F..", "%00", "' OR '1'='1", String(repeating: "f", count: 5000)] {
            let response = try api.call("DELETE", "/api/sheets/\(sheet)/links/\(lid.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? lid)")
            #expect([400, 404].contains(response.status), "\(lid.prefix(20)): \(response.status)")
        }
        #expect(try fixture.server.api(token).call("GET", "/api/sheets/\(sheet)").status == 200, "the link still works")
        // The link token's comment is authored by its subject.
        let comment = try fixture.server.api(token).call("POST", "/api/sheets/\(sheet)/comments", json: ["ref": "A1", "text": "via link"])
        #expect(comment.status == 201 && comment.object["author"] as? String == "link:\(id)")
    }

    /// Deleting a link ends its open event streams before another event is sent, as revoking a
    /// token does; the owner's stream sees the change as a `grant` event.
    @Test func deletingALinkEndsItsStreams() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let api = fixture.api
        let sheet = try api.importSheet(try makeStyledWorkbook(in: fixture.folder, rows: 3))
        let link = try #require(try api.call("POST", "/api/sheets/\(sheet)/links", json: ["role": "viewer"]).object["link"] as? [String: Any])
        let port = RawConnection.port(of: fixture.server.base)
        let linkReader = try EventReader(port: port, path: "/api/sheets/\(sheet)/events", token: try #require(link["token"] as? String))
        let ownerReader = try EventReader(port: port, path: "/api/sheets/\(sheet)/events", token: api.token!)
        defer { linkReader.close(); ownerReader.close() }
        #expect(linkReader.status == 200 && ownerReader.status == 200)
        #expect(try api.call("PATCH", "/api/sheets/\(sheet)", json: ["name": "Before"]).status == 200)
        #expect(EventStreamTests.version(linkReader.next())?.change == "rename")
        let deleted = Date()
        #expect(try api.call("DELETE", "/api/sheets/\(sheet)/links/\(link["id"] as? String ?? "")").status == 204)
        #expect(try api.call("PATCH", "/api/sheets/\(sheet)", json: ["name": "After"]).status == 200) // never delivered to the link
        let (ended, events) = linkReader.end(within: 5)
        let delay = Date().timeIntervalSince(deleted)
        print("link deletion to stream end: \(String(format: "%.3f", delay)) s")
        #expect(ended && events.isEmpty, "delivered after the deletion: \(events)")
        #expect(delay < 3)
        #expect(EventStreamTests.version(ownerReader.next())?.change == "rename")
        #expect(EventStreamTests.version(ownerReader.next())?.change == "grant")
        #expect(EventStreamTests.version(ownerReader.next())?.change == "rename")
    }

    /// A link's event streams count against the share of the owner who made it (issue 35,
    /// attack 9): an owner's links cannot take more streams than the owner's share, so they
    /// cannot fill the server's pool, and another user still gets a stream.
    @Test func linkStreamsCountAgainstTheirOwnersShare() throws {
        let fixture = try ServerFixture { ($0.eventStreams.total, $0.eventStreams.perSubject) = (4, 2) }
        defer { fixture.close() }
        let api = fixture.api
        let sheet = try api.importSheet(try makeStyledWorkbook(in: fixture.folder, rows: 3))
        #expect(try api.call("POST", "/api/sheets/\(sheet)/grants", json: ["subject": "bob", "role": "viewer"]).status < 300)
        let port = RawConnection.port(of: fixture.server.base)
        var readers: [EventReader] = []
        defer { readers.forEach { $0.close() } }
        var statuses: [Int] = []
        for _ in 0..<4 {
            let link = try #require(try api.call("POST", "/api/sheets/\(sheet)/links", json: ["role": "viewer"]).object["link"] as? [String: Any])
            let reader = try EventReader(port: port, path: "/api/sheets/\(sheet)/events", token: try #require(link["token"] as? String))
            readers.append(reader)
            statuses.append(reader.status)
        }
        #expect(statuses == [200, 200, 429, 429], "the owner's links past the owner's share of 2: \(statuses)")
        let owner = try EventReader(port: port, path: "/api/sheets/\(sheet)/events", token: api.token!)
        readers.append(owner)
        #expect(owner.status == 429, "the links took the owner's own share")
        let bob = try EventReader(port: port, path: "/api/sheets/\(sheet)/events", token: try fixture.server.token("bob"))
        readers.append(bob)
        #expect(bob.status == 200, "another user still gets a stream")
        // The links' streams stay live streams of their own subjects.
        #expect(try api.call("PATCH", "/api/sheets/\(sheet)", json: ["name": "Renamed"]).status == 200)
        var changes: [String] = []
        while changes.last != "rename", changes.count < 8, let change = EventStreamTests.version(readers[0].next())?.change { changes.append(change) }
        #expect(changes == ["grant", "grant", "grant", "rename"], "the later links' grants, then the rename: \(changes)")
    }
}
