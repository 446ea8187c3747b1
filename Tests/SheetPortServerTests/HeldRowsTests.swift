import Testing
@testable import SheetPortServer
import SheetPortCore
import SheetPortTestSupport

/// The rows an import holds packed until its formulas are computed come back exactly as given:
/// every value kind, formulas and array formulas, heights, hidden rows, any text.
@Suite struct HeldRowsTests {
    @Test func rowsComeBackExactly() throws {
        var generator = SeededGenerator(state: 7)
        let texts = ["", "x", "é€𝄞", String(repeating: "long text ", count: 40), "tab\tnew\nline\u{0}", "=A1"]
        func value() -> CellValue {
            switch Int.random(in: 0..<9, using: &generator) {
            case 0: .empty
            case 1: .number([0, -0.0, 1e308, -5e-324, .infinity, 3.14159, Double(Int.random(in: -1_000_000...1_000_000, using: &generator))].randomElement(using: &generator)!)
            case 2: .string(texts.randomElement(using: &generator)!)
            case 3: .boolean(Bool.random(using: &generator))
            case 4: .error(["#N/A", "#DIV/0!", "#REF!"].randomElement(using: &generator)!)
            case 5: .date(serial: Double.random(in: 0...80_000, using: &generator))
            case 6: .duration(days: Double.random(in: 0...3, using: &generator))
            case 7: .isoDate("2026-12-03T10:00:00")
            default: .number(.nan)
            }
        }
        for _ in 0..<200 {
            var rows: [Row] = []
            var index = Int.random(in: 1...1_000, using: &generator)
            for _ in 0..<Int.random(in: 0...64, using: &generator) {
                index += Int.random(in: 1...3, using: &generator)
                var cells: [Cell] = []
                var column = 0
                for _ in 0..<Int.random(in: 0...12, using: &generator) {
                    column += Int.random(in: 1...2_000, using: &generator)
                    let formula: String? = Bool.random(using: &generator) ? "SUM(A1:B\(index))+\(texts.randomElement(using: &generator)!.count)" : nil
                    let kind: FormulaKind = formula != nil && Int.random(in: 0..<5, using: &generator) == 0 ? .array(range: "C\(index):D\(index + 2)") : .normal
                    cells.append(Cell(column: column, value: value(), formula: formula, formulaKind: kind, styleIndex: Int.random(in: 0...70_000, using: &generator)))
                }
                rows.append(Row(index: index, height: Bool.random(using: &generator) ? Double.random(in: 0...409, using: &generator) : nil,
                                isHidden: Bool.random(using: &generator), cells: cells))
            }
            let back = try HeldRows(rows).rows()
            // NaN is not equal to itself: compare the bit patterns of numbers, everything else as is.
            #expect(back.count == rows.count)
            for (a, b) in zip(back, rows) {
                #expect(a.index == b.index && a.height == b.height && a.isHidden == b.isHidden && a.cells.count == b.cells.count)
                for (x, y) in zip(a.cells, b.cells) {
                    if case .number(let p) = x.value, case .number(let q) = y.value {
                        #expect(p.bitPattern == q.bitPattern)
                        #expect(x.column == y.column && x.formula == y.formula && x.formulaKind == y.formulaKind && x.styleIndex == y.styleIndex)
                    } else {
                        #expect(x == y)
                    }
                }
            }
        }
    }

    /// A compressed block holds its compressed bytes alone, not the buffer of zstd's bound: an
    /// import holds every block with a formula until the sheet is computed (issue 40), and each
    /// was held at its uncompressed size. Empty, incompressible and one-byte payloads too.
    @Test func compressedBytesHoldNoMoreThanTheirSize() throws {
        var random = SystemRandomNumberGenerator()
        let noise = (0..<50_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        for payload in [[UInt8](repeating: 7, count: 200_000), noise, [], [0]] {
            let compressed = RowBlock.compress(payload, format: 0x48)
            #expect(compressed.capacity <= compressed.count + 64, "\(payload.count) bytes: \(compressed.count) kept in \(compressed.capacity)")
            #expect(try RowBlock.decompress(compressed) == payload)
        }
        let rows = (1...64).map { Row(index: $0, cells: (1...10).map { Cell(column: $0, value: .number(Double($0))) }) }
        let held = HeldRows(rows)
        #expect(try held.rows() == rows)
    }
}
