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
        ("ironcalc__calc_tests__FINANCIAL__IRR.xlsx", 31,
         "Excel's IRR stops at its own tolerance (\"accurate within 0.00001 percent\", Microsoft's IRR reference) and the NPV "
            + "of that rate is the rounding noise left (6.4212018552224666E-12 at General!M2): Newton from the 0.1 guess stopping "
            + "at that tolerance gives 0.07930826116052853, not Excel's 0.07930826116039724 (L2), and even Excel's own L2 digits give an "
            + "NPV of 6.419753617592505E-12 in double arithmetic (Horner's order 6.422024769723969E-12), so neither the IRRs near a "
            + "double root (1.091399510766422E-07 for 1,-2,1) nor the residuals can be reproduced; the engine finds the root to the last bit"),
        ("ironcalc__calc_tests__FINANCIAL__XIRR.xlsx", 10,
         "Excel's XIRR stops at its own tolerance (\"accurate within 0.000001 percent\", Microsoft's XIRR reference): R2 is "
            + "1.1859161972999572 where the root is 1.185916207982106, and Newton from the 0.1 guess stopping at that tolerance gives "
            + "1.1859162079820713 (one step later 1.1859162079821048), never Excel's digits; the rest differ in the 8th to 9th digit alike"),
        ("ironcalc__calc_tests__FINANCIAL__XNPV.xlsx", 3,
         "R2, R4, R5 are XIRR results, with the stopping point of Excel's XIRR iteration (see FINANCIAL__XIRR.xlsx)"),
        ("ironcalc__calc_tests__FINANCIAL__PRICE_YIELD.xlsx", 3,
         "ODDFYIELD K8, K31, K49 are where Excel's yield iteration stopped (0.0499999999321231 for a bond priced at a 5 % yield): "
            + "the engine solves to 0.05 within a unit of the 15th digit"),
        ("ironcalc__calc_tests__TEXT__T_VALUE_VALUETOTEXT.xlsx", 2,
         "VALUE of an ambiguous date text read day first: VALUE(\"10-12-1999\") is 36504 (1999-12-10) and VALUE(\"2/3/2023\") "
            + "44987 (2023-03-02), so a day-first locale calculated the file (its author's Spanish one); the file records no locale "
            + "and the engine reads ambiguous texts month first, as en-US Excel does"),
    ] + ["event_calendar", "gantt_project_tracker", "invoice", "weekly_timesheet", "yearly_calendar"].map { template in
        ("ironcalc__templates__\(template).xlsx", 1,
         "METADATA!B2 is NOW() to the fraction of a second: Excel read it in the author's local time (the caches are 2 hours ahead "
            + "of dcterms:modified's UTC, less the minute or so before the save) and the file records neither that time zone nor "
            + "the moment of calculation; TODAY() and the rest agree at the save moment")
    } + [
        ("ironcalc__DynamicArrays.xlsx", 1,
         "A19 is RANDARRAY(3,3,0,100,TRUE): Excel's random draw (52 at A19), volatile, which no engine reproduces; its shape, "
            + "bounds and whole numbers are DynamicArrayFunctionTests'"),
        ("ironcalc__calc_tests__ENGINEERING__BESSEL.xlsx", 10,
         "Excel's BESSELJ of order 1 for |x| >= 8 follows no approximation that can be rebuilt from the file: BESSELJ(10,1) is "
            + "0.04347224965225415 (BESSELJ!C14) where J1(10) is 0.0434727461688617 and the engine's large-x form "
            + "0.04347274633934274, BESSELJ(32,1) -0.0265890283162847 (C15) where J1(32) is -0.0265890284759052; one coefficient or "
            + "the phase of the large-x form fitted to C14 misses C15. The other eight misses are those two values carried on: "
            + "E14, E15 and F15 are exactly Excel's upward recurrence from its own order 0 and 1 (0.2167104380031489 from "
            + "-0.2459357644412996 and 0.04347224965225415), rows 19 and 20 are rows 14 and 15 at -x; order 0 agrees to the last digit"),
        ("ironcalc__calc_tests__STATISTICAL__BETADIST_BETAINV.xlsx", 1,
         "H16 BETA.INV back to a bound of -1 is rounding noise (-2.220446049250313E-16, the engine -1.1102230246251565E-16): "
            + "one unit in the last place of the [A,B] rescaling after Excel's inverse iteration"),
    ]

    /// Files with formulas and files with every formula right in the run the floors were set from
    /// (2026-12-06: 67/239 files, 26,745/84,612 cells at first; 131 and 31,685 with the financial and
    /// statistical families; 130 and 79,775 with engineering, database, text, information, math and
    /// date alone; 172 and 82,846 with all of them; 196 and 83,244 with XLOOKUP's search modes, the
    /// dynamic-array functions and the misses fixed one by one; 196 and 83,266 with the number-format
    /// renderer made total; 197 and 83,290 with TEXT's date codes mixed with `#` and General's small
    /// numbers; 198 and 83,297 with empty-string cells read as text; 207 and 83,316 with the reader taking
    /// Excel 365's rich-value errors (`#CALC!` stored as `#VALUE!` with a `vm`) and its dynamic arrays
    /// (`cm`) as they are; 207 and 83,560 with CHAR and CODE in Excel for Mac's character set for the
    /// files it saved; 214 and 83,708 with LET, LAMBDA and its helpers, and IF evaluating only the branch it
    /// picks; 214 and 83,814 with Excel's error precedence: scalar arguments before arrays, pairs read
    /// pair by pair with `#NULL!` passed over, LINEST's family answering `#VALUE!` for any error; 214 and
    /// 83,872 with the Analysis ToolPak's functions refusing ranges in array formulas; 215 and 83,878
    /// with a name that is no Excel function compared like any other cell, `=XYZ(1)` being `#NAME?`
    /// in Excel too; 215 and 83,889 with SUBTOTAL and AGGREGATE passing over nested totals; 215 and
    /// 83,772 with GROUPBY, PIVOTBY, PERCENTOF and TRIMRANGE alone, 216 and 83,953 with both; 216 and
    /// 83,732 with references to other workbooks read from the values their externalLink parts cache
    /// and structured-reference column names kept as written, a trailing space included, alone;
    /// 218 and 83,966 with all of them; 218 and 84,070 with date texts only day first read so; 218 and
    /// 84,104 with XMATCH's blank lookup value and binary probes, ISOWEEKNUM of serials 0 and 1 and
    /// COUNTIF meeting a date criterion's own text; 218 and 84,105 with a range to a sheet of another
    /// workbook `#VALUE!` when that sheet is not held too; 218 and 84,113 with AND, OR and XOR passing
    /// over text that is no truth value; 218 and 84,120 with IRR's values holding an error #VALUE!; 220 and 84,354 with NOW and TODAY read at each
    /// file's own save moment, `dcterms:modified`, where they were read at one fixed instant for every file;
    /// 220 and 84,390 with NUMBERVALUE's separators, YEARFRAC's, XIRR's and XNPV's argument rules, TYPE of a
    /// range in an array formula, HYPGEOM.DIST's counts of 0, CHISQ.TEST's shapes and errors, and FORECAST of
    /// an empty cell; 222 and 84,392 with `C2#` reading a legacy array formula's range; 222 and 84,405 with
    /// number formats showing a comma that follows no digit placeholder, and `#` exponent places; 222 and
    /// 84,414 with complex numbers' parts in scientific form past 21 characters and an imaginary 1 to 15 digits unwritten;
    /// 222 and 84,418 with IMDIV and IMSUB of mixed suffixes #NUM!; 222 and 84,436 with circular references
    /// found as computing reads them, not from static references, and their readers not computed; 223 and
    /// 84,446 with an array IF reading its branch ranges whole and each cell of an array range on a cycle on its own;
    /// 224 and 84,452 with PPMT and CUMPRINC's principal in closed form, not a payment less its interest;
    /// 223 and 84,454 with a boolean date or bound #VALUE! in EDATE, EOMONTH, WEEKNUM and RANDBETWEEN, GCD and LCM
    /// reading every argument before judging one, and FACTDOUBLE below -1 #NUM! before truncating; 223 and 84,460
    /// with the intersection operator meeting a union area by area and AREAS passing its #NULL! on; 223 and 84,465
    /// with ADDRESS's empty sheet text leaving just `!` and MODE.SNGL and MODE.MULT passing over empty texts; 223 and
    /// 84,469 with CHOOSECOLS and CHOOSEROWS refusing a block of indexes; 223 and 84,471 with FREQUENCY's bins
    /// holding no number read as one bin at 0; 223 and 84,472 with ARRAYTOTEXT's strict form of one empty cell #VALUE!,
    /// alone; 224 and 84,478 with them and the closed-form principal; 224 and 84,505 with LOOKUP and MATCH
    /// stopping at an equal value, XLOOKUP's search mode rounded down, INDEX's one index into a block #REF!,
    /// TAKE, DROP and WRAPROWS lifted over array counts, DATEDIF "YD" in the start's year, Excel for Mac's
    /// current character set, CONVERT's prefixed reading, and QUARTILE, T.DIST, Z.TEST, MODE.MULT,
    /// SUMPRODUCT, BESSELI/J at 0, REGEXEXTRACT and TEXT's argument rules; 224 and 84,508 with a number's
    /// text the double's own 15 digits and a fraction's `#` places empty before a `0` place);
    /// the engine may only get better.
    static let measuredFiles = 239
    static let measuredFilesRight = 224
    /// Compared and agreeing formula cells in that run.
    static let measuredCells = 84_612
    static let measuredCellsRight = 84_508

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
