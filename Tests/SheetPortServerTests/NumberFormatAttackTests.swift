import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport

/// Issue 35, attacks 1 and 5, through a real server on loopback: number formats that used to
/// abort the process or spin a thread (set through the API, reached by TEXT, or imported) leave
/// it answering rows windows with what Excel shows; a format Excel would not take is 400
/// `bad-number-format` and never stored; 255 `@` on a 32 KB text shows 32,767 characters.
@Suite struct NumberFormatAttackTests {
    static let twelve = "?/" + String(repeating: "?", count: 12), twenty = "?/" + String(repeating: "?", count: 20)

    @Test func formatAttacksThroughTheAPILeaveTheServerUp() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = try EditingClient.create(fixture.api, name: "Formats")
        let client = EditingClient(fixture.api, sheet)
        _ = try client.write(["A1": "1e19", "A2": "-1e19", "A3": "1e300", "A4": "1e308", "A5": "3.14159", "A6": "0.75"])
        let expected: [(String, [String: String])] = [
            ("?/?", ["A1": "10000000000000000000/1", "A2": "-10000000000000000000/1", "A6": "3/4"]),
            (Self.twelve, ["A6": "3/4"]),
            (Self.twenty, ["A1": "10000000000000000000/1", "A6": "3/4"]),
            ("?/8", ["A3": "8" + String(repeating: "0", count: 300) + "/8", "A6": "6/8"]),
            ("0.0E+0%", ["A4": "1.0E+310%", "A1": "1.0E+21%"]),
            (".000", ["A2": "-10000000000000000000.000", "A5": "3.142"]),
            ("0%", ["A4": "1" + String(repeating: "0", count: 310) + "%"]),
        ]
        for (code, displays) in expected {
            let started = Date()
            let answer = try client.post("format", ["range": "A1:A6", "set": ["numberFormat": code]])
            #expect(answer.status == 200, "\(code): \(answer.text.prefix(300))")
            let cells = try client.cells()
            for (ref, shown) in displays {
                #expect(cells[ref]?["display"] as? String == shown, "\(ref) in \(code): \(cells[ref]?["display"] ?? "none")")
                #expect((cells[ref]?["style"] as? [String: Any])?["numFmt"] as? String == code)
            }
            #expect(Date().timeIntervalSince(started) < 10, "\(code) took \(Date().timeIntervalSince(started)) s")
        }

