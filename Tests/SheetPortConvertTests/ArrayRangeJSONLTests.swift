import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortConvert
import SheetPortTestSupport

/// The cell JSONL member `arrayRange` (an array formula's range, a key Docs/Reference/Formats.md,
/// "Cell JSONL", lets readers add): written for array formulas, read back from cell JSONL, refused when hostile.
@Suite struct ArrayRangeJSONLTests {
    @Test func anArrayRangeRoundTripsThroughJSONL() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.jsonl").path
        let output = folder.appendingPathComponent("out.xlsx").path
        let lines = #"{"ref":"A1","type":"number","value":6,"formula":"SUM(B1:B3)","arrayRange":"A1:A3"}"# + "\n"
            + #"{"ref":"B1","type":"number","value":1,"arrayRange":null}"# + "\n"
        try Data(lines.utf8).write(to: URL(fileURLWithPath: input))
        try TextToWorkbook.convert(TextSource(path: input), format: .jsonl, to: output)
        #expect(try convert(output, to: .jsonl) == lines.replacingOccurrences(of: #","arrayRange":null"#, with: ""))
    }

    @Test func aHostileArrayRangeIsRefusedWithItsLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let hostile: [Any] = ["B1:B3", "A1:", "A0:A3", "A1:XFE1", "A1:A1048577", "", "A1\u{0}:A3", "A1\u{1B}[2J", "-A1", 12,
                              ["A1"], String(repeating: "A", count: 100_000) + "1", "A1:A3:A4"]
        for (index, range) in hostile.enumerated() {
            let input = folder.appendingPathComponent("bad-\(index).jsonl").path
            let object: [String: Any] = ["ref": "A1", "type": "number", "value": 1, "formula": "B1", "arrayRange": range]
            try (try JSONSerialization.data(withJSONObject: object) + Data("\n".utf8)).write(to: URL(fileURLWithPath: input))
            let output = folder.appendingPathComponent("bad-\(index).xlsx").path
            #expect("\(range) was accepted") {
                try TextToWorkbook.convert(TextSource(path: input), format: .jsonl, to: output)
            } throws: { error in
                let message = "\(error)"
                return message.contains("line 1: \"arrayRange\"") && !message.unicodeScalars.contains { $0.isUnsafeControl && $0 != "\n" }
            }
        }
        // A range on a cell without a formula is refused too.
        let input = folder.appendingPathComponent("no-formula.jsonl").path
        try Data(#"{"ref":"A1","type":"number","value":1,"arrayRange":"A1:A2"}"#.utf8 + Data("\n".utf8)).write(to: URL(fileURLWithPath: input))
        #expect(throws: (any Error).self) {
            try TextToWorkbook.convert(TextSource(path: input), format: .jsonl, to: folder.appendingPathComponent("x.xlsx").path)
        }
    }
}
