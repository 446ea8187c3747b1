import Foundation
import Testing
@testable import SheetPortClient
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert
@testable import SheetPortServer

/// The server tests: each starts the real `sheetport serve` binary on a loopback ephemeral
/// port with a data directory of its own; run one at a time (two cores, shared).
@Suite(.serialized) struct ServerTests {}

extension ServerTests {
    /// An owner, a viewer, a commenter, an editor and an outsider see exactly what their role
    /// allows on every route; refused mutations change nothing.
    @Test func roleMatrix() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let (folder, server) = (fixture.folder, fixture.server)
        let subjects = ["owner", "viewer", "commenter", "editor", "outsider"]
        var api: [String: API] = [:]
        for subject in subjects { api[subject] = server.api(try server.token(subject)) }
        let owner = api["owner"]!

        // Upload progress reaches the whole file.
        let workbook = try makeStyledWorkbook(in: folder)
        var progress: (sent: Int64, total: Int64) = (0, 0)
        let upload = try HTTPClient().send(HTTPRequest(method: "POST", url: owner.base + "/api/imports",
                                                       headers: [("Authorization", "Bearer \(owner.token!)"), ("X-Filename", "styled.xlsx")],
                                                       body: .file(workbook))) { sent, total in progress = (sent, total) }
        let size = Int64(try FileManager.default.attributesOfItem(atPath: workbook)[.size] as? Int ?? 0)
        #expect(upload.status == 202 && progress.sent == size && progress.total == size)
        let job = try owner.wait(for: try #require(API.job(upload.body)?["id"] as? String))
        #expect(job["status"] as? String == "succeeded", "\(job)")
        let sheet = try #require(((job["result"] as? [String: Any])?["sheet"] as? [String: Any])?["id"] as? String)
        for role in ["viewer", "commenter", "editor"] {
            let response = try owner.call("POST", "/api/sheets/\(sheet)/grants", json: ["subject": role, "role": role])
            #expect(response.status == 201, "\(response.text)")
        }

        // What each route answers each subject; mutations last, each with what it may change.
        let routes: [(name: String, method: String, path: String, json: [String: Any]?)] = [
            ("list", "GET", "/api/sheets", nil),
            ("metadata", "GET", "/api/sheets/\(sheet)", nil),
            ("rows", "GET", "/api/sheets/\(sheet)/rows?start=1&count=10", nil),
            ("comments", "GET", "/api/sheets/\(sheet)/comments", nil),
            ("export", "GET", "/api/sheets/\(sheet)/export.xlsx", nil),
            ("add comment", "POST", "/api/sheets/\(sheet)/comments", ["ref": "C3", "text": "looks right"]),
            ("rename", "PATCH", "/api/sheets/\(sheet)", ["name": "Data"]),
            ("list grants", "GET", "/api/sheets/\(sheet)/grants", nil),
            ("grant", "POST", "/api/sheets/\(sheet)/grants", ["subject": "someone", "role": "viewer"]),
            ("revoke grant", "DELETE", "/api/sheets/\(sheet)/grants/someone", nil),
        ]
        let expected: [String: [Int]] = [
            "owner": [200, 200, 200, 200, 200, 201, 200, 200, 201, 204],
            "editor": [200, 200, 200, 200, 200, 201, 200, 403, 403, 403],
            "commenter": [200, 200, 200, 200, 200, 201, 403, 403, 403, 403],
            "viewer": [200, 200, 200, 200, 200, 403, 403, 403, 403, 403],
            "outsider": [200, 404, 404, 404, 404, 404, 404, 404, 404, 404],
        ]
        var matrix = "route".padding(toLength: 14, withPad: " ", startingAt: 0) + subjects.map { $0.padding(toLength: 10, withPad: " ", startingAt: 0) }.joined()
        var answers: [String: [Int]] = [:]
        for route in routes {
            var line = route.name.padding(toLength: 14, withPad: " ", startingAt: 0)
            for subject in ["owner", "editor", "commenter", "viewer", "outsider"] {
                let response = try api[subject]!.call(route.method, route.path, json: route.json)
                #expect(response.header("Cache-Control") == "no-store")
                answers[subject, default: []].append(response.status)
                if route.name == "grant" && subject == "owner" { // so that the owner's revoke finds it
                    continue
                }
            }
            for subject in subjects { line += String(answers[subject]!.last!).padding(toLength: 10, withPad: " ", startingAt: 0) }
            matrix += "\n" + line
        }
        print("role matrix (HTTP status per route and subject):\n" + matrix)
        for (subject, statuses) in expected { #expect(answers[subject] == statuses, "\(subject)") }

        // The list shows each reader its role; the outsider sees nothing.
        for subject in ["owner", "editor", "commenter", "viewer"] {
            let sheets = try api[subject]!.object("/api/sheets")["sheets"] as? [[String: Any]] ?? []
            #expect(sheets.map { $0["role"] as? String } == [subject], "\(subject): \(sheets)")
        }
        #expect((try api["outsider"]!.object("/api/sheets")["sheets"] as? [Any])?.isEmpty == true)
        // An outsider's 404 is the one of a sheet that does not exist.
        let unknown = try api["outsider"]!.call("GET", "/api/sheets/0123456789abcdef0123456789abcdef")
        let hidden = try api["outsider"]!.call("GET", "/api/sheets/\(sheet)")
        #expect(unknown.status == 404 && hidden.status == 404 && unknown.body == hidden.body)
        // Revoking the viewer's grant takes effect at once.
        #expect(try owner.call("DELETE", "/api/sheets/\(sheet)/grants/viewer").status == 204)
        #expect(try api["viewer"]!.call("GET", "/api/sheets/\(sheet)").status == 404)
        // Comments: the imported one plus the three added by owner, editor and commenter.
        let comments = try owner.object("/api/sheets/\(sheet)/comments")["comments"] as? [[String: Any]] ?? []
        #expect(comments.map { $0["author"] as? String } == ["Ann", "owner", "editor", "commenter"])
        // Each rename, comment and grant change moved the version on (the import's 1, three
        // grants, three comments, two renames, a grant and two revocations), and the export waits for it.
        let version = try owner.object("/api/sheets/\(sheet)")["version"] as? Int ?? 0
        #expect(version == 12)
        let export = try owner.call("GET", "/api/sheets/\(sheet)/export.xlsx?minVersion=\(version)")
        #expect(export.status == 200 && export.header("X-Sheet-Version") == String(version))
        let future = try owner.call("GET", "/api/sheets/\(sheet)/export.xlsx?minVersion=\(version + 1)")
        #expect(future.status == 409 && future.text.contains("version-not-reached") && future.header("Cache-Control") == "no-store")
    }

    /// A job polled by another subject answers 404 byte for byte as an unknown id; a revoked
    /// token gets 401 on its next request; no token or a wrong one gets 401 too.
    @Test func jobsBelongToTheirSubjectAndRevocationIsImmediate() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let (folder, server) = (fixture.folder, fixture.server)
        let annToken = try server.token("ann")
        let ann = server.api(annToken), bob = server.api(try server.token("bob"))
        let upload = try ann.upload(try makeStyledWorkbook(in: folder), key: "k-1")
        #expect(upload.status == 202 && upload.header("Location")?.hasPrefix("/api/imports/") == true)
        let id = try #require(API.job(upload.body)?["id"] as? String)
        let theirs = try bob.call("GET", "/api/imports/\(id)")
        let unknown = try bob.call("GET", "/api/imports/ffffffffffffffffffffffffffffffff")
        #expect(theirs.status == 404 && theirs.body == unknown.body && theirs.head.headers.count == unknown.head.headers.count)
        #expect(try bob.call("DELETE", "/api/imports/\(id)").status == 404)
        #expect((try bob.object("/api/imports")["jobs"] as? [Any])?.isEmpty == true)
        #expect(try ann.wait(for: id)["status"] as? String == "succeeded")
        // The same Idempotency-Key from the same subject is the same job; another subject's is its own.
        let again = try ann.upload(try makeStyledWorkbook(in: folder), key: "k-1")
        #expect(again.status == 202 && API.job(again.body)?["id"] as? String == id)
        let bobs = try bob.upload(try makeStyledWorkbook(in: folder), key: "k-1")
        #expect(bobs.status == 202 && API.job(bobs.body)?["id"] as? String != id)

        #expect(try ann.call("GET", "/api/sheets").status == 200)
        #expect(try server.revoke(token: annToken))
        let refused = try ann.call("GET", "/api/sheets")
        #expect(refused.status == 401 && refused.header("Cache-Control") == "no-store" && refused.text.contains("\"unauthorized\""))
        #expect(try server.api(nil).call("GET", "/api/sheets").status == 401)
        #expect(try server.api("not-a-token").call("GET", "/api/imports/\(id)").status == 401)
        // Revoking by subject ends every session of that subject.
        #expect(try server.revoke(subject: "bob") == 1)
        #expect(try bob.call("GET", "/api/sheets").status == 401)
    }
}
