import Foundation
import Testing
import SheetPortCore
import SheetPortReader
import SheetPortCalc
@testable import SheetPortConvert
import SheetPortTestSupport

/// The oracle goal of the calculation engine, measured through the project's own reader: every
/// worksheet of every corpus file loaded into one engine with the formula cells' cached values
/// withheld, recalculated, and each formula cell that had a cached value compared with it.
@Suite struct RecalcOracleTests {
    /// One formula cell the engine and the file disagree on, or nil when they agree.
    struct Miss: CustomStringConvertible {
        var file: String
        var ref: String
        var formula: String
        var cached: CellValue
        var computed: CalcValue
        var description: String { "\(file) \(ref) =\(formula.prefix(80)): cached \(cached), computed \(computed)" }
    }

    /// The disagreements seen in a run of this test (`swift test --filter RecalcOracleTests`), by
    /// file: the cells (a ref, or the cells' description), how many, and why, with the evidence.
    /// Every miss must be listed here and every listed count must still hold.
    static let listed: [(file: String, refs: String, count: Int, why: String)] = [
        ("poi__stress002.xlsx", "'CS Worksheet'!K31.., 'Schedule B'!.., 'Schedule D'!.., 'Schedule E'!..", 227,
         "VBA user-defined functions (CROUND, SROUND, TROUND, BROUNDTO in xl/vbaProject.bin): #NAME? without the cache, and every cell depending on them"),
        ("poi__47813.xlsx", "Numbers!B*, Numbers!C* (SIN/COS(RADIANS(x)) for x near multiples of 90)", 102,
         "trig last bits: the result is near 0, so the same absolute error (~1e-17) as Excel's is off in the 14th-16th digit (C92: cached 6.1257422745431e-17, computed 6.123233995736766e-17)"),
        ("phpspreadsheet__32readwriteComboChart1.xlsx", "'25 Year Non-Renewal Plan'!AP9, AP26, O36:AM36; Lookups!M3:N5", 32,
         "stale caches: AP values written with 14 digits (6666.6666666667); Lookups!L3 is the formula #REF! yet M3 = IF($L$3=\"Metric\",O3,P3) was cached \"in\""),
        ("poi__MatrixFormulaEvalTestData.xlsx", "H10..H126 (MDETERM, MINVERSE, MMULT)", 20,
         "MDETERM, MINVERSE and MMULT are not implemented by the engine (#NAME?)"),
        ("poi__clone_sheet.xlsx", "Arkusz1!M6:M21", 16,
         "formula L6-(-4,3): a comma-decimal constant Excel itself never stores; the engine cannot parse it (unsupported-formula)"),
        ("poi__testNames.xlsm", "B1, C1, A5, A6", 4, "VBA user-defined functions myFunc, myFunc2, crapName"),
        ("poi__ConditionalFormattingSamples.xlsx", "'Regional sales2'!B12:B13, 'Regional sales3'!B12", 3,
         "SUBTOTAL over a table with filtered rows: the engine does not know the autofilter's hidden rows (cached 1469066, computed 9071953)"),
        ("poi__bug67784.xlsx", "A6, A9", 2,
         "A6 refers to another workbook ([1]Sheet1!A1); A9 = A9*A9 is circular: 0 here, the file cached #VALUE!"),
        ("poi__61495-test.xlsm", "B1, B2", 2,
         "TEXT with comma-decimal formats: the file's cache comes from a comma-decimal locale (\"D 0.067\" for TEXT(67.1,\"00.00\"))"),
        ("phpspreadsheet__issue.2301.xlsx", "AN56, K57", 2, "stale caches: K57's IF(OR(AO56>400,...)) is \"M\" from the file's own values, cached \"H\""),
        ("phpspreadsheet__atsign.choosecols.xlsx", "F1, I1", 2, "CHOOSECOLS and CELL are not implemented (#NAME?)"),
        ("poi__stress020.xlsx", "C8", 1, "a reference to another workbook ([1]...)"),
        ("poi__link-external-workbook-b.xlsx", "A1", 1, "a reference to another workbook ([link-external-workbook-a.xlsx]Sheet0)"),
        ("poi__54436.xlsx", "A14", 1, "GETPIVOTDATA is not implemented (#NAME?)"),
        ("phpspreadsheet__excel-groupby-one.xlsx", "E3", 1, "GROUPBY is not implemented (#NAME?)"),
        ("excelize__CalcChain.xlsx", "B1", 1, "stale cache: A1 and B1 are both SUM(C1:D1) of empty cells, cached 0 and 1"),
        ("calamine__errors.xlsx", "Feuil1!A5", 1, "a reference to another workbook ([1]Feuil8!A1)"),
    ]

