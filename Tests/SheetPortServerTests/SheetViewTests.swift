import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortWriter
@testable import SheetPortClient
import SheetPortTestSupport
@testable import SheetPortReader
@testable import SheetPortConvert
@testable import SheetPortServer

/// Writes a one-sheet workbook of `rows` (each a row number and its cells); returns its path.
func makeWorkbook(in folder: URL, name: String = "view.xlsx", rows: [(Int, [Cell])], dateStyle: Bool = false) throws -> String {
    let path = folder.appendingPathComponent(name).path
    let writer = try WorkbookWriter(path: path)
    let date = try writer.style(CellStyle(numberFormat: "yyyy-mm-dd"))
    let sheet = try writer.addWorksheet(named: "Data")
    for (index, cells) in rows {
        try sheet.append(Row(index: index, cells: cells.map { cell in
            var cell = cell
            if case .date = cell.value { cell.styleIndex = date }
            return cell
        }))
    }
    try writer.close()
    return path
}

/// The text of a row's cell in column `column` (1-based), or nil.
func cellValue(_ row: [String: Any], column: Int) -> Any? {
    (row["cells"] as? [[String: Any]] ?? []).first { $0["col"] as? Int == column }?["value"]
}

extension ServerTests {
    /// Values of every kind, shuffled over the rows, come back sorted as Excel sorts them
    /// (numbers and dates, then text ignoring case, then FALSE, TRUE, then errors, blanks last,
    /// ties in storage order), ascending and descending, with their source rows; the rows
    /// route still answers storage order afterwards.
    @Test func viewSortsAsExcelAndNeverMovesStorage() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        // In ascending order by construction; equal neighbours share a rank.
        let sorted: [(rank: Int, value: CellValue?)] = [
            (0, .number(-5)), (1, .number(0)), (2, .number(1.5)), (3, .number(2)), (3, .number(2)),
            (4, .number(100)), (5, .date(serial: 45_000)), (6, .number(45_001)),
            (7, .string("apple")), (8, .string("Banana")), (8, .string("BANANA")), (9, .string("cherry")), (10, .string("ÉCLAIR")),
            (11, .boolean(false)), (12, .boolean(true)), (13, .error("#N/A")), (13, .error("#DIV/0!")), (14, nil), (14, nil),
        ]
        var generator = SeededGenerator(state: 25)
        let placement = Array(sorted.indices).shuffled(using: &generator) // placement[k]: the sorted index on row k + 1
        let rows = placement.enumerated().map { (offset, index) -> (Int, [Cell]) in
            var cells = [Cell(column: 1, value: .string("s\(index)"))]
            if let value = sorted[index].value { cells.append(Cell(column: 2, value: value)) }
            return (offset + 1, cells)
        }
        let sheet = try fixture.api.importSheet(try makeWorkbook(in: fixture.folder, rows: rows))
        let rowOf = Dictionary(uniqueKeysWithValues: placement.enumerated().map { ($1, $0 + 1) })

