import SheetPortTestSupport
import Foundation
import Testing

/// Issue 39, items 2 and 3: `convert` computes formulas that have no cached value (openpyxl and
/// pandas write none), says so on standard error, and names the functions the engine lacks.
@Suite struct MissingFormulaValuesTests {
    private func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test func formulasWithoutCachedValuesAreComputedAndCounted() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("pandas.xlsx").path
        // A second sheet the formulas refer to: the whole workbook is loaded for them.
        try writeWithOpenpyxl("""
            ws.append(["qty", "price", "total", "label"])
            ws.append([2, 1.5, "=A2*B2", '=IF(C2>2,"big","small")'])
            ws.append([3, 4, "=A3*B3", '=IF(C3>2,"big","small")'])
            other = wb.create_sheet("Rates"); other["A1"] = 0.25
            ws["E2"] = "=C2*Rates!A1"
            """, to: book)
        let csv = try runSheetport(["convert", book, "--line-ending", "lf"])
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(text(csv.stdout) == "qty,price,total,label,\n2,1.5,3,big,0.75\n3,4,12,big,\n", "\(text(csv.stdout))")
        // openpyxl also asks for a recalculation on opening (fullCalcOnLoad).
        #expect(csv.stderr.contains("computed 5 formulas: the workbook asks to be recalculated when opened"), "\(csv.stderr)")
        let records = try runSheetport(["convert", book, "--to", "ndjson"])
        #expect(text(records.stdout).hasPrefix(#"{"qty":2,"price":1.5,"total":3,"label":"big","col_E":0.75}"#), "\(text(records.stdout))")

        // --no-recalc: the old behaviour, empty fields and nothing said.
        let plain = try runSheetport(["convert", book, "--line-ending", "lf", "--no-recalc"])
        #expect(plain.status == 0 && text(plain.stdout) == "qty,price,total,label,\n2,1.5,,,\n3,4,,,\n", "\(text(plain.stdout))")
        #expect(!plain.stderr.contains("computed"))
        let contradiction = try runSheetport(["convert", book, "--recalc", "--no-recalc"])
        #expect(contradiction.status == 2 && contradiction.stderr.contains("--no-recalc"), "\(contradiction.stderr)")

        // --all: every sheet's computed formulas are counted once, and the files hold them.
        let out = folder.appendingPathComponent("all").path
        let all = try runSheetport(["convert", book, "--all", "-o", out, "--line-ending", "lf"])
        #expect(all.status == 0 && all.stderr.contains("computed 5 formulas"), "\(all.stderr)")
        #expect(text(try Data(contentsOf: URL(fileURLWithPath: out + "/Sheet.csv"))).contains("2,1.5,3,big,0.75"))
    }

    /// XlsxWriter (and pandas through it) stores 0 for every formula and asks for a full
    /// calculation on opening (`fullCalcOnLoad`), as Excel then shows computed values: convert
    /// computes every formula of such a workbook; --no-recalc writes the stored 0s.
    @Test func workbooksThatRecalculateOnLoadAreComputed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("xlsxwriter.xlsx").path
        _ = try runPython("""
            import sys, xlsxwriter
            wb = xlsxwriter.Workbook(sys.argv[1])
            ws = wb.add_worksheet()
            ws.write_row('A1', [2, 3]); ws.write_formula('C1', '=A1*B1'); ws.write_formula('D1', '=C1&"x"')
            wb.close()
            """, arguments: [book])
        let computed = try runSheetport(["convert", book, "--line-ending", "lf"])
        #expect(computed.status == 0 && text(computed.stdout) == "2,3,6,6x\n", "\(text(computed.stdout)) \(computed.stderr)")
        #expect(computed.stderr.contains("computed 2 formulas: the workbook asks to be recalculated when opened"), "\(computed.stderr)")
        let stored = try runSheetport(["convert", book, "--line-ending", "lf", "--no-recalc"])
        #expect(stored.status == 0 && text(stored.stdout) == "2,3,0,0\n" && !stored.stderr.contains("computed"), "\(text(stored.stdout))")
    }

    /// Cached values are kept unless --recalc: a stale cache is the file's answer by default.
    @Test func cachedValuesAreKeptWithoutRecalc() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("cached.xlsx").path
        try RawWorkbook(sheets: [RawWorkbook.Sheet(name: "S", sheetData: """
            <row r="1"><c r="A1"><v>2</v></c><c r="B1"><f>A1*10</f><v>99</v></c><c r="C1"><f>A1+1</f></c></row>
            """)]).write(to: book)
        let kept = try runSheetport(["convert", book, "--line-ending", "lf"])
        #expect(kept.status == 0 && text(kept.stdout) == "2,99,3\n", "\(text(kept.stdout)) \(kept.stderr)")
        #expect(kept.stderr.contains("computed 1 formula that had no cached value"), "\(kept.stderr)")
        let recalculated = try runSheetport(["convert", book, "--line-ending", "lf", "--recalc"])
        #expect(recalculated.status == 0 && text(recalculated.stdout) == "2,20,3\n", "\(text(recalculated.stdout))")
        #expect(!recalculated.stderr.contains("had no cached value"))
    }

    /// A function the engine lacks is named with its count and first cell; --strict exits 1 but
    /// still writes the output.
    @Test func unsupportedFunctionsAreNamedAndStrictFails() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("let.xlsx").path
        try writeWithOpenpyxl("""
            ws["A1"] = 1
            ws["B2"] = "=_xlfn.NOTINEXCEL(2)"; ws["B3"] = "=_xlfn.NOTINEXCEL(3)"
            ws["C2"] = "=NOSUCHFUNC(1)"; ws["D2"] = "=A1+1"
            """, to: book)
        let result = try runSheetport(["convert", book, "--line-ending", "lf", "--recalc"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("unsupported function NOTINEXCEL in 2 cells, first B2"), "\(result.stderr)")
        #expect(result.stderr.contains("unsupported function NOSUCHFUNC in 1 cell, first C2"), "\(result.stderr)")
        // Without --recalc the same cells are computed (they had no value) and named too.
        let computing = try runSheetport(["convert", book, "--line-ending", "lf"])
        #expect(computing.status == 0 && computing.stderr.contains("unsupported function NOTINEXCEL in 2 cells, first B2"), "\(computing.stderr)")
        #expect(text(computing.stdout).contains("#NAME?"))
        let strict = try runSheetport(["convert", book, "--strict", "-o", folder.appendingPathComponent("out.csv").path])
        #expect(strict.status == 1 && strict.stderr.contains("NOTINEXCEL"), "\(strict.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.csv").path))
        // All supported: --strict passes.
        let fine = folder.appendingPathComponent("fine.xlsx").path
        try writeWithOpenpyxl("ws[\"A1\"] = 2; ws[\"B1\"] = \"=SUM(A1,3)\"", to: fine)
        let passes = try runSheetport(["convert", fine, "--strict", "--line-ending", "lf"])
        #expect(passes.status == 0 && text(passes.stdout) == "2,5\n", "\(passes.stderr)")
    }
}
