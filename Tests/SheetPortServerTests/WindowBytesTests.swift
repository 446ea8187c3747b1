import Foundation
import Testing
@testable import SheetPortClient
import SheetPortEditing
@testable import SheetPortServer
import SheetPortTestSupport

/// Issue 35, attack 5 (the viewer's side): a rows window or view whose answer would pass
/// `maxWindowBytes` stops early with `next`, counted as it is built; going on from `next` gives
/// the rest, nothing twice and nothing skipped; the first row is always answered.
@Suite(.serialized) struct WindowBytesTests {
    /// Rows 1...`rows` of column A, each a text of `length` characters (its row number first).
    static func bigRows(_ sheet: EditingClient, rows: Int, length: Int) throws {
        let inputs = (1...rows).map { row in ("A\(row)", "r\(row) " + String(repeating: "x", count: length)) }
        _ = try sheet.write(inputs)
    }

    /// Every row number through `route` (`rows` or `view?...`), paging on `next`; each answer's size.
    static func page(_ api: API, _ route: String, count: Int) throws -> (rows: [Int], sizes: [Int], windows: Int) {
        var rows: [Int] = [], sizes: [Int] = []
        var start: Int? = 1
        var windows = 0
        while let first = start, windows < 1_000 {
            let separator = route.contains("?") ? "&" : "?"
            let response = try api.call("GET", "\(route)\(separator)start=\(first)&count=\(count)")
            try #require(response.status == 200, "\(response.status) \(response.text)")
            sizes.append(response.body.count)
            let window = try EditingClient.object(response)
            rows += (window["rows"] as? [[String: Any]] ?? []).compactMap { $0["row"] as? Int }
            start = window["next"] as? Int
            windows += 1
        }
        return (rows, sizes, windows)
    }

    @Test func aWindowPastTheCapStopsWithNextAndPagingGivesTheRest() throws {
        let cap = 100_000
        let fixture = try ServerFixture { $0.maxWindowBytes = cap }
        defer { fixture.close() }
        #expect(try fixture.api.object("/api/limits")["maxWindowBytes"] as? Int == cap)
        let sheet = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        // 60 rows of ~20 KB texts: each row's JSON holds the text three times (input, value, display).
        try Self.bigRows(sheet, rows: 60, length: 20_000)
        let first = try fixture.api.object("/api/sheets/\(sheet.sheet)/rows?start=1&count=500")
        let answered = (first["rows"] as? [[String: Any]] ?? []).count
        #expect(answered >= 1 && answered < 60 && first["next"] as? Int == answered + 1, "\(answered) rows, next \(String(describing: first["next"]))")
        let paged = try Self.page(fixture.api, "/api/sheets/\(sheet.sheet)/rows", count: 500)
        #expect(paged.rows == Array(1...60), "\(paged.rows)")
        #expect(paged.sizes.allSatisfy { $0 <= cap }, "\(paged.sizes)")
        #expect(paged.windows > 1)
        // A view pages the same way, in view order.
        let view = try Self.page(fixture.api, "/api/sheets/\(sheet.sheet)/view?sort=A:desc", count: 500)
        #expect(view.rows.sorted() == Array(1...60) && view.rows.count == 60, "\(view.rows)")
        #expect(view.sizes.allSatisfy { $0 <= cap } && view.windows > 1, "\(view.sizes)")
        // The terminal grid's transport follows `next` within the window it asks for.
        let transport = HTTPEditingTransport(connection: try ServerConnection(url: fixture.server.base, token: fixture.api.token!))
        let window = try transport.rows(sheet: sheet.sheet, start: 5, count: 50)
        #expect(window.rows.map(\.row) == Array(5...54))
    }

    /// A cap below one row's size: each window answers its first row alone, so paging moves on.
    @Test func theFirstRowIsAlwaysAnswered() throws {
        let fixture = try ServerFixture { $0.maxWindowBytes = 1_000 }
        defer { fixture.close() }
        let sheet = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        try Self.bigRows(sheet, rows: 5, length: 5_000)
        let paged = try Self.page(fixture.api, "/api/sheets/\(sheet.sheet)/rows", count: 5_000)
        #expect(paged.rows == Array(1...5) && paged.windows == 5, "\(paged)")
        let view = try Self.page(fixture.api, "/api/sheets/\(sheet.sheet)/view", count: 5_000)
        #expect(view.rows == Array(1...5) && view.windows == 5, "\(view)")
    }

    /// Hostile counts: a huge one is capped (the default byte cap still holds), one past Int is 400.
    @Test func hugeCountsAreCappedOrRefused() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        #expect(try fixture.api.object("/api/limits")["maxWindowBytes"] as? Int == 16 << 20)
        let sheet = EditingClient(fixture.api, try EditingClient.create(fixture.api))
        _ = try sheet.write(["A1": "1", "A7000": "2"])
        let huge = try fixture.api.object("/api/sheets/\(sheet.sheet)/rows?start=1&count=9223372036854775807")
        #expect((huge["rows"] as? [[String: Any]])?.count == 1 && huge["next"] as? Int == 5_001, "\(huge)")
        for count in ["99999999999999999999", "-1", "0", "1e3"] {
            #expect(try fixture.api.call("GET", "/api/sheets/\(sheet.sheet)/rows?start=1&count=\(count)").status == 400, "\(count)")
            #expect(try fixture.api.call("GET", "/api/sheets/\(sheet.sheet)/view?start=1&count=\(count)").status == 400, "\(count)")
        }
        let view = try fixture.api.object("/api/sheets/\(sheet.sheet)/view?start=1&count=9223372036854775807")
        #expect((view["rows"] as? [[String: Any]])?.count == 2 && view["next"] is NSNull, "\(view)")
    }
}
