import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortCalc
import SheetPortTestSupport

/// Row blocks are stored typed and compressed before they are sealed (issue 26), and blocks of
/// the previous formats (the text lines sealed as they are, or compressed) stay readable: a
/// store whose blocks are all rewritten to those formats answers the same rows windows and
/// exports the same cells, and is rewritten in the binary format in the background.
@Suite(.serialized) struct RowBlockFormatTests {
    /// The blocks of `sheet`: (block, sealed bytes).
    static func blocks(_ server: TestServer, sheet: String) throws -> [(Int, [UInt8])] {
        try server.store().query("SELECT block, data FROM row_blocks WHERE sheet_id = ? ORDER BY block", [.text(sheet)])
            .map { ($0[0].int ?? -1, $0[1].bytes ?? []) }
    }

    @Test func aStoreOfThePreviousFormatIsRead() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let server = fixture.server
        let book = try StorageReclaimTests.workbook(in: fixture.folder, rows: 700)
        let sheet = try fixture.api.importSheet(book)
        let window = try fixture.api.call("GET", "/api/sheets/\(sheet)/rows?start=1&count=1000").body
        let exported = try fixture.api.call("GET", "/api/sheets/\(sheet)/export.xlsx")
        try #require(exported.status == 200)
        let keyFile = server.databaseURL == nil ? server.data + "/seal.key" : fixture.folder.appendingPathComponent("seal.key").path
        let location: StoreLocation = server.databaseURL.map { .postgres(url: $0) } ?? .sqlite(path: server.data + "/sheetport.db")
        let sealer = try #require(try KeyCheck.establish(keyFile: keyFile, store: location, staging: nil, create: false))

        // Every block is stored binary, several times smaller than its text and smaller than the
        // text compressed.
        var binary = 0, compressed = 0, text = 0
        let store = try server.store()
        for (block, sealed) in try Self.blocks(server, sheet: sheet) {
            let context = RowBlock.context(sheet: sheet, block: block)
            let stored = try sealer.open(sealed, context: context, what: "row block")
            #expect(stored.first == RowBlock.binaryFormat)
            let lines = try RowBlock.text(stored)
            binary += stored.count
            compressed += RowBlock.compressed(lines).count
            text += lines.count
            // Back to a previous format: the text lines sealed as they are, or compressed (every other block).
            let previous = block % 2 == 0 ? lines : RowBlock.compressed(lines)
            try store.query("UPDATE row_blocks SET data = ? WHERE sheet_id = ? AND block = ?",
                            [.blob(sealer.seal(previous, context: context)), .text(sheet), .integer(Int64(block))])
        }
        #expect(binary * 4 < text && binary < compressed, "binary \(binary) bytes, compressed \(compressed), text \(text)")
        #expect(try fixture.api.call("GET", "/api/sheets/\(sheet)/rows?start=1&count=1000").body == window)
        let again = try fixture.api.call("GET", "/api/sheets/\(sheet)/export.xlsx")
        #expect(again.status == 200)
        let paths = [fixture.folder.appendingPathComponent("new.xlsx").path, fixture.folder.appendingPathComponent("old.xlsx").path]
        try Data(exported.body).write(to: URL(fileURLWithPath: paths[0]))
        try Data(again.body).write(to: URL(fileURLWithPath: paths[1]))
        let rows = try paths.map { path -> [Row] in
            let workbook = try Workbook(path: path)
            let reader = try workbook.rows(of: try #require(workbook.firstWorksheet))
            var rows: [Row] = []
            while let row = try reader.nextRow() { rows.append(row) }
            return rows
        }
        #expect(rows[0].count == 701 && rows[0] == rows[1])

        // A store of the previous version has no mark that its blocks are binary: the next start
        // rewrites them in the background, and the rows read the same.
        try store.query("DELETE FROM meta WHERE name = ?", [.text(RowBlockMigration.doneName)])
        server.stop()
        try server.restart()
        let api = server.api(fixture.api.token)
        let deadline = Date().addingTimeInterval(60)
        var formats: Set<UInt8> = []
        var marked = false
        repeat {
            usleep(100_000)
            formats = Set(try Self.blocks(server, sheet: sheet).map { block, sealed in
                try sealer.open(sealed, context: RowBlock.context(sheet: sheet, block: block), what: "row block").first ?? 0
            })
            // The mark is written by the pass after the last rewritten batch: waited for too.
            marked = try store.query("SELECT 1 FROM meta WHERE name = ?", [.text(RowBlockMigration.doneName)]).count == 1
        } while (formats != [RowBlock.binaryFormat] || !marked) && Date() < deadline
        #expect(formats == [RowBlock.binaryFormat])
        #expect(try store.query("SELECT 1 FROM meta WHERE name = ?", [.text(RowBlockMigration.doneName)]).count == 1)
        #expect(try api.call("GET", "/api/sheets/\(sheet)/rows?start=1&count=1000").body == window)
        let migrated = try api.call("GET", "/api/sheets/\(sheet)/export.xlsx")
        #expect(migrated.status == 200 && migrated.body == exported.body)
    }

