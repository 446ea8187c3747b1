import Foundation
import Testing
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortConvert

/// Editing over HTTP (Docs/Reference/HTTP.md, "Writing") through a real `sheetport serve` on loopback (SQLite,
/// or PostgreSQL with SHEETPORT_TEST_STORE=postgres): typed inputs, recalculation, caps, roles,
/// hostile values, clear and copy, concurrent writers, history, and the export after a write.
@Suite struct ServerEditingTests {
    /// Inputs read as Excel (en-US) reads typed text, with the number formats typing implies
    /// and the `display` they give; dependents recalculated in the same answer; `""` clears.
    @Test func typedInputsAreReadAsExcelReadsThem() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        let answer = try sheet.write([
            ("A1", "12"), ("A2", "-1.5e3"), ("A3", "1,234.5"), ("A4", "12%"), ("A5", "$1,234.50"), ("A6", "2026-03-01"),
            ("A7", "3/1/2026"), ("A8", "14:30"), ("A9", "TRUE"), ("A10", "'0123"), ("A11", "=SUM(A1:A5)"), ("A12", "1,23"),
            ("A13", "#N/A"), ("A14", "false"), ("A15", "line\nbreak"),
        ])
        #expect(answer["version"] as? Int == 2 && answer["more"] as? Bool == false)
        let c = EditingClient.changed(answer)
        func check(_ ref: String, _ type: String, _ display: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(c[ref]?["type"] as? String == type, "\(ref): \(c[ref] ?? [:])", sourceLocation: sourceLocation)
            #expect(c[ref]?["display"] as? String == display, "\(ref): \(c[ref] ?? [:])", sourceLocation: sourceLocation)
        }
        check("A1", "number", "12"); #expect(c["A1"]?["value"] as? Double == 12)
        check("A2", "number", "-1.50E+03"); #expect(c["A2"]?["value"] as? Double == -1500)
        check("A3", "number", "1,234.50"); #expect(c["A3"]?["value"] as? Double == 1234.5)
        check("A4", "number", "12%"); #expect(c["A4"]?["value"] as? Double == 0.12)
        check("A5", "number", "$1,234.50"); #expect(c["A5"]?["value"] as? Double == 1234.5)
        check("A6", "date", "3/1/2026"); #expect(c["A6"]?["value"] as? String == "2026-03-01T00:00:00.000")
        check("A7", "date", "3/1/2026"); #expect(c["A7"]?["value"] as? String == "2026-03-01T00:00:00.000")
        check("A8", "date", "14:30"); #expect((c["A8"]?["value"] as? String)?.hasSuffix("14:30:00.000") == true)
        check("A9", "boolean", "TRUE")
        check("A10", "string", "0123"); #expect(c["A10"]?["value"] as? String == "0123" && c["A10"]?["input"] as? String == "'0123")
        let sum = 12 - 1500 + 1234.5 + 0.12 + 1234.5
        check("A11", "number", "981.12"); #expect(c["A11"]?["value"] as? Double == sum && c["A11"]?["input"] as? String == "=SUM(A1:A5)")
        check("A12", "string", "1,23")
        check("A13", "error", "#N/A")
        check("A14", "boolean", "FALSE")
        check("A15", "string", "line\nbreak")

