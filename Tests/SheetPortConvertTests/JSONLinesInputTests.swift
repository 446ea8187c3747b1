import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortConvert
import SheetPortTestSupport

/// `ByteInput.appendLine` under `CellJSONLReader`, on real files: lines that straddle the 64 KiB
/// buffer, lines longer than it, CRLF, blank lines, no final line feed, UTF-16 text.
@Suite struct JSONLinesInputTests {
    /// Each row's cells, or the error, read from `path` by the reader or by the one it replaced.
    private static func outcome(path: String, legacy: Bool) throws -> String {
        let input = try ByteInput(path: path, encoding: nil, name: "cells.jsonl")
        var rows: [String] = []
        do {
            if legacy {
                var reader = try JSONSerializationCellReader(input: input)
                while let (row, _) = try reader.nextRow() { rows.append("\(row.index) \(reader.rowLine): \(row.cells)") }
            } else {
                var reader = try CellJSONLReader(input: input)
                while let (row, _) = try reader.nextRow() { rows.append("\(row.index) \(reader.rowLine): \(row.cells)") }
            }
        } catch {
            rows.append("error: \(error)")
        }
        rows.append("bytes read \(input.bytesRead)")
        return rows.joined(separator: "\n")
    }

    /// A file of `bytes` in a new folder, which `body` gets and which is removed after it.
    private static func withFile(_ bytes: [UInt8], _ body: (String) throws -> Void) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("cells.jsonl").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try body(path)
    }

    @Test func readsLinesAcrossAndLongerThanTheBuffer() throws {
        var generator = CellJSONGenerator(seed: 7)
        var text = ""
        for row in 1...3_000 {
            let ending = generator.pick(["\n", "\r\n", "\n\n", "\n \t\n", "\r\n\r\n"])
            let value = row % 500 == 0 ? String(repeating: "x", count: 150_000) : "r\(row)"
            text += "{\"ref\":\"B\(row)\",\"type\":\"string\",\"value\":\"\(value)\",\"formula\":\(generator.stringLiteral(broken: false))}" + ending
        }
        text += "{\"ref\":\"A3001\",\"type\":\"number\",\"value\":-0.5}" // no final line feed
        try Self.withFile(Array(text.utf8)) { path in
            let actual = try Self.outcome(path: path, legacy: false)
            #expect(actual == (try Self.outcome(path: path, legacy: true)))
            let lastLine = text.utf8.count { $0 == 0x0A } + 1
            #expect(actual.hasSuffix("3001 \(lastLine): \([Cell(column: 1, value: .number(-0.5))])\nbytes read \(text.utf8.count)"),
                    "\(actual.suffix(300))")
            #expect(actual.contains(String(repeating: "x", count: 150_000)))
        }
    }

    @Test func readsUTF16Lines() throws {
        let text = "{\"ref\":\"A1\",\"type\":\"string\",\"value\":\"naïve 😀\"}\r\n\r\n{\"ref\":\"A2\",\"type\":\"boolean\",\"value\":true}\r\n"
        try Self.withFile([0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }) { path in
            let actual = try Self.outcome(path: path, legacy: false)
            #expect(actual == (try Self.outcome(path: path, legacy: true)))
            #expect(actual.contains("string(\"naïve 😀\")") && actual.contains("2 3: "), "\(actual)")
        }
    }

    @Test func namesTheLineOfABrokenObjectAfterALongOne() throws {
        let long = "{\"ref\":\"A1\",\"type\":\"string\",\"value\":\"\(String(repeating: "é", count: 70_000))\"}\n"
        try Self.withFile(Array((long + "\n{\"ref\":\"A2\",\"type\":\"number\",\"value\":01}\n").utf8)) { path in
            let actual = try Self.outcome(path: path, legacy: false)
            #expect(actual.contains("error: cells.jsonl: line 3: not a JSON object"), "\(actual.suffix(300))")
        }
    }
}
