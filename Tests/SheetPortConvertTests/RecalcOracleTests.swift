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
        ("poi__stress002.xlsx", "'CS Worksheet'!K31.., 'Schedule B'!.., 'Schedule D'!.., 'Schedule E'!..", 152,
         "VBA user-defined functions (CROUND, SROUND, TROUND, BROUNDTO in xl/vbaProject.bin): #NAME? without the cache, and every cell depending on them "
            + "(the 75 whose IF never reaches them agree, now that a name Excel does not know is compared like any other)"),
        ("phpspreadsheet__32readwriteComboChart1.xlsx", "'25 Year Non-Renewal Plan'!AP9, AP26, O36:AM36; Lookups!M3:N5", 32,
         "stale caches written by PhpSpreadsheet (its app.xml says Microsoft Excel, but workbook.xml has PhpSpreadsheet's calcId=\"999999\"): AP values with 14 digits (6666.6666666667, computed 6666.666666666667); Lookups!L3 is the formula #REF! yet M3 = IF($L$3=\"Metric\",O3,P3) was cached \"in\""),
        ("poi__clone_sheet.xlsx", "Arkusz1!M6:M21", 16,
         "formula L6-(-4,3): a comma-decimal constant Excel itself never stores; the engine cannot parse it (unsupported-formula). LibreOffice wrote the file (workbook.xml fileVersion appName=\"Calc\")"),
        ("poi__testNames.xlsm", "B1, C1, A5, A6", 3, "VBA user-defined functions myFunc, myFunc2, crapName (one cell agrees with Excel's cached #NAME?)"),
        ("poi__bug67784.xlsx", "A6, A9", 2,
         "A6 refers to another workbook ([1]Sheet1!A1); A9 = A9*A9 is circular: 0 here, the file cached #VALUE!"),
        ("poi__61495-test.xlsm", "B1, B2", 2,
         "TEXT computed in a German locale: \"00.00\" read with . as the thousands separator (67.1 -> \"0.067\") and \"00,00\" with the decimal comma (68.2 -> \"68,20\"). "
            + "The file shows German Excel (app.xml's HeadingPairs \"Arbeitsblätter\", number formats with _€ and _D_M_), but the separators TEXT used are the system's regional settings, which no part records: the engine formats as en-US"),
        ("phpspreadsheet__issue.2301.xlsx", "AN56, K57", 2, "stale caches: K57 = IF(OR(AO56>400,AND(AM57>400,AO56=0)),\"M\",\"H\") is \"M\" from the file's own values (AM57 = 38980, AO56 empty, the top-left of the merged AO56:AS56), cached \"H\"; AN56 reads K57"),
        ("poi__link-external-workbook-b.xlsx", "A1", 1, "a reference to another workbook ([link-external-workbook-a.xlsx]Sheet0) whose link part (POI's) caches no values: #REF! as the contract has it, POI cached 30 read from the other file"),
        ("excelize__CalcChain.xlsx", "B1", 1, "stale cache: A1 and B1 are both SUM(C1:D1) of empty cells, cached 0 and 1. A hand-made fixture, not an Excel save, so out of the built-in figure (`savedByExcel`): xl/calcChain.xml is related from nothing (Excel relates it from the workbook) and names a second sheet (i=2) the workbook does not have, xl/SharedStrings.xml is capitalised"),
    ]

    /// Compared cells in the run the table was made from: a reader change that silently drops
    /// cells fails this lower bound.
    static let expectedDenominator = 6095
    /// Agreeing cells in that run: the engine may only get better.
    static let measuredHits = 5884
    /// The second figure's compared cells and agreeing cells in that run (see `Measure`).
    static let expectedBuiltinDenominator = 4809
    static let measuredBuiltinHits = 4805


    /// One file's measure: the literal figure's counts and misses, and the second figure's: only
    /// files Excel saved, leaving out the cells the contract keeps cached (user-defined functions,
    /// links to other workbooks) and the cells depending on them.
    struct Measure {
        var compared = 0
        var volatile = 0
        var misses: [Miss] = []
        var excelSaved = false
        /// docProps/app.xml names Excel, whoever wrote the file.
        var namesExcel = false
        var builtinCompared = 0
        var builtinMisses: [Miss] = []
        var userDefined: Set<String> = []
        var hasVBAProject = false
    }

    /// A part of the package as text, or "" when it is missing.
    static func part(_ name: String, of workbook: Workbook) -> String {
        guard let entry = workbook.archive.entry(named: name) else { return "" }
        var bytes: [UInt8] = []
        try? workbook.archive.read(entry) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The producer `docProps/app.xml` names (`Microsoft Excel`, `Microsoft Macintosh Excel`, ...), or "".
    static func application(of workbook: Workbook) -> String {
        let xml = part("docProps/app.xml", of: workbook)
        guard let start = xml.range(of: "<Application>"), let end = xml.range(of: "</Application>", range: start.upperBound..<xml.endIndex) else { return "" }
        return String(xml[start.upperBound..<end.lowerBound])
    }

    /// Whether Excel saved the file last. `docProps/app.xml` alone does not tell: PhpSpreadsheet
    /// and openpyxl write `Microsoft Excel` there too. Excel also writes `<fileVersion appName="xl">`
    /// in `xl/workbook.xml` (LibreOffice writes `appName="Calc"`, openpyxl none) and its own
    /// engine's `calcId`; PhpSpreadsheet (and PHPExcel before it) write `calcId="999999"`, "a higher
    /// value than Excel itself will use" (Writer/Xlsx/Workbook.php, `writeCalcPr`). And Excel
    /// writes a whole package: the package relationships (`_rels/.rels`) and, when it keeps a
    /// calculation chain, the workbook's relationship to it (ECMA-376 Part 1, 12.3.1: the chain
    /// is the target of an implicit relationship from the workbook part); a `xl/calcChain.xml`
    /// nothing relates to was put into the package by hand.
    static func savedByExcel(_ workbook: Workbook) -> Bool {
        let application = Self.application(of: workbook)
        guard application.hasPrefix("Microsoft"), application.contains("Excel") else { return false }
        guard workbook.archive.contains("_rels/.rels") else { return false }
        if workbook.archive.contains("xl/calcChain.xml"),
           !part("xl/_rels/workbook.xml.rels", of: workbook).contains("relationships/calcChain\"") { return false }
        let xml = part("xl/workbook.xml", of: workbook)
        guard let start = xml.range(of: "<fileVersion "),
              let end = xml.range(of: ">", range: start.upperBound..<xml.endIndex),
              xml[start.upperBound..<end.lowerBound].contains("appName=\"xl\"") else { return false }
        return !xml.contains("calcId=\"999999\"")
    }

    /// `countingVolatile`: volatile cells (and cells depending on one) are compared too, as the
    /// calculation suite counts every cell; the corpus figure leaves them out.
    /// `relativeTolerance`: numbers also agree within it (the calculation suite's rule, 1e-9
    /// relative); without it, to Excel's 15 significant digits.
    static func measure(_ path: String, file: String, countingVolatile: Bool = false,
                        relativeTolerance: Double? = nil) throws -> Measure {
        let workbook = try Workbook(path: path)
        // NOW() and TODAY() are read at the moment the file was saved (its `dcterms:modified`):
        // Excel calculated just before saving, so that is the moment its cached values were taken,
        // and the fair oracle for them. The offset is UTC's, as the file records no time zone. A
        // file without the property gets a fixed instant, which its volatile cells will not match.
        let saved = workbook.lastModified()?.timeIntervalSince1970 ?? 1_780_000_000
        // RAND's draws are seeded, so a volatile cell matching Excel's draw by chance (RANDARRAY's
        // 52 at 1 in 101) cannot change the figures from one run to the next.
        let calculation = try WorkbookCalculation(workbook, withholdCachedValues: true,
                                                  clock: .fixed(unixTime: saved, utcOffsetSeconds: 0), randomSeed: 1)
        let engine = calculation.engine
        let volatile = engine.volatileFormulaCells()
        // A call to an Excel built-in the engine lacks is a miss whatever it computes; a name that
        // is no Excel function (`=XYZ(1)`, a user-defined one) is #NAME? in Excel as in the engine,
        // so its cells are compared like any other (IFERROR(XYZ(1),"caught") agrees with Excel).
        var unsupported = Set(calculation.report.unsupportedFormulas.map(\.location))
        for function in calculation.report.unsupportedFunctions where CalcEngine.isExcelFunction(function.name) {
            unsupported.formUnion(function.cells)
        }
        var m = Measure()
        m.excelSaved = Self.savedByExcel(workbook)
        let application = Self.application(of: workbook)
        m.namesExcel = application.hasPrefix("Microsoft") && application.contains("Excel")
        m.hasVBAProject = workbook.archive.contains("xl/vbaProject.bin")
        // Cells the contract keeps cached: calls to user-defined (VBA, add-in) functions, formulas
        // linking to other workbooks; with every cell depending on them.
        var kept: [CellLocation] = calculation.report.unsupportedFormulas.filter(\.reason.isExternalReference).map(\.location)
        for function in calculation.report.unsupportedFunctions where !CalcEngine.isExcelFunction(function.name) {
            let prefixed = function.cells.contains { cell in
                calculation.formulaCells.first { $0.location == cell }?.formula.uppercased().contains("_XLFN." + function.name + "(") == true
            }
            guard !prefixed else { continue }  // a newer Excel built-in, not a user-defined function
            m.userDefined.insert(function.name)
            kept += function.cells
        }
        let keptCells = kept.isEmpty ? [] : engine.formulaCells(dependingOn: kept)
        for cell in calculation.formulaCells where cell.cached != .empty {
            if volatile.contains(cell.location) {
                m.volatile += 1
                if !countingVolatile { continue }
            }
            m.compared += 1
            let builtin = m.excelSaved && !keptCells.contains(cell.location)
            if builtin { m.builtinCompared += 1 }
            let computed = engine.value(at: cell.location.cell, sheet: cell.location.sheet)
            if unsupported.contains(cell.location)
                || !(WorkbookCalculation.agrees(cached: cell.cached, computed: computed, dateSystem: workbook.dateSystem)
                     || Self.within(relativeTolerance, cached: cell.cached, computed: computed)) {
                let miss = Miss(file: file, ref: calculation.reference(cell.location), formula: cell.formula,
                                cached: cell.cached, computed: computed)
                m.misses.append(miss)
                if builtin { m.builtinMisses.append(miss) }
            }
        }
        return m
    }

    /// Both numbers, within `tolerance` of each other relative to the larger.
    static func within(_ tolerance: Double?, cached: CellValue, computed: CalcValue) -> Bool {
        guard let tolerance, case .number(let a) = cached, case .number(let b) = computed else { return false }
        return abs(a - b) <= tolerance * max(abs(a), abs(b))
    }

    @Test func corpusFormulasRecomputeToTheirCachedValues() throws {
        var compared = 0, volatile = 0, builtinCompared = 0
        var misses: [Miss] = [], builtinMisses: [Miss] = []
        var unreadable: [String] = []
        for file in Project.corpusFiles() where Project.expectedCorpusErrors[file] == nil {
            let path = Project.corpus.appendingPathComponent(file).path
            do {
                let measured = try Self.measure(path, file: file)
                compared += measured.compared
                volatile += measured.volatile
                misses += measured.misses
                builtinCompared += measured.builtinCompared
                builtinMisses += measured.builtinMisses
                if measured.namesExcel, !measured.excelSaved, measured.compared > 0 {
                    print("oracle: \(file) names Excel in app.xml but Excel did not save it: \(measured.compared) cells, \(measured.misses.count) misses, left out of the built-in figure")
                }
                // A function taken for a user-defined one must have a home: the file's VBA project or an add-in.
                for name in measured.userDefined where !measured.hasVBAProject && !name.hasPrefix("_XLL.") {
                    Issue.record("\(file): \(name) is not implemented and the file has no VBA project: an Excel built-in missing from CalcEngine.excelFunctionsNotImplemented?")
                }
            } catch {
                unreadable.append("\(file): \(error)")
            }
        }
        try #require(compared > 0, "no corpus at \(Project.corpus.path)")
        for miss in misses where !Self.listed.contains(where: { $0.file == miss.file }) { print("oracle miss: \(miss)") }
        for file in unreadable { print("oracle unreadable: \(file)") }
        let hits = compared - misses.count
        print("oracle: \(hits)/\(compared) = \(Double(hits) / Double(compared) * 100)%; excluded \(volatile) volatile or depending on one")
        let builtinHits = builtinCompared - builtinMisses.count
        print("oracle, Excel's built-in functions in files Excel saved: \(builtinHits)/\(builtinCompared) = \(Double(builtinHits) / Double(max(builtinCompared, 1)) * 100)%")
        for miss in builtinMisses { print("oracle built-in miss: \(miss)") }
        // Measured 5884/6095 with GETPIVOTDATA; 5883/6095 once CELL("width") and CELL without a reference read the file's column widths and selected cell; 5880/6095 with GROUPBY beside it; 5879/6095 (96.5 %) once a name that is no Excel function stopped counting as a
        // miss by itself (the calls to user-defined functions an IF never reaches agree); 5803/6095 (95.2 %) on the corpus of 2026-12-02 (5677, 93.1 %, before the x87-pi
        // trigonometry, the matrix functions, CHOOSECOLS, CELL and hidden rows for SUBTOTAL).
        #expect(compared >= Self.expectedDenominator, "compared \(compared) formula cells, expected at least \(Self.expectedDenominator)")
        #expect(hits >= Self.measuredHits, "oracle hits \(hits)/\(compared), fewer than the \(Self.measuredHits) measured")
        // The second figure, labelled as such: Excel's built-in functions in files Excel saved
        // (`savedByExcel`: app.xml names Excel and workbook.xml carries Excel's own marks), without
        // the cells the contract keeps cached (user-defined VBA/add-in functions, links to other
        // workbooks) and their dependents. Measured 4805/4809 (99.92 %) with GETPIVOTDATA reading the
        // pivot table's cells; 4804/4809 (99.90 %) once CELL("width") read the
        // column widths and a hand-assembled package (excelize__CalcChain.xlsx, 2 cells) left the
        // files Excel saved; 4803/4811 (99.83 %; 4802/4810 before links to other workbooks read their cached values, 4804 with GROUPBY and the error semantics beside them); 5587/5643 (99.0 %) when
        // app.xml alone decided, which counted a file PhpSpreadsheet wrote (748 cells, its own
        // 14-digit caches) and one LibreOffice wrote (85 cells) as Excel's. Its 4 misses are in
        // `listed`: stale caches (phpspreadsheet__issue.2301) and a comma-decimal locale's TEXT.
        #expect(builtinCompared >= Self.expectedBuiltinDenominator, "built-in figure compared \(builtinCompared), expected at least \(Self.expectedBuiltinDenominator)")
        #expect(builtinHits >= Self.measuredBuiltinHits, "built-in figure \(builtinHits)/\(builtinCompared), fewer than the \(Self.measuredBuiltinHits) measured")
        #expect(Double(builtinHits) >= 0.995 * Double(builtinCompared), "built-in figure \(builtinHits)/\(builtinCompared) below the 99.5 % goal")
        #expect(Double(builtinHits) >= 0.999 * Double(builtinCompared), "built-in figure \(builtinHits)/\(builtinCompared) below the 99.9 % goal")
        // The goal, 99.5 % of the literal figure, is not met and cannot be by the engine: of its
        // 211 misses, 155 are VBA user-defined functions (poi__stress002, poi__testNames) with
        // their dependents, 48 are caches other producers wrote (PhpSpreadsheet, LibreOffice's
        // comma-decimal formula), 3 link to other workbooks or are circular, 1 is a hand-made
        // package's stale cache, and 4 are the second figure's; every one is in `listed` with its evidence.
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
