import Foundation
import Testing
@testable import SheetPortCalc
import SheetPortCore

/// Replays the inputs the `calc-bombs` fuzz target keeps (Fixtures/fuzz-regressions/calc-bombs/):
/// each formula, beside the grid's far corners and texts of 32,767 characters and at the head of
/// a doubling chain, ends in values or Excel's errors, never a text past the limit.
@Suite struct CalcBombReplayTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/fuzz-regressions/calc-bombs")

    static var inputs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test func theKeptInputsAreThere() {
        #expect(Self.inputs.count >= 16)
    }

    @Test(arguments: inputs)
    func endsWithinTheLimits(_ name: String) throws {
        // Read as the fuzz target reads its input: the first 4,096 bytes, invalid UTF-8 repaired.
        let bytes = try Data(contentsOf: Self.folder.appendingPathComponent(name)).prefix(4_096)
        let formula = String(decoding: bytes, as: UTF8.self)
        let long = String(repeating: "x", count: CalcLimits.maxTextLength)
        var cells: [String: Any] = ["A1": 1, "A2": long, "A3": "ab", "A4": 1_000_000_000, "XFD1": 1, "A1048576": 2,
                                    "B1": long, "B2": 32_767, "C1": "=" + formula, "D1": "=SUM(LEN(C1#))+ROWS(C1#)"]
        for row in 2...17 { cells["C\(row)"] = "=C\(row - 1)&C\(row - 1)" }
        let e = LimitTests.engine(cells, limits: CalcLimits(maxArrayCells: 1_000_000, maxEvalBytes: 32 << 20, maxEvalSteps: 10_000_000))
        e.setInputs([CellInput(location: CellLocation(sheet: 0, cell: CellReference("A1")!), content: .value(.number(1_048_576)))])
        for row in 1...17 {
            for column in ["C", "D"] {
                if case .text(let t) = LimitTests.value(e, "\(column)\(row)") {
                    #expect(CalcLimits.fits(t), "\(name): \(column)\(row) holds \(t.utf16.count) characters")
                }
            }
        }
        // The long chain ends in #VALUE! wherever the texts double past the limit.
        if case .text(let t) = LimitTests.value(e, "C1"), t.utf16.count > 2_048 { #expect(LimitTests.value(e, "C17") == .error(.value)) }
    }
}
