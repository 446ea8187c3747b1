import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortWriter
@testable import SheetPortConvert
import SheetPortTestSupport

/// The writer's streamed packaging (`WorkbookWriter(streamingTo:)`, libarchive, data
/// descriptors), which the server's exports use: it reads back as the file packaging does,
/// gives the same bytes for the same calls, and a sink that fails stops it with its error.
struct StreamedWorkbookTests {
    /// Two sheets with strings, numbers, styles, a formula, widths, heights, a note and a thread.
    private func fill(_ writer: WorkbookWriter, rows: Int = 3_000) throws {
        let bold = try writer.style(CellStyle(isBold: true, fillColor: "#FFEE00"))
        let first = try writer.addWorksheet(named: "Data")
        try first.setColumnWidth(20, for: 1...2)
        for row in 1...rows {
            try first.append(Row(index: row, height: row == 1 ? 30 : nil, cells: [
                Cell(column: 1, value: .string("text \(row) <&> é"), styleIndex: row == 1 ? bold : 0),
                Cell(column: 2, value: .number(Double(row) * 1.5)),
                Cell(column: 3, value: .number(Double(row) * 3), formula: "B\(row)*2"),
            ]))
        }
        try first.addComment("a note", author: "Ann", row: 2, column: 2)
        try first.addThread([("Ann", "first"), ("Bob", "reply")], row: 3, column: 1)
        let second = try writer.addWorksheet(named: "Second")
        try second.append(Row(index: 2, cells: [Cell(column: 4, value: .boolean(true))]))
    }

    /// Every sheet's rows, comments and the styles of its cells, as the reader sees them.
    private func contents(_ path: String) throws -> [String] {
        let book = try Workbook(path: path)
        var lines: [String] = []
        for sheet in book.sheets {
            lines.append("sheet \(sheet.name)")
            let rows = try book.rows(of: sheet)
            while let row = try rows.nextRow() { lines.append("\(row)") }
            lines += try book.comments(of: sheet).map { "\($0)" }
        }
        return lines
    }

    @Test func streamedPackageReadsBackAsTheFileOne() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let filePath = folder.appendingPathComponent("file.xlsx").path
        let fileWriter = try WorkbookWriter(path: filePath)
        try fill(fileWriter)
        try fileWriter.close()

        let collected = ByteCollector()
        let streamWriter = try WorkbookWriter(streamingTo: collected.append, name: "streamed.xlsx")
        try fill(streamWriter)
        try streamWriter.close()
        let streamPath = folder.appendingPathComponent("streamed.xlsx").path
        try Data(collected.bytes).write(to: URL(fileURLWithPath: streamPath))

        let expected = try contents(filePath)
        #expect(expected.count > 3_000)
        #expect(try contents(streamPath) == expected)
        // Local file header: signature, then flags at offset 6 with bit 3 (sizes after the data).
        #expect(Array(collected.bytes.prefix(4)) == [0x50, 0x4B, 0x03, 0x04])
        #expect(collected.bytes[6] & 0x08 != 0, "the first entry has no data descriptor")
        let report = try Preflight.check(path: streamPath)
        #expect(report.importable, "\(report.findings)")
    }

    @Test func theSameCallsGiveTheSameBytes() throws {
        var outputs: [[UInt8]] = []
        for _ in 0..<2 {
            let collected = ByteCollector()
            let writer = try WorkbookWriter(streamingTo: collected.append, name: "again.xlsx")
            try fill(writer, rows: 500)
            try writer.close()
            outputs.append(collected.bytes)
        }
        #expect(outputs[0] == outputs[1])
    }

    struct SinkFull: Error, Equatable {}

    /// A sink that fails after 64 KiB (a client gone): the writer stops with an error, at a
    /// row or at `close()`, and does not crash or hang.
    @Test func aFailingSinkStopsTheWriter() throws {
        var taken = 0
        let writer = try WorkbookWriter(streamingTo: { chunk in
            taken += chunk.count
            if taken > 64 * 1024 { throw SinkFull() }
        }, name: "gone.xlsx")
        #expect(throws: (any Error).self) {
            try fill(writer, rows: 50_000)
            try writer.close()
        }
        writer.discard()
    }

    /// Abandoning a streamed workbook half way ends its packing thread and sends nothing more.
    @Test func discardStopsTheStream() throws {
        let collected = ByteCollector()
        let writer = try WorkbookWriter(streamingTo: collected.append, name: "discarded.xlsx")
        let sheet = try writer.addWorksheet(named: "Data")
        for row in 1...20_000 { try sheet.append(Row(index: row, cells: [Cell(column: 1, value: .number(Double(row)))])) }
        writer.discard()
        let sent = collected.bytes.count
        #expect(throws: WriterError.finished) { try writer.close() }
        #expect(collected.bytes.count == sent)
    }
}