    /// Hostile stored bytes are refused with a reason, never read past or trusted: an unknown
    /// format byte, a cut frame, a frame that claims more than a block may hold, garbage, and
    /// nothing at all (an empty block has no rows).
    @Test func hostileStoredBytesAreRefused() throws {
        let text = Array("#1 - 0\n{\"col\":1,\"input\":\"a\",\"ref\":\"A1\",\"type\":\"string\",\"value\":\"a\"}\n".utf8)
        let stored = RowBlock.compressed(text)
        #expect(try RowBlock.text(stored) == text)
        #expect(try RowBlock.entries(stored: stored).first?.cells.count == 1)
        #expect(try RowBlock.text([]) == [])
        #expect(throws: RowBlock.FormatError.self) { try RowBlock.text([0x03] + stored.dropFirst()) }
        #expect(throws: RowBlock.FormatError.self) { try RowBlock.text(Array(stored.dropLast(3))) }
        #expect(throws: RowBlock.FormatError.self) { try RowBlock.text([RowBlock.zstdFormat, 1, 2, 3, 4, 5]) }
        #expect(throws: RowBlock.FormatError.self) { try RowBlock.text([RowBlock.zstdFormat]) }
        // A frame header claiming 1 GiB of content (single segment, 4-byte size) is refused before allocating it.
        let bomb: [UInt8] = [RowBlock.zstdFormat, 0x28, 0xB5, 0x2F, 0xFD, 0x80 | 0x20, 0, 0, 0, 0x40] + [UInt8](repeating: 0, count: 16)
        #expect(throws: RowBlock.FormatError.self) { try RowBlock.text(bomb) }
        #expect(throws: RowBlock.FormatError.self) { try RowBlock.text([RowBlock.binaryFormat] + bomb.dropFirst()) }
        // The lenient reader used by other code logs and gives no rows rather than garbage.
        #expect(RowBlock.entries([0x7F, 1, 2]).isEmpty)
    }

    /// Stored lines of every value kind and member.
    static let everyKind = [
        "#3 15.5 1",
        ##"{"col":1,"input":"42","ref":"A3","type":"number","value":42}"##,
        ##"{"col":2,"input":"-7","ref":"B3","type":"number","value":-7}"##,
        ##"{"col":3,"input":"1.5","ref":"C3","type":"number","value":1.5}"##,
        ##"{"col":4,"input":"1e-07","ref":"D3","type":"number","value":1e-07}"##,
        ##"{"col":5,"input":"12345678901234567","ref":"E3","type":"number","value":1.2345678901234568e+16}"##,
        ##"{"col":6,"input":"-0.25","ref":"F3","type":"number","value":-0.25,"style":{"numFmt":"0.00%","bold":true}}"##,
        ##"{"col":7,"input":"naïve \"q\" \\ \n\u0001","ref":"G3","type":"string","value":"naïve \"q\" \\ \n\u0001"}"##,
        ##"{"col":8,"input":"TRUE","ref":"H3","type":"boolean","value":true}"##,
        ##"{"col":9,"input":"false","ref":"I3","type":"boolean","value":false}"##,
        ##"{"col":10,"input":"#DIV/0!","ref":"J3","type":"error","value":"#DIV/0!"}"##,
        ##"{"col":11,"input":"2024-01-31 13:45:00","ref":"K3","type":"date","value":"2024-01-31T13:45:00.000","style":{"numFmt":"yyyy-mm-dd hh:mm"}}"##,
        ##"{"col":12,"input":"=NOW()","ref":"L3","type":"empty","value":null,"formula":"NOW()"}"##,
        ##"{"col":13,"input":"=A3*2","ref":"M3","type":"number","value":84,"formula":"A3*2","style":{"numFmt":"0.00%","bold":true}}"##,
        ##"{"col":14,"input":"={1,2}","ref":"N3","type":"number","value":1,"formula":"{1,2}","arrayRange":"N3:O3","style":{"bold":true}}"##,
        ##"{"col":16,"input":"'007","ref":"P3","type":"string","value":"007"}"##,
        ##"{"col":17,"input":"","ref":"Q3","type":"empty","value":null,"style":{"fill":"#FF0000"}}"##,
        "#64 - 0",
        ##"{"col":16384,"input":"x","ref":"XFD64","type":"string","value":"x"}"##,
    ]

