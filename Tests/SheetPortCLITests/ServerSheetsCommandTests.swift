import Foundation
import Testing
import SheetPortClient
import SheetPortTestSupport

/// `sheetport sheets --server URL` (issue 38): list, create, rename and delete a server's sheets
/// through the real executable against a real server; hostile names never reach the terminal raw.
@Suite struct ServerSheetsCommandTests {
    @Test func listsCreatesRenamesAndDeletes() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let tokenFile = fixture.folder.appendingPathComponent("ann.token").path
        try fixture.api.token!.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let client = ["--server", fixture.server.base, "--token-file", tokenFile]

        let created = try runSheetport(["sheets", "--create", "Budget", "--json"] + client)
        #expect(created.status == 0, "\(created.stderr)")
        let sheet = try #require((try JSONSerialization.jsonObject(with: created.stdout) as? [String: Any])?["sheet"] as? [String: Any])
        let id = try #require(sheet["id"] as? String)
        #expect(sheet["name"] as? String == "Budget" && sheet["role"] as? String == "owner" && sheet["version"] as? Int == 1)

        let write = try fixture.api.call("POST", "/api/sheets/\(id)/cells", json: ["cells": [["ref": "C4", "input": "1"]]])
        #expect(write.status == 200, "\(write.text)")
        let listed = try runSheetport(["sheets", "--json"] + client)
        #expect(listed.status == 0, "\(listed.stderr)")
        let sheets = try #require((try JSONSerialization.jsonObject(with: listed.stdout) as? [String: Any])?["sheets"] as? [[String: Any]])
        let entry = try #require(sheets.first { $0["id"] as? String == id })
        #expect(entry["rows"] as? Int == 4 && entry["columns"] as? Int == 3 && entry["version"] as? Int == 2, "\(entry)")

        let text = try runSheetport(["sheets"] + client)
        let out = String(decoding: text.stdout, as: UTF8.self)
        #expect(text.status == 0)
        #expect(out.contains("\(id)  \"Budget\"  owner  4 rows x 3 columns  v2"), "\(out)")

        // A name with escape sequences is refused by the server (exit 2); what is printed about
        // it never carries them raw. A plain rename goes through.
        let hostile = try runSheetport(["sheets", "--rename", id, "Q1\u{1B}[2J\u{9B}31m"] + client)
        #expect(hostile.status == 2, "\(hostile.stderr)")
        #expect(!hostile.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" }, "\(hostile.stderr)")
        let renamed = try runSheetport(["sheets", "--rename", id, "Q1 plan"] + client)
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(String(decoding: renamed.stdout, as: UTF8.self).hasPrefix("renamed \(id)  \"Q1 plan\"  owner"))
        #expect(try fixture.api.object("/api/sheets/\(id)")["name"] as? String == "Q1 plan")

        // A name the writer refuses: exit 2, the server's reason; nothing renamed.
        let refused = try runSheetport(["sheets", "--rename", id, "bad/name?"] + client)
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("invalid-sheet-name") || refused.stderr.contains("name"), "\(refused.stderr)")

        // Someone else may not delete it; its owner may.
        let other = fixture.folder.appendingPathComponent("bob.token").path
        try fixture.server.token("bob").write(toFile: other, atomically: true, encoding: .utf8)
        let notTheirs = try runSheetport(["sheets", "--delete", id, "--server", fixture.server.base, "--token-file", other])
        #expect(notTheirs.status == 2, "\(notTheirs.stderr)")
        let deleted = try runSheetport(["sheets", "--delete", id] + client)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(String(decoding: deleted.stdout, as: UTF8.self) == "deleted \(id)\n")
        let after = try runSheetport(["sheets", "--json"] + client)
        #expect(!String(decoding: after.stdout, as: UTF8.self).contains(id))
    }

    @Test(arguments: [
        ["sheets", "--create", "X"],
        ["sheets", "--server", "http://127.0.0.1:1", "--create", "A", "--delete", "B"],
        ["sheets", "--server", "http://127.0.0.1:1", "--rename", "s1"],
        ["sheets", "--server", "http://127.0.0.1:1", "book.xlsx"],
    ])
    func usageErrors(_ arguments: [String]) throws {
        let result = try runSheetport(arguments, environment: ["SHEETPORT_TOKEN": "t"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("USAGE"), "\(result.stderr)")
    }
}