        // A dependent moves with its input; clearing an input recomputes it too.
        let cleared = EditingClient.changed(try sheet.write(["A1": ""]))
        #expect(cleared["A1"]?["type"] as? String == "empty" && cleared["A1"]?["input"] as? String == "")
        #expect(cleared["A11"]?["value"] as? Double == sum - 12)
        #expect(try sheet.cells()["A1"] == nil)
    }

    /// Each write route with its role matrix: owners and editors write; viewers and commenters
    /// get 403 and nothing changes; a subject without access gets 404, no token 401. Every
    /// reader sees a cell's history.
    @Test func writesNeedTheEditorRole() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let id = try EditingClient.create(fixture.api)
        var apis: [String: API] = ["owner": fixture.api, "none": fixture.server.api(nil)]
        for role in ["viewer", "commenter", "editor"] {
            let subject = "user-\(role)"
            #expect(try fixture.api.call("POST", "/api/sheets/\(id)/grants", json: ["subject": subject, "role": role]).status < 300)
            apis[role] = fixture.server.api(try fixture.server.token(subject))
        }
        apis["stranger"] = fixture.server.api(try fixture.server.token("stranger"))
        _ = try EditingClient(fixture.api, id).write(["A1": "1", "B1": "=A1*2"])
        let writes: [(String, [String: Any])] = [
            ("cells", ["cells": [["ref": "A1", "input": "5"]]]), ("clear", ["range": "A1", "what": "contents"]),
            ("copy", ["source": "A1", "target": "C1"]), ("cells/A1/restore", ["version": 2]), ("undo", [:]),
        ]
        let expected: [String: Int] = ["owner": 200, "editor": 200, "viewer": 403, "commenter": 403, "stranger": 404, "none": 401]
        for (role, api) in apis.sorted(by: { $0.key < $1.key }) {
            for (route, body) in writes {
                let before = try EditingClient(fixture.api, id).version()
                let status = try api.call("POST", "/api/sheets/\(id)/\(route)", json: body).status
                let allowed = expected[role]!
                // The owner's or editor's undo may find nothing of theirs to undo (409), never a refusal of the role.
                if route == "undo", allowed == 200 { #expect([200, 409].contains(status), "\(role) \(route): \(status)") } else {
                    #expect(status == allowed, "\(role) \(route): \(status)")
                }
                if allowed != 200 { #expect(try EditingClient(fixture.api, id).version() == before, "\(role) \(route) changed the sheet") }
            }
            let history = try api.call("GET", "/api/sheets/\(id)/cells/A1/history").status
            #expect(history == (["stranger": 404, "none": 401][role] ?? 200), "\(role) history: \(history)")
        }
        // Creating a sheet needs only a session: it is the caller's.
        let created = try apis["viewer"]!.call("POST", "/api/sheets", json: ["name": "Mine"])
        let createdSheet = try EditingClient.object(created)
        #expect(created.status == 201 && createdSheet["role"] as? String == "owner")
        #expect(try apis["none"]!.call("POST", "/api/sheets", json: ["name": "x"]).status == 401)
    }

    /// Hostile values: refs past the grid or no refs at all (`bad-ref`), formulas that do not
    /// parse or are longer than Excel's 8,192 characters (`bad-formula`, naming ref and position),
    /// NUL and control characters, wrong JSON types and malformed JSON, bad sheet names: each
    /// 400, and nothing of the batch is stored (a good input beside a bad one included).
    @Test func hostileInputsAreRefusedWhole() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        _ = try sheet.write(["A1": "1"])
        func refused(_ cells: [[String: Any]], _ code: String, _ fragment: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let response = try sheet.post("cells", ["cells": [["ref": "B1", "input": "7"]] + cells])
            #expect(response.status == 400 && EditingClient.code(response) == code, "\(cells): \(response.status) \(response.text)", sourceLocation: sourceLocation)
            if let fragment { #expect(response.text.contains(fragment), "\(response.text)", sourceLocation: sourceLocation) }
        }
        for ref in ["XFE1", "A1048577", "A0", "", "B2:C3", "$A$1", "1A", "AAAA1", "A1\u{0}", "A 1", String(repeating: "A", count: 10_000) + "1"] {
            try refused([["ref": ref, "input": "1"]], "bad-ref")
        }
        try refused([["ref": "C3", "input": "=SUM((A1"]], "bad-formula", "C3")
        try refused([["ref": "C3", "input": "=1+"]], "bad-formula", "position")
        try refused([["ref": "C3", "input": "=[1]Sheet1!A1"]], "bad-formula", "C3")
        // 8,192 characters with the `=` are accepted, 8,193 are not.
        let longest = "=" + String(repeating: "1+", count: 4_095) + "1"
        #expect(longest.count == 8_192)
        try refused([["ref": "C3", "input": longest + "1"]], "bad-formula", "8192")
        let accepted = try sheet.write(["C3": longest])
        #expect(EditingClient.changed(accepted)["C3"]?["value"] as? Double == 4_096)
        for control in ["\u{0}", "\u{1B}[2J", "\u{7F}", "a\u{8}b"] {
            try refused([["ref": "C4", "input": "x" + control]], "bad-request", "C4")
        }
        try refused([["ref": "C4", "input": 12]], "bad-request")
        try refused([["ref": 12, "input": "1"]], "bad-request")
        for body in ["{", "[]", "null", "{\"cells\": 5}", "{\"cells\": [1]}", "\u{FF}\u{FE}"] {
            let response = try fixture.api.call("POST", "/api/sheets/\(sheet.sheet)/cells", body: .bytes(Array(body.utf8)))
            #expect(response.status == 400, "\(body): \(response.status)")
        }
        #expect(try sheet.version() == 3) // the create, the first write, the longest formula
        #expect(try sheet.cells()["B1"] == nil)
        // Sheet names: empty, control characters, what the writer refuses.
        for name in ["", "a\u{0}b", "a/b", String(repeating: "n", count: 40)] {
            #expect(try fixture.api.call("POST", "/api/sheets", json: ["name": name]).status == 400, "\(name)")
        }
        #expect(try fixture.api.call("POST", "/api/sheets", body: .bytes(Array("{".utf8))).status == 400)
        // Unknown methods on the new routes.
        #expect(try fixture.api.call("DELETE", "/api/sheets/\(sheet.sheet)/cells").status == 405)
    }

    /// A batch over `maxBatchCells` or `maxBatchBytes` is refused whole with 413
    /// `batch-too-large` naming the cap; `GET /api/limits` tells both; clear and copy over
    /// ranges of a million cells answer in bounded time (clear of a mostly empty range works,
    /// copy over the cap is refused).
    @Test func batchesOverTheCapsAreRefusedWhole() throws {
        let fixture = try ServerFixture { ($0.maxBatchCells, $0.maxBatchBytes) = (500, 100 << 10) }
        defer { fixture.close() }
        let limits = try fixture.api.object("/api/limits")
        #expect(limits["maxBatchCells"] as? Int == 500 && limits["maxBatchBytes"] as? Int == 100 << 10)
        let sheet = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        let inputs = (1...501).map { ["ref": "A\($0)", "input": String($0)] }
        let tooMany = try sheet.post("cells", ["cells": inputs])
        #expect(tooMany.status == 413 && EditingClient.code(tooMany) == "batch-too-large" && tooMany.text.contains("500"), "\(tooMany.text)")
        let big = try sheet.post("cells", ["cells": [["ref": "A1", "input": String(repeating: "x", count: 30_000)],
                                                      ["ref": "A2", "input": String(repeating: "y", count: 30_000)],
                                                      ["ref": "A3", "input": String(repeating: "z", count: 30_000)],
                                                      ["ref": "A4", "input": String(repeating: "w", count: 30_000)]]])
        #expect(big.status == 413 && EditingClient.code(big) == "batch-too-large" && big.text.contains("\(100 << 10)"), "\(big.text)")
        #expect(try sheet.version() == 1)
        #expect(try sheet.cells().isEmpty)
        _ = try sheet.write((1...500).map { ("A\($0)", String($0)) })

        let started = Date()
        // A million-cell range holding 500 cells clears; a copy of a million cells is refused.
        let clear = try sheet.post("clear", ["range": "A1:J100000", "what": "all"])
        #expect(clear.status == 200, "\(clear.text)")
        #expect((try EditingClient.object(clear))["more"] as? Bool == false)
        _ = try sheet.write((1...500).map { ("A\($0)", String($0)) })
        for body in [["source": "A1:A1000000", "target": "B1"], ["source": "A1", "target": "B1:B1000000"], ["source": "A:A", "target": "B1"],
                     ["source": "A1:XFD1048576", "target": "A1"]] {
            let response = try sheet.post("copy", body)
            #expect(response.status == 413 && EditingClient.code(response) == "batch-too-large", "\(body): \(response.text)")
        }
        // A clear of more stored cells than the cap is refused whole too.
        let whole = try sheet.post("clear", ["range": "A:B", "what": "contents"])
        #expect(whole.status == 200) // 500 cells: at the cap
        _ = try sheet.write((1...300).map { ("A\($0)", String($0)) })
        _ = try sheet.write((1...300).map { ("B\($0)", String($0)) })
        let over = try sheet.post("clear", ["range": "1:1048576", "what": "all"])
        #expect(over.status == 413 && EditingClient.code(over) == "batch-too-large", "\(over.text)")
        #expect(try sheet.cells().count == 600)
        #expect(Date().timeIntervalSince(started) < 30)
        for bad in [["range": "A1:XFE2", "what": "all"], ["range": "A1", "what": "everything"], ["range": "1:1048577", "what": "all"]] {
            #expect(try sheet.post("clear", bad).status == 400, "\(bad)")
        }
        #expect(try sheet.post("copy", ["source": "A1:B2", "target": "XFD1048576"]).status == 400)
    }

    /// `changed` stops at 1,000 with `more`, and the event names no refs then (`null`); a write
    /// of fewer names every changed cell in its event.
    @Test func changedIsCappedAtOneThousand() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        let first = try sheet.write([("A1", "1")] + (2...1_101).map { ("A\($0)", "=$A$1*\($0)") })
        #expect((first["changed"] as? [Any])?.count == 1_000 && first["more"] as? Bool == true)
        let second = try sheet.write(["A1": "2"])
        #expect((second["changed"] as? [Any])?.count == 1_000 && second["more"] as? Bool == true)
        #expect(try sheet.cells()["A1101"]?["value"] as? Double == 2 * 1_101)
        let small = try sheet.write(["B1": "=A2+1"])
        #expect(EditingClient.changed(small).keys.sorted() == ["B1"])
        let database = try fixture.server.store()
        let events = try database.sheetEvents(of: sheet.sheet, after: 0, limit: 10)
        #expect(events.map(\.version) == [1, 2, 3, 4])
        #expect(events.map(\.change) == [.create, .cells, .cells, .cells])
        #expect(events[1].refs == nil && events[2].refs == nil && events[3].refs == [CellReference("B1")!])
    }
}
