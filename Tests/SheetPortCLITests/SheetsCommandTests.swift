import SheetPortTestSupport
import Foundation
import Testing

/// `sheetport sheets`: every sheet in tab order, with kind, state and the used range from the cells.
@Suite struct SheetsCommandTests {
    /// Sheet names a workbook may hold that are hostile to terminals and file systems.
    static let hostileNames = ["../x", "CON", "tab\there", "\u{202E}evil", "x\u{85}y", "", "Data", "DATA", "a/b\\c:d*e?f\"g<h>i|j", ".hidden"]

    static func hostileWorkbook(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("hostile.xlsx").path
        var sheets = hostileNames.enumerated().map { offset, name in
            RawWorkbook.Sheet(name: name, sheetData: RawWorkbook.row(1, RawWorkbook.text("A1", "sheet \(offset + 1)")))
        }
        sheets[1].state = "hidden"
        sheets[2].state = "veryHidden"
        // Cells to C5, but a dimension that claims the whole grid.
        sheets[0].dimension = "A1:XFD1048576"
        sheets[0].sheetData += RawWorkbook.row(5, RawWorkbook.number("C5", "7"))
        sheets.insert(RawWorkbook.Sheet(name: "Chart", kind: "chartsheet"), at: 3)
        try RawWorkbook(sheets: sheets).write(to: path)
        return path
    }

    @Test func listsEverySheetInTabOrderAsJSON() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try Self.hostileWorkbook(in: folder)
        let result = try runSheetport(["sheets", book, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        #expect(object["file"] as? String == book)
        let sheets = try #require(object["sheets"] as? [[String: Any]])
        #expect(sheets.count == Self.hostileNames.count + 1)
        #expect(sheets.map { $0["index"] as? Int } == Array(1...sheets.count))
        var names = Self.hostileNames
        names.insert("Chart", at: 3)
        #expect(sheets.map { $0["name"] as? String } == names)
        #expect(sheets[0]["rows"] as? Int == 5 && sheets[0]["columns"] as? Int == 3) // from the cells, not <dimension>
        #expect(sheets[1]["state"] as? String == "hidden" && sheets[2]["state"] as? String == "veryHidden")
        #expect(sheets[3]["kind"] as? String == "chartsheet" && sheets[3]["rows"] == nil && sheets[3]["columns"] == nil)
        #expect(sheets[4]["kind"] as? String == "worksheet" && sheets[4]["state"] as? String == "visible")
        #expect(sheets[4]["rows"] as? Int == 1 && sheets[4]["columns"] as? Int == 1)
    }

    @Test func humanListingEscapesControlCharacters() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try Self.hostileWorkbook(in: folder)
        let result = try runSheetport(["sheets", book])
        #expect(result.status == 0, "\(result.stderr)")
        let text = String(decoding: result.stdout, as: UTF8.self)
        #expect(!text.unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\u{85}" || $0 == "\t" })
        #expect(text.contains("\"tab\\u{9}here\"") && text.contains("veryHidden") && text.contains("chartsheet"))
        #expect(text.contains("5 rows x 3 columns"))
        #expect(text.split(separator: "\n").count == Self.hostileNames.count + 2)
    }

    @Test func threeHundredSheets() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("many.xlsx").path
        try RawWorkbook(sheets: (1...300).map { RawWorkbook.Sheet(name: "S\($0)", sheetData: RawWorkbook.row($0, RawWorkbook.number("B\($0)", "1"))) })
            .write(to: book)
        let result = try runSheetport(["sheets", book, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let sheets = try #require((try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])?["sheets"] as? [[String: Any]])
        #expect(sheets.count == 300)
        #expect(sheets[299]["name"] as? String == "S300" && sheets[299]["rows"] as? Int == 300 && sheets[299]["columns"] as? Int == 2)
    }

    @Test func emptySheetAndStandardInput() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("empty.xlsx").path
        try RawWorkbook(sheets: [RawWorkbook.Sheet(name: "Nothing", dimension: "A1:Z100")]).write(to: book)
        let result = try runSheetport(["sheets", "-", "--json"], input: try Data(contentsOf: URL(fileURLWithPath: book)))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self)
            == "{\"file\":\"-\",\"sheets\":[{\"index\":1,\"name\":\"Nothing\",\"kind\":\"worksheet\",\"state\":\"visible\",\"rows\":0,\"columns\":0}]}\n")
    }

    @Test(arguments: [["sheets"], ["sheets", "a.xlsx", "b.xlsx"], ["sheets", "/nonexistent/x.xlsx"]])
    func usageErrorsExitTwoAndMissingFilesThree(_ arguments: [String]) throws {
        let result = try runSheetport(arguments)
        #expect(result.status == (arguments.count == 2 && arguments[1].hasPrefix("/nonexistent") ? 3 : 2)) // a missing file: 3
        #expect(result.stdout.isEmpty && !result.stderr.isEmpty)
    }

    @Test func notAWorkbookSaysWhatItIs() throws {
        let result = try runSheetport(["sheets", "-"], input: Data("a,b\n1,2\n".utf8))
        #expect(result.status == 3)
        #expect(result.stdout.isEmpty && result.stderr.contains("not-a-zip"), "\(result.stderr)")
    }

    @Test func checkReportsEachSheetsState() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try Self.hostileWorkbook(in: folder)
        let json = try runSheetport(["check", book, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let worksheets = try #require(object["worksheets"] as? [[String: Any]])
        #expect(worksheets.map { $0["state"] as? String }.prefix(3) == ["visible", "hidden", "veryHidden"])
        let human = String(decoding: try runSheetport(["check", book]).stdout, as: UTF8.self)
        #expect(human.contains("\"CON\" (hidden)") && human.contains("\"tab\\u{9}here\" (veryHidden)"), "\(human)")
        #expect(!human.unicodeScalars.contains { $0 == "\u{202E}" })
    }
}
