import Foundation
import Testing
import SheetPortCore
import SheetPortWriter
import SheetPortTestSupport
import SheetPortClient

/// Its own suite, so that a million-row import runs beside the serialized server suite, not in it.
@Suite struct MillionRowViewTests {
    /// A view over 1,000,000 rows: sorted by a number column descending and filtered, it
    /// answers the right window, and the server's memory grows by far less than the sheet's
    /// cells would take as objects.
    @Test(.disabled(if: PostgresCluster.runsServerSuite, "a million-row import runs once, on SQLite: the view reads blocks through the same code on either store"))
    func viewOverAMillionRows() throws {
        let fixture = try ServeProcessFixture()
        defer { fixture.close() }
        let rows = 1_000_000
        let path = fixture.folder.appendingPathComponent("million.xlsx").path
        let writer = try WorkbookWriter(path: path)
        let sheetWriter = try writer.addWorksheet(named: "Big")
        // Column B: a permutation of 0 ..< rows (multiplying by a number coprime to rows), so
        // the descending order is known: value v is on the row r with (r - 1) * 7_919 % rows == v.
        for row in 1...rows {
            try sheetWriter.append(Row(index: row, cells: [
                Cell(column: 1, value: .number(Double(row))), // numbers: a million distinct strings pass the import's text cap
                Cell(column: 2, value: .number(Double((row - 1) * 7_919 % rows))),
                Cell(column: 3, value: .string(row % 3 == 0 ? "fizz" : "plain text that is a little longer")),
            ]))
        }
        try writer.close()
        let started = Date()
        // A million rows take longer to import than `importSheet`'s minute on a shared machine.
        let upload = try fixture.api.upload(path)
        let job = try fixture.api.wait(for: try #require(API.job(upload.body)?["id"] as? String), timeout: 600)
        let sheet = try #require(((job["result"] as? [String: Any])?["sheet"] as? [String: Any])?["id"] as? String, "\(job)")
        print("imported \(rows) rows in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        let before = fixture.server.peakMemoryKiB()
        let inverse = { (value: Int) -> Int in // the row holding `value`
            (0..<rows).lazy.map { $0 + 1 }.first { ($0 - 1) * 7_919 % rows == value }!
        }
        let viewStarted = Date()
        let view = try fixture.api.view(sheet, "sort=B:desc&filter=C:=fizz&start=1&count=3")
        let seconds = Date().timeIntervalSince(viewStarted)
        let grown = fixture.server.peakMemoryKiB() - before
        print("view over \(rows) rows (sort B desc, filter C = fizz): \(String(format: "%.2f", seconds)) s, peak memory grew \(grown / 1024) MB")
        #expect(view.status == 200 && view.total == rows / 3, "\(view.text.prefix(300))")
        // The largest values on rows divisible by 3, found from the permutation.
        var expected: [Int] = []
        var value = rows - 1
        while expected.count < 3 {
            let row = inverse(value)
            if row % 3 == 0 { expected.append(row) }
            value -= 1
        }
        #expect(view.rows.map { $0["row"] as? Int } == expected)
        #expect(view.next == 4)
        // One Foundation object per cell would be hundreds of MB; the keys are a few tens.
        #expect(grown < 200 * 1024, "peak memory grew \(grown / 1024) MB")
    }
}
