import Foundation
import Testing
@testable import SheetPortCalc

/// The list of implemented functions in SheetPortCalc's documentation (the `Functions` article)
/// is the registry's own: the test fails, printing the line to paste, when a function is added
/// or removed without the article following.
@Suite struct FunctionListTests {
    @Test func theDocumentationListsTheRegistrysFunctions() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(contentsOf: root.appendingPathComponent("Sources/SheetPortCalc/SheetPortCalc.docc/Functions.md"), encoding: .utf8)
        let start = try #require(article.range(of: "<!-- functions: generated from CalcEngine.implementedFunctions -->\n"))
        let end = try #require(article.range(of: "\n<!-- /functions -->", range: start.upperBound..<article.endIndex))
        let listed = String(article[start.upperBound..<end.lowerBound])
        let expected = CalcEngine.implementedFunctions.joined(separator: ", ")
        #expect(listed == expected, "Functions.md's function list should read:\n\(expected)")
        #expect(CalcEngine.implementedFunctions.count >= 150)
    }

    /// Excel's names the engine lacks and the ones it implements do not overlap (a function
    /// implemented leaves `excelFunctionsNotImplemented`), and a name Excel does not know is no
    /// Excel function, whatever its spelling.
    @Test func excelsFunctionNames() {
        let implemented = Set(CalcEngine.implementedFunctions)
        #expect(implemented.isDisjoint(with: CalcEngine.excelFunctionsNotImplemented),
                "implemented, still listed as missing: \(implemented.intersection(CalcEngine.excelFunctionsNotImplemented).sorted())")
        for name in implemented { #expect(CalcEngine.isExcelFunction(name), "\(name)") }
        for name in ["WEBSERVICE", "CUBEVALUE", "GETPIVOTDATA", "RTD", "LET", "LAMBDA", "SUM", "NORM.S.DIST"] {
            #expect(CalcEngine.isExcelFunction(name), "\(name)")
        }
        for name in ["XYZ", "SUMM", "MYFUNC", "", "sum", "SUM ", "_XLFN.SUM", "NORM.S.DIST.", String(repeating: "A", count: 10_000), "SÜM"] {
            #expect(!CalcEngine.isExcelFunction(name), "\(name)")
        }
    }
}
