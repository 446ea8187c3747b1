import Foundation
import Testing
@testable import SheetPortCore
import SheetPortTestSupport

/// The same value in every text output (Docs/Reference/Formats.md): an elapsed time is
/// `36:00:00` in CSV and ndjson alike, an error is `{"error":"#N/A"}` in ndjson and json and an
/// error cell after CSV -> xlsx, a date before 1900 and the 1904 system's day 0 print as dates.
@Suite struct SameValueEverywhereTests {
    /// `convert` of a one-sheet workbook with `sheetData` to `format`: status, standard output, error.
    private func convert(_ sheetData: String, formats: [(Int, String)], date1904: Bool = false,
                         to format: String) throws -> (status: Int32, text: String, stderr: String) {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("v.xlsx").path
        var workbook = RawWorkbook(sheets: [RawWorkbook.Sheet(name: "V", sheetData: sheetData)], numberFormats: formats)
        if date1904 { workbook.workbookBeforeSheets = "<workbookPr date1904=\"1\"/>" }
        try workbook.write(to: path)
        let result = try runSheetport(["convert", path, "--to", format, "--no-progress", "--no-recalc"])
        return (result.status, String(decoding: result.stdout, as: UTF8.self), result.stderr)
    }

    @Test func durationsAndErrorsAgreeAcrossFormats() throws {
        let data = RawWorkbook.row(1, RawWorkbook.text("A1", "d"), RawWorkbook.text("B1", "e"), RawWorkbook.text("C1", "t"))
            + RawWorkbook.row(2, RawWorkbook.number("A2", "1.5", style: 1), "<c r=\"B2\" t=\"e\"><v>#N/A</v></c>",
                              RawWorkbook.text("C2", "#N/A"))
            + RawWorkbook.row(3, RawWorkbook.number("A3", "-0.0625", style: 1), "<c r=\"B3\" t=\"e\"><v>#DIV/0!</v></c>")
        let formats = [(164, "[h]:mm:ss")]
        let csv = try convert(data, formats: formats, to: "csv")
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(csv.text == "d,e,t\r\n36:00:00,#N/A,#N/A\r\n-1:30:00,#DIV/0!,\r\n")
        let ndjson = try convert(data, formats: formats, to: "ndjson")
        #expect(ndjson.text == "{\"d\":\"36:00:00\",\"e\":{\"error\":\"#N/A\"},\"t\":\"#N/A\"}\n"
                + "{\"d\":\"-1:30:00\",\"e\":{\"error\":\"#DIV/0!\"},\"t\":null}\n", "\(ndjson.text)")
        let json = try convert(data, formats: formats, to: "json")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [[String: Any]])
        #expect(records.first?["d"] as? String == "36:00:00")
        #expect((records.first?["e"] as? [String: String]) == ["error": "#N/A"])
        #expect(records.first?["t"] as? String == "#N/A") // a string stays a string
    }

    @Test func datesBefore1900AndThe1904DayZero() throws {
        let formats = [(164, "yyyy-mm-dd"), (165, "h:mm"), (166, "yyyy-mm-dd hh:mm")]
        let early = RawWorkbook.row(1, RawWorkbook.number("A1", "-18260", style: 1), RawWorkbook.number("B1", "-1.25", style: 3),
                                    RawWorkbook.number("C1", "-1e300", style: 1), RawWorkbook.number("D1", "-18260", style: 0))
        let csv = try convert(early, formats: formats, to: "csv")
        #expect(csv.status == 0, "\(csv.stderr)")
        // openpyxl's and pandas' negative serials count back from 1899-12-30; a serial before
        // the year 1 and a number without a date format stay numbers.
        #expect(csv.text == "1850-01-01,1899-12-28 18:00:00,-1e+300,-18260\r\n", "\(csv.text)")
        let ndjson = try convert(RawWorkbook.row(1, RawWorkbook.text("A1", "a")) + RawWorkbook.row(2, RawWorkbook.number("A2", "-18260", style: 1)),
                                 formats: formats, to: "ndjson")
        #expect(ndjson.text == "{\"a\":\"1850-01-01T00:00:00.000\"}\n", "\(ndjson.text)")

        let mac = RawWorkbook.row(1, RawWorkbook.number("A1", "0", style: 1), RawWorkbook.number("B1", "0.5", style: 2),
                                  RawWorkbook.number("C1", "-365", style: 1), RawWorkbook.number("D1", "0", style: 3))
        let system1904 = try convert(mac, formats: formats, date1904: true, to: "csv")
        #expect(system1904.text == "1904-01-01,12:00:00,1903-01-01,00:00:00\r\n", "\(system1904.text)")
        // The 1900 system's day 0 is no date: a time of day alone, as before.
        let system1900 = try convert(mac, formats: formats, to: "csv")
        #expect(system1900.text.hasPrefix("00:00:00,12:00:00,1898-12-30,"), "\(system1900.text)")
    }

    @Test func errorFieldsOfCSVAreErrorCells() throws {
        let typed = try convertText(Array("a,b,c\n1,#N/A,x\n2,3,#div/0!\n#NAME?,4,#nope\n".utf8), name: "e.csv")
        #expect(typed.status == 0, "\(typed.stderr)")
        let rows = typed.rows.map { $0.cells.map(\.value) }
        #expect(rows[0] == [.string("a"), .string("b"), .string("c")])
        #expect(rows[1] == [.number(1), .error("#N/A"), .string("x")])
        #expect(rows[2] == [.number(2), .number(3), .error("#DIV/0!")])
        #expect(rows[3] == [.error("#NAME?"), .number(4), .string("#nope")])
        // A header that reads like an error stays the header; a text column keeps its text.
        let header = try convertText(Array("#N/A\n#N/A\n".utf8), name: "h.csv", ["--types", "A=text"])
        #expect(header.rows.map { $0.cells.map(\.value) } == [[.string("#N/A")], [.string("#N/A")]])
        let plain = try convertText(Array("a\n#N/A\n".utf8), name: "p.csv", ["--no-infer"])
        #expect(plain.rows[1].cells.map(\.value) == [.string("#N/A")])
        // Declared numbers take errors as errors, not misfits.
        let declared = try convertText(Array("a\n#N/A\n5\n".utf8), name: "n.csv", ["--types", "a=number"])
        #expect(declared.status == 0 && declared.rows[1].cells.map(\.value) == [.error("#N/A")], "\(declared.stderr)")
    }
}
