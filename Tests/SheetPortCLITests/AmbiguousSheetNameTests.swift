import Foundation
import Testing
import SheetPortClient
import SheetPortTestSupport

/// Two sheets with one name (imports keep the worksheet's name, so both can be `Sheet1`): a
/// command that names a sheet by that name refuses, listing the ids, and writes nothing (issue 38:
/// `cells set Sheet1 Z99=hello` wrote to one of them with exit 0). Real executable, real server.
@Suite struct AmbiguousSheetNameTests {
    @Test func aSharedNameIsRefusedAndTheIdStillWorks() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        var ids: [String] = []
        for name in ["Sheet1", "sheet1", "Other"] {
            let created = try fixture.api.call("POST", "/api/sheets", json: ["name": name])
            try #require(created.status == 201, "\(created.text)")
            ids.append(try #require((created.object["sheet"] as? [String: Any])?["id"] as? String ?? created.object["id"] as? String))
        }
        let tokenFile = fixture.folder.appendingPathComponent("ann.token").path
        try fixture.api.token!.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let client = ["--server", fixture.server.base, "--token-file", tokenFile]

        // The exact name matches one sheet: it is taken.
        let exact = try runSheetport(["cells", "set", "Sheet1", "A1=1"] + client)
        #expect(exact.status == 0, "\(exact.stderr)")
        // Another case matches two: refused, both ids named, nothing written.
        for command in [["cells", "set", "SHEET1", "Z99=hello"], ["cells", "get", "SHEET1", "A1"], ["export", "SHEET1", "--out", fixture.folder.appendingPathComponent("out").path]] {
            let refused = try runSheetport(command + client)
            let stderr = refused.stderr
            #expect(refused.status == 2, "\(command): \(stderr)")
            #expect(stderr.contains("2 sheets are named \"SHEET1\"") && stderr.contains(ids[0]) && stderr.contains(ids[1]), "\(stderr)")
        }
        for id in ids {
            let rows = try fixture.api.call("GET", "/api/sheets/\(id)/rows?start=99&count=1")
            #expect(!rows.text.contains("hello"), "\(rows.text)")
        }
        // By its id, the sheet is found.
        let byID = try runSheetport(["cells", "set", ids[1], "B1=2"] + client)
        #expect(byID.status == 0, "\(byID.stderr)")
    }
}