        // TEXT reaches the renderer too.
        let text = try client.write(["B1": "=TEXT(1E19,\"?/?\")", "B2": "=TEXT(-1E19,\".000\")", "B3": "=TEXT(1E308,\"0%\")",
                                     "B4": "=TEXT(TRUE,\"#.###\")", "B5": "=TEXT(A5,\"\(Self.twelve)\")", "B6": "=TEXT(-1,\"yyyy\")"])
        let changed = EditingClient.changed(text)
        #expect(changed["B1"]?["value"] as? String == "10000000000000000000/1")
        #expect(changed["B2"]?["value"] as? String == "-10000000000000000000.000")
        #expect(changed["B3"]?["value"] as? String == "1" + String(repeating: "0", count: 310) + "%")
        #expect(changed["B4"]?["value"] as? String == "TRUE")
        #expect((changed["B5"]?["value"] as? String)?.contains("/") == true, "\(changed["B5"] ?? [:])")
        #expect(changed["B6"]?["value"] as? String == "#VALUE!")
        #expect(try client.cells()["B1"]?["display"] as? String == "10000000000000000000/1")
    }

    @Test func aFormatExcelWouldNotTakeIsRefusedAndNotStored() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = try EditingClient.create(fixture.api, name: "Refused")
        let client = EditingClient(fixture.api, sheet)
        _ = try client.write(["A1": "12.5"])
        _ = try client.post("format", ["range": "A1", "set": ["numberFormat": "0.00"]])
        let version = try client.version()
        for code in ["0 kg", "[Purple]0", "\"open", "0;0;0;@;0", String(repeating: "0", count: 256), "", "[>abc]0"] {
            let answer = try client.post("format", ["range": "A1:B2", "set": ["numberFormat": code, "bold": true]])
            #expect(answer.status == 400 && EditingClient.code(answer) == "bad-number-format", "\(code.prefix(40)): \(answer.status) \(answer.text)")
        }
        #expect(try client.version() == version, "nothing stored")
        let a1 = try #require(try client.cells()["A1"])
        #expect((a1["style"] as? [String: Any])?["numFmt"] as? String == "0.00" && (a1["style"] as? [String: Any])?["bold"] == nil, "\(a1)")
        #expect(a1["display"] as? String == "12.50")
        // Other members keep their own code.
        #expect(EditingClient.code(try client.post("format", ["range": "A1", "set": ["numberFormat": 12]])) == "bad-format")
        // Typed input still derives its formats (each valid).
        let typed = EditingClient.changed(try client.write(["C1": "12%", "C2": "$1,234.50", "C3": "3/1/2026", "C4": "2:30 PM"]))
        #expect(typed["C1"]?["display"] as? String == "12%" && typed["C2"]?["display"] as? String == "$1,234.50", "\(typed)")
        #expect(typed["C3"]?["display"] as? String == "3/1/2026", "\(typed["C3"] ?? [:])")
    }

    /// Attack 5: 255 `@` on a 32,000-character text would be an 8.16 M character display.
    @Test func displayIsCappedAtExcelsLimit() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = try EditingClient.create(fixture.api, name: "Amplified")
        let client = EditingClient(fixture.api, sheet)
        let text = String(repeating: "x", count: 32_000)
        _ = try client.write(["A1": text, "A2": "short"])
        let answer = try client.post("format", ["range": "A1:A2", "set": ["numberFormat": String(repeating: "@", count: 255)]])
        #expect(answer.status == 200 && answer.body.count < 200_000, "\(answer.status), \(answer.body.count) bytes")
        for cell in EditingClient.changed(try EditingClient.object(answer)).values {
            #expect((cell["display"] as? String)?.utf16.count ?? 0 <= 32_767)
        }
        let started = Date()
        let cells = try client.cells()
        #expect(Date().timeIntervalSince(started) < 10)
        #expect((cells["A1"]?["display"] as? String)?.utf16.count == 32_767)
        #expect((cells["A1"]?["display"] as? String)?.allSatisfy { $0 == "x" } == true)
        #expect(cells["A2"]?["display"] as? String == String(repeating: "short", count: 255))
        #expect(cells["A1"]?["value"] as? String == text, "the value itself is kept whole")
    }

    /// An imported workbook with the attack formats renders them; a code Excel would not take
    /// is a `bad-number-format` warning, its cell keeps its value in General.
    @Test func importedAttackFormatsRenderAndBadOnesBecomeGeneral() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let book = fixture.folder.appendingPathComponent("formats.xlsx").path
        try writeWithOpenpyxl("""
            for ref, value, code in [('A1', 1e19, '?/?'), ('A2', 1e300, '?/8'), ('A3', 1e308, '0.0E+0%'), ('A4', 0.75, '\(Self.twenty)'),
                                     ('A5', -1e19, '.000'), ('A6', 5, '0 kg'), ('A7', 6, '[Purple]0.0')]:
                ws[ref] = value
                ws[ref].number_format = code
            ws['B1'] = '=TEXT(1E19,"?/?")'
            """, to: book)
        let job = try fixture.api.importWorkbook(book)
        try #require(job["status"] as? String == "succeeded", "\(job)")
        let result = try #require(job["result"] as? [String: Any])
        let sheet = try #require((result["sheet"] as? [String: Any])?["id"] as? String)
        let warnings = result["warnings"] as? [[String: Any]] ?? []
        let finding = try #require(warnings.first { $0["code"] as? String == "bad-number-format" }, "\(warnings)")
        #expect(finding["severity"] as? String == "warning" && finding["count"] as? Int == 2, "\(finding)")
        #expect((finding["message"] as? String)?.contains("A6") == true, "\(finding)")

        let cells = try EditingClient(fixture.api, sheet).cells()
        #expect(cells["A1"]?["display"] as? String == "10000000000000000000/1")
        #expect(cells["A2"]?["display"] as? String == "8" + String(repeating: "0", count: 300) + "/8")
        #expect(cells["A3"]?["display"] as? String == "1.0E+310%")
        #expect(cells["A4"]?["display"] as? String == "3/4")
        #expect(cells["A5"]?["display"] as? String == "-10000000000000000000.000")
        for (ref, shown) in [("A6", "5"), ("A7", "6")] {
            #expect(cells[ref]?["display"] as? String == shown && (cells[ref]?["style"] as? [String: Any])?["numFmt"] == nil, "\(cells[ref] ?? [:])")
        }
        #expect(cells["B1"]?["value"] as? String == "10000000000000000000/1")
    }
}