    /// Compared cells in the run the table was made from: a reader change that silently drops
    /// cells fails this lower bound.
    static let expectedDenominator = 6095
    /// Agreeing cells in that run: the engine may only get better.
    static let measuredHits = 5677

    static func measure(_ path: String, file: String) throws -> (compared: Int, volatile: Int, misses: [Miss]) {
        let workbook = try Workbook(path: path)
        let calculation = try WorkbookCalculation(workbook, withholdCachedValues: true,
                                                  clock: .fixed(unixTime: 1_780_000_000, utcOffsetSeconds: 0))
        let engine = calculation.engine
        let volatile = engine.volatileFormulaCells()
        var unsupported = Set(calculation.report.unsupportedFormulas.map(\.location))
        for function in calculation.report.unsupportedFunctions { unsupported.formUnion(function.cells) }
        var compared = 0, excluded = 0
        var misses: [Miss] = []
        for cell in calculation.formulaCells where cell.cached != .empty {
            if volatile.contains(cell.location) { excluded += 1; continue }
            compared += 1
            let computed = engine.value(at: cell.location.address, sheet: cell.location.sheet)
            if unsupported.contains(cell.location)
                || !WorkbookCalculation.agrees(cached: cell.cached, computed: computed, dateSystem: workbook.dateSystem) {
                misses.append(Miss(file: file, ref: calculation.reference(cell.location), formula: cell.formula,
                                   cached: cell.cached, computed: computed))
            }
        }
        return (compared, excluded, misses)
    }

    @Test func corpusFormulasRecomputeToTheirCachedValues() throws {
        var compared = 0, volatile = 0
        var misses: [Miss] = []
        var unreadable: [String] = []
        for file in Project.corpusFiles() where Project.expectedCorpusErrors[file] == nil {
            let path = Project.corpus.appendingPathComponent(file).path
            do {
                let measured = try Self.measure(path, file: file)
                compared += measured.compared
                volatile += measured.volatile
                misses += measured.misses
            } catch {
                unreadable.append("\(file): \(error)")
            }
        }
        try #require(compared > 0, "no corpus at \(Project.corpus.path)")
        for miss in misses where !Self.listed.contains(where: { $0.file == miss.file }) { print("oracle miss: \(miss)") }
        for file in unreadable { print("oracle unreadable: \(file)") }
        let hits = compared - misses.count
        print("oracle: \(hits)/\(compared) = \(Double(hits) / Double(compared) * 100)%; excluded \(volatile) volatile or depending on one")
        // Measured 5677/6095 (93.1 %) on the corpus of 2026-12-02.
        #expect(compared >= Self.expectedDenominator, "compared \(compared) formula cells, expected at least \(Self.expectedDenominator)")
        #expect(hits >= Self.measuredHits, "oracle hits \(hits)/\(compared), fewer than the \(Self.measuredHits) measured")
        // The goal, 99.5 %, is not met yet: user-defined (VBA) functions, trig last bits and
        // functions not implemented (see `listed`) keep it at 93.1 %.
        withKnownIssue("oracle goal 99.5 % not met: \(hits)/\(compared)") {
            #expect(Double(hits) >= 0.995 * Double(compared), "oracle hit rate \(hits)/\(compared)")
        }
        // Every miss is listed, and every listed count still holds (a fixed one leaves the list).
        var byFile: [String: Int] = [:]
        for miss in misses { byFile[miss.file, default: 0] += 1 }
        for entry in Self.listed {
            #expect(byFile[entry.file] == entry.count, "\(entry.file) \(entry.refs): \(byFile[entry.file] ?? 0) misses, listed \(entry.count) (\(entry.why))")
        }
        for (file, count) in byFile where !Self.listed.contains(where: { $0.file == file }) {
            Issue.record("\(file): \(count) unlisted disagreements")
        }
    }
}