    /// A view reads a binary block's cells typed: the values it sorts and filters by are the
    /// ones it read from the lines (a block of the earlier format goes that way).
    @Test func viewValuesReadTypedAreTheLinesValues() throws {
        let text = Array((Self.everyKind.joined(separator: "\n") + "\n").utf8)
        func values(_ stored: [UInt8]) throws -> [String] {
            var seen: [String] = []
            try ViewValue.forEachRow(of: stored, columns: Set(1...16_384), overlay: nil, block: 0) { row, found in
                seen.append("\(row): " + found.map { "\($0.column)=\($0.value)" }.joined(separator: " "))
            }
            return seen
        }
        let typed = try values(RowBlock.stored(text))
        #expect(typed == (try values(RowBlock.compressed(text))))
        #expect(typed.count == 2 && typed[0].contains("11=number(45322.57291666") && typed[0].contains("7=text(\"naïve"))
        // With values a write left to store laid over them: spliced into the typed cells' lines,
        // the same as the lines rewritten (a number in a date format is a date, in a percent format a number).
        func overlay(_ cells: [(Int, Int, CalcValue)]) -> SheetOverlay {
            SheetOverlay(version: 1, cells: cells.map { (CellReference(row: $0.0, column: $0.1), $0.2) }.sorted { $0.0 < $1.0 })
        }
        let laid = overlay([(3, 1, .number(7)), (3, 7, .text("Zed")), (3, 10, .error(.notAvailable)), (3, 11, .number(45_000.123456789)),
                            (3, 13, .number(0.5)), (3, 16, .boolean(true)), (64, 16_384, .number(-1))])
        func values(_ stored: [UInt8], _ overlay: SheetOverlay) throws -> [String] {
            var seen: [String] = []
            try ViewValue.forEachRow(of: stored, columns: Set(1...16_384), overlay: overlay, block: 0) { row, found in
                seen.append("\(row): " + found.map { "\($0.column)=\($0.value)" }.joined(separator: " "))
            }
            return seen
        }
        let overlaid = try values(RowBlock.stored(text), laid)
        #expect(overlaid == (try values(RowBlock.compressed(text), laid)))
        for part in ["1=number(7.0)", "7=text(\"zed\")", "10=error(\"#N/A\")", "11=number(45000.12345", "13=number(0.5)", "16=boolean(true)"] {
            #expect(overlaid[0].contains(part), "\(part) in \(overlaid[0])")
        }
        #expect(overlaid[1] == "64: 16384=number(-1.0)")
        // A cell the block does not hold (the lines' way adds it) and an empty value go the lines' way.
        for odd in [overlay([(3, 15, .number(1))]), overlay([(3, 1, .empty)])] {
            #expect(try values(RowBlock.stored(text), odd) == (try values(RowBlock.compressed(text), odd)))
        }
    }

