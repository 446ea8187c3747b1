import Testing
@testable import SheetPortCalc
import SheetPortCore

/// Comparison criteria (`">"&A2`, `"<=10"`) over one range share one sorted index of its numbers
/// (`Evaluator.comparisonMatches`): the results are those of testing every cell with the
/// criterion, cell for cell, over numbers, numeric texts, texts, booleans, errors and blanks.
@Suite struct ComparisonCriteriaIndexTests {
    /// Column A's hostile values (row 1 on), column B a number a row.
    static let column: [CalcValue] = [
        .number(5), .text("5"), .number(-3), .empty, .boolean(true), .error(.notAvailable), .number(5.000000000000001),
        .number(4.999999999999999), .text("abc"), .number(0.30000000000000004), .number(0.1 + 0.2), .text(""), .number(1e5),
        .text("1E5"), .number(-1e-300), .number(0), .number(.greatestFiniteMagnitude), .text("NaN"), .number(5), .boolean(false),
        .number(100_000.000_000_001), .text(">5"), .number(-0.0), .number(12), .number(7),
    ]

    static let criteria: [CalcValue] = [
        ">5", ">=5", "<5", "<=5", ">-1e-300", "<0.3", ">0.30000000000000004", ">=1E5", "<1e5", ">", ">=", "<", "<=abc", ">=abc",
        ">NaN", "<>5", ">TRUE", "<#N/A", ">-0", ">  5", ">5 ", ">1.7976931348623157e308", "<=-1e999",
    ].map { CalcValue.text($0) } + [.number(5), .empty]

    @Test func matchesTestingEveryCell() throws {
        let e = CalcEngine()
        let s = e.addSheet("S")
        for (k, v) in Self.column.enumerated() {
            if v != .empty { e.setValue(v, at: CellReference(row: k + 1, column: 1), sheet: s) }
            e.setValue(.number(Double(k * k) / 7), at: CellReference(row: k + 1, column: 2), sheet: s)
        }
        for (k, criterion) in Self.criteria.enumerated() {
            e.setValue(criterion, at: CellReference(row: k + 1, column: 3), sheet: s)
            let c = "C\(k + 1)"
            for (j, formula) in ["COUNTIF(A1:A25,\(c))", "SUMIF(A1:A25,\(c),B1:B25)", "AVERAGEIF(A:A,\(c),B:B)",
                                 "COUNTIFS(A1:A25,\(c),B1:B25,\">1\")", "SUMIFS(B:B,A:A,\(c))", "MAXIFS(B1:B25,A1:A25,\(c))"].enumerated() {
                e.setFormula(formula, at: CellReference(row: k + 1, column: 5 + j), sheet: s)
            }
        }
        e.recalculate()
        for (k, criterion) in Self.criteria.enumerated() {
            let test = Criterion(criterion, system: .excel1900)
            let rows = Self.column.indices.filter { test.matches(Self.column[$0]) }
            let values = rows.map { Double($0 * $0) / 7 }
            let sum = values.reduce(0, +)
            let expected: [CalcValue] = [.number(Double(rows.count)), .number(sum),
                                         rows.isEmpty ? .error(.divisionByZero) : .number(sum / Double(rows.count)),
                                         .number(Double(values.filter { $0 > 1 }.count)), .number(sum), .number(values.max() ?? 0)]
            for (j, want) in expected.enumerated() {
                let got = e.value(at: CellReference(row: k + 1, column: 5 + j), sheet: s)
                #expect(got == want, "criterion \(criterion), formula \(j): \(got), expected \(want)")
            }
        }
    }

    @Test func aColumnOfComparisonsBuildsOneIndex() throws {
        let e = CalcEngine()
        let s = e.addSheet("S")
        let n = 3_000
        var values: [Double] = []
        for r in 1...n {
            let x = Double((r * 7_919) % 1_000) / 4
            values.append(x)
            e.setValue(.number(x), at: CellReference(row: r, column: 1), sheet: s)
            e.setFormula("SUMIF(A:A,\">\"&A\(r))", at: CellReference(row: r, column: 2), sheet: s)
            e.setFormula("COUNTIF(A:A,\"<=\"&A\(r))", at: CellReference(row: r, column: 3), sheet: s)
        }
        e.recalculate()
        for r in [1, 2, 17, 1_500, n] {
            let x = values[r - 1]
            let sum = values.filter { $0 > x }.reduce(0, +)
            #expect(e.value(at: CellReference(row: r, column: 2), sheet: s) == .number(sum))
            #expect(e.value(at: CellReference(row: r, column: 3), sheet: s) == .number(Double(values.filter { $0 <= x }.count)))
        }
        // One sorted index for column A, shared by every row's two criteria, and one set of running sums for SUMIF.
        #expect(e.lookupCache.builds == 2)
    }
}
