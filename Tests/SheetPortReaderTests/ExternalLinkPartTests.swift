import Testing
@testable import SheetPortCore
@testable import SheetPortReader
import SheetPortTestSupport

/// The externalLink part reader: cached values of other workbooks, by `externalReferences` order.
@Suite struct ExternalLinkPartTests {
    static let book1 = externalLinkXML(
        sheets: ["Sheet1", "Other Sheet"],
        data: [0: "<row r=\"1\"><cell r=\"A1\"><v>2</v></cell><cell r=\"B1\" t=\"str\"><v>x &amp; y</v></cell></row>"
                 + "<row r=\"2\"><cell r=\"A2\" t=\"b\"><v>1</v></cell><cell r=\"B2\" t=\"e\"><v>#N/A</v></cell><cell r=\"C2\"/><cell r=\"ZZZZ9\"><v>1</v></cell></row>",
               1: "<row r=\"5\"><cell r=\"C5\"><v>-1.5E3</v></cell></row>"],
        names: "<definedName name=\"Rate\" refersTo=\"=Sheet1!$A$1\"/><definedName name=\"Local\" refersTo=\"=1\" sheetId=\"1\"/><definedName name=\"A\"/>")

    @Test func readsSheetsCellsAndNames() throws {
        let workbook = try Workbook(bytes: externalLinkWorkbook(cells: "", links: [Self.book1, nil]), name: "links.xlsx")
        let books = try workbook.externalBooks()
        #expect(books.count == 2 && books[1] == nil, "a reference whose part is missing")
        let book = try #require(books[0])
        #expect(book.sheetNames == ["Sheet1", "Other Sheet"])
        #expect(book.fileName == "Book1.xlsx" && book.target == "file:///C:/Shared%20Data/Book1.xlsx")
        let first = (book.cachedCells[0] ?? []).map { "\($0.reference)=\($0.value)" }
        #expect(first == ["A1=\(CellValue.number(2))", "B1=\(CellValue.string("x & y"))", "A2=\(CellValue.boolean(true))", "B2=\(CellValue.error("#N/A"))"],
                "a cell without a value and one off the grid are passed over: \(first)")
        #expect(book.cachedCells[1]?.first?.value == .number(-1500))
        #expect(book.definedNames.map(\.name) == ["Rate", "Local", "A"])
        #expect(book.definedNames[0].refersTo == "=Sheet1!$A$1" && book.definedNames[1].sheetIndex == 1 && book.definedNames[2].refersTo == nil)
    }

    @Test func noLinksNoBooks() throws {
        let workbook = try Workbook(bytes: externalLinkWorkbook(cells: "", links: []), name: "plain.xlsx")
        #expect(try workbook.externalBooks().isEmpty)
    }

    /// Hostile parts: malformed XML and a part caching more cells than any link does are refused
    /// with a typed error; a DDE link holds no workbook; nonsense attributes are passed over.
    @Test func hostileParts() throws {
        let malformed = try Workbook(bytes: externalLinkWorkbook(cells: "", links: ["<externalLink><externalBook><sheetNames>"]), name: "bad.xlsx")
        #expect(throws: (any Error).self) { try malformed.externalBooks() }

        let rows = String(repeating: "<row r=\"1\"><cell r=\"A1\"><v>1</v></cell></row>", count: 101)
        let huge = try Workbook(bytes: externalLinkWorkbook(cells: "", links: [externalLinkXML(sheets: ["S"], data: [0: rows])]), name: "huge.xlsx")
        #expect(try huge.externalBooks(maxCells: 101).first??.cachedCells[0]?.count == 101)
        #expect { try huge.externalBooks(maxCells: 100) } throws: { ($0 as? ReaderError)?.code == .exceedsLimit }

        let dde = "<externalLink xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><ddeLink ddeService=\"x\" ddeTopic=\"y\"/></externalLink>"
        let odd = externalLinkXML(sheets: [], data: [-1: "<row><cell r=\"A1\"><v>1</v></cell></row>", 7: "<row><cell><v>2</v></cell><cell r=\"\"><v>3</v></cell></row>"],
                                  names: "<definedName/><definedName name=\"\"/>")
        let books = try Workbook(bytes: externalLinkWorkbook(cells: "", links: [dde, odd]), name: "odd.xlsx").externalBooks()
        #expect(books[0] == nil)
        let book = try #require(books[1])
        #expect(book.sheetNames.isEmpty && book.definedNames.isEmpty && book.cachedCells[-1] == nil && book.cachedCells[7] == nil)
    }
}