    /// The lines the writers store, every value kind and member, read back byte for byte from
    /// the binary format; the typed rows it decodes (export, the calculation engine) are the
    /// ones `CellJSONLReader` reads from the lines.
    @Test func binaryBlocksReadBackTheStoredLines() throws {
        let lines = Self.everyKind
        let text = Array((lines.joined(separator: "\n") + "\n").utf8)
        let binary = RowBlock.stored(text)
        #expect(binary.first == RowBlock.binaryFormat)
        #expect(String(decoding: try RowBlock.text(binary), as: UTF8.self) == String(decoding: text, as: UTF8.self))
        #expect(try RowBlock.entries(stored: binary).map(\.row) == [3, 64])
        // A view's scan renders only the columns it sorts or filters by; every row is still there.
        let some = try RowBlock.entries(stored: binary, columns: [1, 16_384])
        #expect(some.map(\.row) == [3, 64] && some.map(\.cells.count) == [1, 1])
        #expect(try some[0].cells[0] == RowBlock.entries(stored: binary)[0].cells[0])
        #expect(try RowBlock.entries(stored: binary, columns: [2]).map(\.cells.count) == [1, 0])
        let typed = try RowBlock.rows(stored: binary, name: "test")
        let read = try RowBlock.rows(stored: RowBlock.compressed(text), name: "test")
        #expect(typed.map(\.row) == read.map(\.row))
        #expect(typed.map(\.styles) == read.map(\.styles))
        #expect(typed[0].row.height == 15.5 && typed[0].row.isHidden && typed[0].row.cells.count == 16)

        // Lines the format does not model (another member, another order of nothing known, not
        // JSON at all, a reference that is not the cell's) are kept whole, byte for byte.
        let odd = [
            "#1 - 0",
            ##"{"col":1,"input":"a","ref":"A1","type":"string","value":"a","note":"kept"}"##,
            ##"{"col":2,"input":"b","ref":"Z9","type":"string","value":"b"}"##,
            ##"{"col":3,"input":"c","ref":"C1","type":"string","value":"c","value":"d"}"##,
            "not json",
        ]
        let oddText = Array((odd.joined(separator: "\n") + "\n").utf8)
        #expect(try RowBlock.text(RowBlock.stored(oddText)) == oddText)
        // Members in another order read as the same cell.
        let reordered = Array("#1 - 0\n{\"ref\":\"B1\",\"value\":2,\"type\":\"number\",\"col\":2,\"input\":\"2\"}\n".utf8)
        #expect(try RowBlock.rows(stored: RowBlock.stored(reordered), name: "t").map(\.row)
                == RowBlock.rows(stored: reordered, name: "t").map(\.row))
    }

    /// Hostile binary payloads are refused with a reason: cut anywhere, an index past its table,
    /// counts past the bytes, a row or column outside the grid, bytes after the rows.
    @Test func hostileBinaryBlocksAreRefused() throws {
        let text = Array(("#2 12 0\n" + #"{"col":2,"input":"=A1","ref":"B2","type":"string","value":"x","formula":"A1","style":{"bold":true}}"#
                          + "\n").utf8)
        let payload = try RowBlock.decompress(RowBlock.stored(text))
        #expect(try BinaryBlock(payload: payload).entries.count == 1)
        for cut in 0..<payload.count {
            #expect(throws: RowBlock.FormatError.self) { try BinaryBlock(payload: Array(payload[..<cut])) }
        }
        #expect(throws: RowBlock.FormatError.self) { try BinaryBlock(payload: payload + [0]) }
        // strings: 0, styles: 0, one row 1 with one cell whose string index is 0 (none there).
        #expect(throws: RowBlock.FormatError.self) { try BinaryBlock(payload: [0, 0, 1, 2, 0, 1, RowBlock.Kind.string.rawValue, 2, 0]) }
        // A style index with no style.
        #expect(throws: RowBlock.FormatError.self) { try BinaryBlock(payload: [0, 0, 1, 2, 0, 1, RowBlock.Tag.style, 2, 0]) }
        // A count far past the bytes, a number over 64 bits.
        #expect(throws: RowBlock.FormatError.self) { try BinaryBlock(payload: [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]) }
        #expect(throws: RowBlock.FormatError.self) { try BinaryBlock(payload: [UInt8](repeating: 0xFF, count: 11) + [1]) }
        // Row 0, a row past the grid, column 0, column past XFD.
        #expect(throws: RowBlock.FormatError.self) { try BinaryBlock(payload: [0, 0, 1, 0, 0, 0]) }
        #expect(throws: RowBlock.FormatError.self) { try BinaryBlock(payload: [0, 0, 1, 0x82, 0x80, 0x80, 0x01, 0, 0]) }
        #expect(throws: RowBlock.FormatError.self) { try BinaryBlock(payload: [0, 0, 1, 2, 0, 1, 0, 0]) }
        #expect(throws: RowBlock.FormatError.self) { try BinaryBlock(payload: [0, 0, 1, 2, 0, 1, 0, 0x82, 0x80, 0x02]) }
        // Garbage after the format byte, and the lenient reader.
        #expect(throws: RowBlock.FormatError.self) { try RowBlock.entries(stored: [RowBlock.binaryFormat, 1, 2, 3]) }
        #expect(RowBlock.entries([RowBlock.binaryFormat]).isEmpty)
    }
}
