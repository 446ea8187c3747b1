import Foundation
import Testing
import SheetPortCore
import SheetPortClient
import SheetPortTestSupport

/// `sheetport cells get` prints cell text anyone with an editor's token wrote: a formula can make
/// ESC, BEL, CSI (U+009B) or a bidirectional override, and none may reach the terminal raw
/// (issue 35, attack 10). Runs the real executable against a real server.
@Suite struct CellsGetEscapeTests {
    @Test func cellTextWithControlCharactersIsEscaped() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let created = try fixture.api.call("POST", "/api/sheets", json: ["name": "Hostile"])
        try #require(created.status == 201, "\(created.status) \(created.text)")
        let sheet = try #require((created.object["sheet"] as? [String: Any])?["id"] as? String ?? created.object["id"] as? String)
        let inputs = [
            ("A1", #"=CHAR(27)&"]0;PWNED"&CHAR(7)"#),       // sets the terminal's title
            ("A2", #"=UNICHAR(155)&"2J""#),                   // C1 CSI: clears the screen
            ("A3", #"=UNICHAR(8238)&"txt.exe""#),             // right-to-left override
            ("A4", #"=CHAR(27)&"[31m\u{1B}""#),               // an escape next to a forged one
            ("A5", #"C:\temp"#),                              // no control character: as it is
        ]
        let written = try fixture.api.call("POST", "/api/sheets/\(sheet)/cells",
                                           json: ["cells": inputs.map { ["ref": $0.0, "input": $0.1] }])
        try #require(written.status == 200, "\(written.text)")
        let tokenFile = fixture.folder.appendingPathComponent("ann.token").path
        try fixture.api.token!.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let client = ["--server", fixture.server.base, "--token-file", tokenFile]

        let csv = try runSheetport(["cells", "get", sheet, "A1:A5"] + client)
        try #require(csv.status == 0, "\(csv.stderr)")
        let text = String(decoding: csv.stdout, as: UTF8.self)
        #expect(!text.unicodeScalars.contains { $0.isUnsafeControl && $0 != "\n" && $0 != "\r" }, "\(text.debugDescription)")
        #expect(text.contains(#"\u{1B}]0;PWNED\u{7}"#), "\(text)")
        #expect(text.contains(#"\u{9B}2J"#) && text.contains(#"\u{202E}txt.exe"#), "\(text)")
        #expect(text.contains(#"\u{1B}[31m\\u{1B}"#), "a backslash beside an escape is doubled: \(text)")
        #expect(text.contains(#"C:\temp"#), "\(text)")

        // JSONL stays exact JSON: the controls are \u escapes that decode to the cell's text.
        let jsonl = try runSheetport(["cells", "get", sheet, "A1:A5", "--to", "jsonl"] + client)
        try #require(jsonl.status == 0, "\(jsonl.stderr)")
        let lines = String(decoding: jsonl.stdout, as: UTF8.self).split(separator: "\n")
        let raw = lines.joined()
        #expect(!raw.unicodeScalars.contains { $0.isUnsafeControl }, "\(lines)")
        let values = Dictionary(uniqueKeysWithValues: try lines.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return (object["ref"] as? String ?? "", object["value"] as? String ?? "")
        })
        #expect(values["A1"] == "\u{1B}]0;PWNED\u{7}")
        #expect(values["A2"] == "\u{9B}2J")
        #expect(values["A3"] == "\u{202E}txt.exe")
        #expect(values["A5"] == #"C:\temp"#)
    }
}
