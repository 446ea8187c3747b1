import Testing
import SheetPortCore
import SheetPortReader
import SheetPortCalc
@testable import SheetPortConvert
import SheetPortTestSupport

/// `convert --recalc` reads other workbooks' values from the workbook's externalLink parts.
@Suite struct ExternalLinkRecalcTests {
    static let link = externalLinkXML(
        sheets: ["Sheet1", "Gone"],
        data: [0: "<row r=\"1\"><cell r=\"A1\"><v>2</v></cell><cell r=\"B1\" t=\"str\"><v>two</v></cell></row><row r=\"2\"><cell r=\"A2\"><v>5</v></cell></row>"],
        names: "<definedName name=\"Rate\" refersTo=\"=Sheet1!$A$2\"/><definedName name=\"Bare\"/><definedName name=\"Odd\" refersTo=\"=SUM(Sheet1!A1,Gone!A1)\"/>")

    /// Formula, the file's cached value, the value expected with the cache withheld.
    static let cells: [(String, String, CalcValue)] = [
        ("[1]Sheet1!A1+1", "3", .number(3)), ("SUM([1]Sheet1!$A$1:$A$2)", "7", .number(7)), ("'[1]Sheet1'!B1", "two", .text("two")),
        ("[1]Gone!A1", "#REF!", .error(.reference)), ("[1]!Rate*2", "10", .number(10)), ("[1]!Bare", "#NAME?", .error(.name)),
        ("[1]!Odd", "#NAME?", .error(.name)), ("[2]Sheet1!A1", "#REF!", .error(.reference)), ("[3]Sheet1!A1", "#REF!", .error(.reference)),
        ("[Book1.xlsx]Sheet1!A2", "5", .number(5)),
    ]

    static func workbook(links: [String?]) throws -> Workbook {
        let columns = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"]
        let xml = cells.enumerated().map { k, cell in
            let type = cell.1.hasPrefix("#") ? " t=\"e\"" : (Double(cell.1) == nil ? " t=\"str\"" : "")
            return "<c r=\"\(columns[k])1\"\(type)><f>\(cell.0)</f><v>\(cell.1)</v></c>"
        }.joined()
        return try Workbook(bytes: externalLinkWorkbook(cells: xml, links: links), name: "links.xlsx")
    }

    @Test(arguments: [false, true]) func linksResolveToTheirCachedValues(_ withhold: Bool) throws {
        let calculation = try WorkbookCalculation(try Self.workbook(links: [Self.link, nil]), withholdCachedValues: withhold)
        for (k, cell) in Self.cells.enumerated() {
            #expect(calculation.computed(sheet: 0, row: 1, column: k + 1) == cell.2, "\(cell.0)")
        }
        #expect(calculation.report.unsupportedFormulas.isEmpty)
    }

    /// A malformed link part: formulas into other workbooks keep their cached values, reported.
    @Test func malformedLinkKeepsCachedValues() throws {
        let calculation = try WorkbookCalculation(try Self.workbook(links: ["<externalLink><externalBook>"]))
        #expect(calculation.computed(sheet: 0, row: 1, column: 1) == .number(3))
        #expect(calculation.report.unsupportedFormulas.count == Self.cells.count)
        #expect(calculation.report.unsupportedFormulas.allSatisfy { $0.reason.isExternalReference })
    }
}
