import Foundation
import Testing
import SheetPortCore
import SheetPortTestSupport

/// The second oracle: `../shared/calc-suite`, 248 workbooks whose formula cells carry the values
/// Excel computed, one function family a file (IronCalc's and the `formulas` project's tests).
/// Each is read through the project's reader with its cached values withheld, recalculated, and
/// every formula cell compared with what Excel cached, volatile ones included (numbers to 1e-9
/// relative, as the suite's README prescribes; text, booleans and errors exactly). The figures are per
/// file (every formula of the file right) and per cell.
///
/// `CALC_SUITE_FILTER=FINANCIAL swift test --filter CalcSuiteOracleTests` measures the files whose
/// name holds the text (a family while it is being built); `CALC_SUITE_REPORT=path` writes every
/// miss there.
@Suite struct CalcSuiteOracleTests {
    /// Files with misses no engine can match, with the evidence: every miss of these files is
    /// accounted for by the reason (volatile results, a locale's formatting, ...).
    static let listed: [(file: String, count: Int, why: String)] = [
        ("ironcalc__calc_tests__STATISTICAL__GEOMEAN.xlsx", 19,
         "its cached values were not written by Excel: every error is stored as text (t=\"str\", \"#NUM!\", even NA()'s \"#N/A\"), "
            + "never equal to an error value"),
    ]

    /// Files with formulas and files with every formula right in the run the floors were set from
    /// (2026-12-06: 67/239 files, 26,745/84,612 cells at first; 131 and 31,685 with the financial and
    /// statistical families; 130 and 79,775 with engineering, database, text, information, math and
    /// date alone; 172 and 82,846 with all of them); the engine may only get better.
    static let measuredFiles = 239
    static let measuredFilesRight = 172
    /// Compared and agreeing formula cells in that run.
    static let measuredCells = 84_612
    static let measuredCellsRight = 82_846

    @Test func calcSuiteRecomputesToExcelsValues() throws {
        let filter = ProcessInfo.processInfo.environment["CALC_SUITE_FILTER"]
        let files = Project.calcSuiteFiles().filter { name in filter.map { name.contains($0) } ?? true }
        try #require(!files.isEmpty, "no calculation suite at \(Project.calcSuite.path)")
        var withFormulas = 0, filesRight = 0, cells = 0, cellsRight = 0
        var report: [String] = []
        var missesByFile: [String: Int] = [:]
        for file in files {
            let measured: RecalcOracleTests.Measure
            do {
                measured = try RecalcOracleTests.measure(Project.calcSuite.appendingPathComponent(file).path, file: file, countingVolatile: true,
                                                       relativeTolerance: 1e-9)
            } catch {
                report.append("calc-suite: \(file): unreadable: \(error)")
                Issue.record("\(file): unreadable: \(error)")
                continue
            }
            guard measured.compared > 0 else { continue }
            withFormulas += 1
            cells += measured.compared
            cellsRight += measured.compared - measured.misses.count
            if measured.misses.isEmpty {
                filesRight += 1
            } else {
                missesByFile[file] = measured.misses.count
                report.append("calc-suite: \(file): \(measured.compared - measured.misses.count)/\(measured.compared)")
                report += measured.misses.map { "  miss: \($0)" }
            }
        }
        let summary = "calc-suite: files with every formula right \(filesRight)/\(withFormulas) "
            + "(\(String(format: "%.1f", Double(filesRight) / Double(max(withFormulas, 1)) * 100)) %), "
            + "cells \(cellsRight)/\(cells) (\(String(format: "%.2f", Double(cellsRight) / Double(max(cells, 1)) * 100)) %)"
        if let path = ProcessInfo.processInfo.environment["CALC_SUITE_REPORT"] {
            try (report + [summary]).joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
        for line in report where !line.hasPrefix("  miss") { print(line) }
        print(summary)
        guard filter == nil else { return }
        #expect(withFormulas == Self.measuredFiles, "\(withFormulas) files with formulas, expected \(Self.measuredFiles)")
        #expect(filesRight >= Self.measuredFilesRight, "\(filesRight) files right, fewer than the \(Self.measuredFilesRight) measured")
        #expect(cells >= Self.measuredCells, "compared \(cells) cells, expected at least \(Self.measuredCells)")
        #expect(cellsRight >= Self.measuredCellsRight, "\(cellsRight) cells right, fewer than the \(Self.measuredCellsRight) measured")
        // The goals: every formula right in 95 % of the files, 99.5 % of the cells.
        withKnownIssue("calculation suite goals not met yet: \(summary)", isIntermittent: true) {
            #expect(Double(filesRight) >= 0.95 * Double(withFormulas), "\(summary)")
            #expect(Double(cellsRight) >= 0.995 * Double(cells), "\(summary)")
        }
        // Every listed file's misses still stand at the listed count (a fixed one leaves the list).
        for entry in Self.listed {
            #expect(missesByFile[entry.file] == entry.count, "\(entry.file): \(missesByFile[entry.file] ?? 0) misses, listed \(entry.count) (\(entry.why))")
        }
    }
}