        // Ascending: by rank, equal ranks in storage (row) order.
        let ascending = sorted.indices.sorted { (sorted[$0].rank, rowOf[$0]!) < (sorted[$1].rank, rowOf[$1]!) }
        let up = try fixture.api.view(sheet, "sort=B:asc")
        #expect(up.status == 200 && up.total == sorted.count && up.next == nil, "\(up.text)")
        #expect(up.rows.map { $0["row"] as? Int } == ascending.map { rowOf[$0] }, "\(up.text)")
        #expect(up.rows.map { cellValue($0, column: 1) as? String } == ascending.map { "s\($0)" })
        // Descending: ranks reversed, blanks still last, ties still in storage order.
        let descending = sorted.indices.sorted {
            let (a, b) = (sorted[$0].rank == 14 ? -1 : sorted[$0].rank, sorted[$1].rank == 14 ? -1 : sorted[$1].rank)
            return (-a, rowOf[$0]!) < (-b, rowOf[$1]!)
        }
        let down = try fixture.api.view(sheet, "sort=B:desc")
        #expect(down.rows.map { $0["row"] as? Int } == descending.map { rowOf[$0] }, "\(down.text)")
        // A second key breaks the first's ties: B, then A descending.
        let twoKeys = sorted.indices.sorted { (sorted[$0].rank, "s\($1)") < (sorted[$1].rank, "s\($0)") }
        #expect(try fixture.api.view(sheet, "sort=B:asc,A:desc").rows.map { $0["row"] as? Int } == twoKeys.map { rowOf[$0] })
        // Windows page through the same order.
        let first = try fixture.api.view(sheet, "sort=B:asc&start=1&count=7")
        let second = try fixture.api.view(sheet, "sort=B:asc&start=8&count=100")
        #expect(first.next == 8 && second.next == nil && (first.rows + second.rows).map { $0["row"] as? Int } == up.rows.map { $0["row"] as? Int })
        // Storage never moved.
        let stored = try fixture.api.object("/api/sheets/\(sheet)/rows?start=1&count=100")["rows"] as? [[String: Any]] ?? []
        #expect(stored.map { $0["row"] as? Int } == Array(1...sorted.count))
        #expect(stored.map { cellValue($0, column: 1) as? String } == placement.map { "s\($0)" })
    }

    /// Each operator, several filters at once, and a sort over what is left.
    @Test func viewFiltersWithEveryOperator() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let amounts: [CellValue?] = [.number(50), .number(100), .number(150), .string("n/a"), nil, .number(250), .string("100"), .boolean(true)]
        let names = ["Alpha one", "beta", "GAMMA", "alphabet", "delta", "Epsilon alpha", "zeta", "eta"]
        let rows = amounts.indices.map { index -> (Int, [Cell]) in
            var cells = [Cell(column: 1, value: .string(names[index]))]
            if let amount = amounts[index] { cells.append(Cell(column: 3, value: amount)) }
            return (index + 1, cells)
        }
        let sheet = try fixture.api.importSheet(try makeWorkbook(in: fixture.folder, rows: rows))
        func rowsOf(_ query: String) throws -> [Int] {
            let view = try fixture.api.view(sheet, query)
            #expect(view.status == 200, "\(query): \(view.text)")
            return view.rows.compactMap { $0["row"] as? Int }
        }
        // Each operator against what the rows hold (1-based rows).
        #expect(try rowsOf("filter=C:>100") == [3, 6])
        #expect(try rowsOf("filter=C:>=100") == [2, 3, 6])
        #expect(try rowsOf("filter=C:<100") == [1])
        #expect(try rowsOf("filter=C:<=100") == [1, 2])
        #expect(try rowsOf("filter=C:=100") == [2])
        #expect(try rowsOf("filter=C:<>100") == [1, 3, 4, 5, 6, 7, 8])
        #expect(try rowsOf("filter=C:=") == [5], "= with nothing: the blanks")
        #expect(try rowsOf("filter=C:<>") == [1, 2, 3, 4, 6, 7, 8], "<> with nothing: the non-blanks")
        #expect(try rowsOf("filter=C:=N/A") == [4], "text ignores case")
        #expect(try rowsOf("filter=C:=true") == [8])
        #expect(try rowsOf("filter=A:contains:ALPHA") == [1, 4, 6])
        #expect(try rowsOf("filter=A:>c") == [3, 5, 6, 7, 8], "text compares with text, ignoring case")
        // Several filters all apply; a sort orders what is left.
        #expect(try rowsOf("filter=A:contains:alpha&filter=C:>=100") == [6])
        #expect(try rowsOf("filter=C:>0&sort=C:desc") == [6, 3, 2, 1])
        // Percent-encoded operators arrive the same.
        #expect(try rowsOf("filter=C%3A%3E%3D100") == [2, 3, 6])
        // Injection-looking text is an operand like any other.
        #expect(try rowsOf("filter=A:=%27%3B%20DROP%20TABLE%20sheets%3B--") == [])
        #expect(try rowsOf("filter=A:contains:%25") == [])
        #expect(try fixture.api.call("GET", "/api/sheets/\(sheet)").status == 200)
        // Filters on a column with no cells match only blanks.
        #expect(try rowsOf("filter=XFD:=") == Array(1...8))
        #expect(try rowsOf("filter=XFD:>0") == [])
    }

    /// Hostile view requests are refused with 400 naming the problem (nothing read), or bounded.
    @Test func viewRefusesHostileQueries() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = try fixture.api.importSheet(try makeStyledWorkbook(in: fixture.folder, rows: 30))
        for query in ["sort=XFE:asc", "sort=B:sideways", "sort=1:asc", "sort=B:asc:extra", "sort=", "sort=,",
                      "filter=B", "filter=B:~5", "filter=:=5", "filter=XFE:=1", "filter=B1:=1",
                      "start=0", "start=-1", "start=1048577", "start=99999999999999999999", "count=0", "count=abc",
                      "sort=" + Array(repeating: "A:asc", count: 9).joined(separator: ","),
                      Array(repeating: "filter=A:=x", count: 17).joined(separator: "&"),
                      "filter=A:=" + String(repeating: "x", count: 256)] {
            let view = try fixture.api.view(sheet, query)
            let allowedEmptySort = query == "sort="
            #expect(allowedEmptySort ? view.status == 200 : view.status == 400, "\(query.prefix(80)): \(view.status) \(view.text.prefix(200))")
            if !allowedEmptySort { #expect(view.text.contains("\"code\"") && !view.text.contains("SELECT")) }
        }
        // NUL and control characters in a filter or sort, percent-encoded or not.
        for query in ["filter=A:=%00", "filter=A:contains:%1B[31m", "sort=B%0A:asc", "filter=A:=x&filter=A:=%07"] {
            let view = try fixture.api.view(sheet, query)
            #expect(view.status == 400 && view.text.contains("control character"), "\(query): \(view.text)")
        }
        // A huge count is bounded to the rows window's cap, a start past the end is empty.
        let all = try fixture.api.view(sheet, "count=1000000000")
        #expect(all.status == 200 && all.rows.count == 30 && all.next == nil)
        let past = try fixture.api.view(sheet, "start=1048576&count=5")
        #expect(past.status == 200 && past.rows.isEmpty && past.next == nil && past.total == 30)
        // Unknown sheets and malformed ids are 404.
        #expect(try fixture.api.view("0123456789abcdef0123456789abcdef", "sort=A:asc").status == 404)
        #expect(try fixture.api.view("..%2F..%2Fetc", "sort=A:asc").status == 404)
    }

    /// Every reader may view: owner, editor, commenter and viewer get the same rows; a
    /// stranger gets the 404 of a sheet that does not exist; no token, 401.
    @Test func viewRoleMatrix() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let sheet = try fixture.api.importSheet(try makeStyledWorkbook(in: fixture.folder, rows: 12))
        for role in ["viewer", "commenter", "editor"] {
            #expect(try fixture.api.call("POST", "/api/sheets/\(sheet)/grants", json: ["subject": role, "role": role]).status == 201)
        }
        let owner = try fixture.api.view(sheet, "sort=B:desc&filter=B:>5")
        #expect(owner.status == 200 && owner.rows.count == 8, "\(owner.text)")
        for role in ["viewer", "commenter", "editor"] {
            let view = try fixture.server.api(try fixture.server.token(role)).view(sheet, "sort=B:desc&filter=B:>5")
            #expect(view.status == 200 && view.text == owner.text, "\(role)")
        }
        let stranger = try fixture.server.api(try fixture.server.token("stranger")).call("GET", "/api/sheets/\(sheet)/view?sort=B:asc")
        let unknown = try fixture.api.call("GET", "/api/sheets/ffffffffffffffffffffffffffffffff/view")
        #expect(stranger.status == 404 && stranger.body == unknown.body)
        #expect(try fixture.server.api(nil).call("GET", "/api/sheets/\(sheet)/view").status == 401)
        #expect(try fixture.api.call("POST", "/api/sheets/\(sheet)/view").status == 405)
    }
}
