import Foundation
import Testing
import SheetPortCore
import SheetPortConvert
import SheetPortEditing
@testable import SheetPortClient
import SheetPortTestSupport

/// `HTTPEditingTransport`, the libcurl side of the editing core, against the real server and a
/// hostile one.
@Suite struct EditingTransportTests {
    @Test func readsRowsWindowsAndLimitsOfTheRealServer() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let csv = fixture.folder.appendingPathComponent("small.csv")
        try Data("n,flag\n1,TRUE\n0,x\n".utf8).write(to: csv)
        let book = fixture.folder.appendingPathComponent("small.xlsx").path
        try TextToWorkbook.convert(TextSource(path: csv.path), format: .csv, to: book)
        let sheet = try fixture.api.importSheet(book)
        let transport = HTTPEditingTransport(connection: try ServerConnection(url: fixture.server.base, token: fixture.api.token!))
        let window = try transport.rows(sheet: sheet, start: 1, count: 10)
        #expect(window.version >= 1)
        let cells = Dictionary(uniqueKeysWithValues: window.rows.flatMap { row in row.cells.map { ("\(CellReference(row: row.row, column: $0.key))", $0.value) } })
        // The numbers 1 and 0 are numbers, never read as booleans; TRUE is a boolean.
        #expect(cells["A2"]?.input == "1")
        #expect(cells["A2"]?.display == "1")
        #expect(cells["A2"]?.isNumber == true)
        #expect(cells["A3"]?.display == "0")
        #expect(cells["B2"]?.display == "TRUE")
        let limits = try transport.limits()
        #expect(limits.maxRows == CellReference.maxRow && limits.maxBatchCells > 0 && limits.maxBatchBytes > 0)
        // A hostile sheet id goes as one path segment: refused (control characters) or not found, not retryable.
        let error = #expect(throws: TransportError.self) { try transport.rows(sheet: "../\u{1B}[2J?x=1", start: 1, count: 1) }
        #expect(error?.status == 400)
        let missing = #expect(throws: TransportError.self) { try transport.rows(sheet: "../x?y=1#z", start: 1, count: 1) }
        #expect(missing?.status == 404)
        #expect(error?.retryable == false)
        #expect(error?.description.contains("\u{1B}") == false)
    }

    @Test func hostileAnswersAreErrorsNotState() throws {
        let server = try HostileServer { _, path in
            if path.hasPrefix("/api/sheets/s/rows") { return .json(200, #"{"version":"7","rows":[{"row":1,"cells":[{"col":99999}]}]}"#) }
            if path.hasPrefix("/api/sheets/s/cells") { return .json(400, #"{"error":{"code":"bad-formula","message":"B2: \u001b[31m bad at 3"}}"#) }
            if path.hasPrefix("/api/sheets/s/copy") { return .json(503, #"{"error":{"code":"busy","message":"later"}}"#) }
            return .json(200, #"{"version":3,"changed":[{"ref":"XFE1","input":"x"},{"ref":"B2","input":"=1","value":1,"type":"number"}]}"#)
        }
        defer { server.stop() }
        var connection = try ServerConnection(url: server.url, token: "t")
        connection.retry.attempts = 1
        let transport = HTTPEditingTransport(connection: connection, timeout: 5)
        #expect(throws: TransportError.self) { try transport.rows(sheet: "s", start: 1, count: 1) }
        let refused = #expect(throws: TransportError.self) { try transport.writeCells(sheet: "s", [CellEdit(ref: CellReference("B2")!, input: "=1+")]) }
        #expect(refused?.code == .badFormula && refused?.retryable == false)
        #expect(refused?.description.contains("\u{1B}") == false)
        let busy = #expect(throws: TransportError.self) { try transport.copy(sheet: "s", source: CellRange("A1")!, target: CellRange("B1")!) }
        #expect(busy?.retryable == true)
        let cleared = try transport.clear(sheet: "s", range: CellRange("A1:B2")!, what: "contents")
        #expect(cleared.version == 3)
        #expect(Array(cleared.changed.keys) == [CellReference("B2")!])
        #expect(cleared.changed[CellReference("B2")!]?.display == "1")
    }

    @Test(arguments: [
        (#"{"version":5,"change":"cells","refs":["B2","C3"]}"#, SheetEvent(version: 5, change: .cells, refs: [CellReference("B2")!, CellReference("C3")!])),
        (#"{"version":6,"change":"import","refs":null}"#, SheetEvent(version: 6, change: .import, refs: nil)),
        (#"{"version":7,"change":"cells","refs":["XFE1","A0","\u001b"]}"#, SheetEvent(version: 7, change: .cells, refs: [])),
        (#"{"version":8}"#, SheetEvent(version: 8, change: SheetChangeKind(rawValue: ""), refs: nil)),
    ])
    func readsEvents(_ data: String, _ expected: SheetEvent) {
        #expect(HTTPEditingTransport.event(data) == expected)
    }

    @Test(arguments: ["", "[]", #"{"version":true}"#, #"{"version":"9"}"#, "{", String(repeating: "[", count: 10_000)])
    func refusesMalformedEvents(_ data: String) {
        #expect(HTTPEditingTransport.event(data) == nil)
    }
}
